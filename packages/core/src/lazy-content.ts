import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { SkillctxError } from "./errors.js";
import { splitFrontmatter } from "./frontmatter.js";
import { safeParseSkill } from "./parse-skill.js";
import type { ParseSkillOptions } from "./parse-skill.js";
import type { CacheEntry } from "./skill-cache.js";
import type { Skill } from "./skill.js";
import type { FoundSkillFile } from "./walk-skill-dirs.js";

/** The options `safeParseSkill` gets for a file found by a scan. */
export function parseOptions(file: FoundSkillFile): ParseSkillOptions {
  const options: ParseSkillOptions = { path: file.path, format: file.format, scope: file.scope };
  if (file.root !== undefined) options.root = file.root;
  if (file.dir !== undefined) options.dir = file.dir;
  return options;
}

/** Where a scanned skill's body comes from, and the body once read. */
interface LazyState {
  file: FoundSkillFile;
  /** The cache entry the skill's metadata came from; the body is stored there too once read. */
  entry: CacheEntry;
  body: string | undefined;
}

// Skills made by a scan, with the state of their lazy body.
const lazySkills = new WeakMap<object, LazyState>();

/**
 * Makes `skill`'s `content` an enumerable getter: the body of `file` is read from disk on first
 * access (synchronously), then kept by the skill (and by the cache `entry`, when the file still
 * matches it). Assigning `content` replaces the body.
 */
export function withLazyContent(skill: Skill, file: FoundSkillFile, entry: CacheEntry): Skill {
  lazySkills.set(skill, { file, entry, body: entry.body });
  Object.defineProperty(skill, "content", CONTENT);
  return skill;
}

// One accessor pair shared by every scanned skill: no closure per skill.
const CONTENT: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: object): string {
    const state = lazySkills.get(this);
    if (state === undefined) return "";
    state.body ??= readBodySync(state);
    return state.body;
  },
  set(this: object, value: string) {
    const state = lazySkills.get(this);
    if (state !== undefined) state.body = value;
    else Object.defineProperty(this, "content", { value, enumerable: true, writable: true, configurable: true });
  },
};

/** Whether `skill` was made by a scan (its `content` may not be loaded yet). */
export function isScannedSkill(skill: object): boolean {
  return lazySkills.has(skill);
}

/** Whether a scanned skill's body is in memory (false for a skill whose body has not been read). */
export function isContentLoaded(skill: object): boolean {
  const state = lazySkills.get(skill);
  return state === undefined || state.body !== undefined;
}

/**
 * The body of `skill`, read asynchronously when it has not been loaded yet: the async twin of
 * the `content` getter of skills returned by {@link loadSkills} and {@link discoverSkills}.
 * For any other skill it returns `skill.content`.
 *
 * @throws SkillctxError `SKILL_READ_FAILED` when the file can no longer be read.
 */
export async function readSkillContent(skill: Skill, options: { signal?: AbortSignal } = {}): Promise<string> {
  const state = lazySkills.get(skill);
  if (state === undefined) return skill.content;
  if (state.body !== undefined) return state.body;
  const { path } = state.file;
  let text: string;
  let size: number;
  let mtimeMs: number;
  try {
    const handle = await open(path, "r");
    try {
      const stats = await handle.stat();
      size = stats.size;
      mtimeMs = stats.mtimeMs;
      text = await handle.readFile({ encoding: "utf8", ...(options.signal !== undefined && { signal: options.signal }) });
    } finally {
      await handle.close();
    }
  } catch (error) {
    options.signal?.throwIfAborted();
    throw readFailed(path, error);
  }
  // The sync getter may have won the race meanwhile; keep the first body.
  state.body ??= remember(state.entry, bodyOf(text, state.file), size, mtimeMs);
  return state.body;
}

function readBodySync(state: LazyState): string {
  let text: string;
  let size: number;
  let mtimeMs: number;
  try {
    const fd = openSync(state.file.path, "r");
    try {
      const stats = fstatSync(fd);
      size = stats.size;
      mtimeMs = stats.mtimeMs;
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw readFailed(state.file.path, error);
  }
  return remember(state.entry, bodyOf(text, state.file), size, mtimeMs);
}

// The body exactly as parseSkill gives it for the whole file.
function bodyOf(text: string, file: FoundSkillFile): string {
  const parsed = safeParseSkill(text, parseOptions(file));
  return parsed.ok ? parsed.skill.content : splitFrontmatter(text).body;
}

function remember(entry: CacheEntry, body: string, size: number, mtimeMs: number): string {
  if (entry.size === size && entry.mtimeMs === mtimeMs) entry.body ??= body;
  return body;
}

function readFailed(path: string, cause: unknown): SkillctxError {
  const reason = (cause as { code?: unknown } | null)?.code ?? (cause as Error | null)?.message ?? String(cause);
  return new SkillctxError("SKILL_READ_FAILED", `cannot read the body of ${path}: ${String(reason)}`, { path, cause });
}
