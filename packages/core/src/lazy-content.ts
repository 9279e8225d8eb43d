import { SkillctxError } from "./errors.js";
import { splitFrontmatter } from "./frontmatter-split.js";
import { readTextFile, readTextFileSync } from "./fs/read-text-file.js";
import type { ReadTextFileOptions, ReadTextResult } from "./fs/read-text-file.js";
import { MAX_SKILL_FILE_BYTES } from "./limits.js";
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
 * A copy of `meta` with `source` in its place and `content` an enumerable getter: the body of `file`
 * is read from disk on first access (synchronously), then kept by the skill (and by the cache `entry`,
 * when the file still matches it). Assigning `content` replaces the body.
 *
 * The copy is built key by key, `content` added as a new accessor in its place: turning an existing
 * data property into an accessor (`defineProperty` on a spread copy) would put every scanned skill in
 * dictionary mode, slower to read everywhere the engine reads skills and larger in memory.
 */
export function withLazyContent(meta: Skill, source: Skill["source"], file: FoundSkillFile, entry: CacheEntry): Skill {
  const skill = {} as Record<string, unknown>;
  const keys = Object.keys(meta);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === "content") Object.defineProperty(skill, "content", CONTENT);
    else skill[key] = key === "source" ? source : (meta as unknown as Record<string, unknown>)[key];
  }
  if (!Object.hasOwn(skill, "content")) Object.defineProperty(skill, "content", CONTENT);
  lazySkills.set(skill, { file, entry, body: entry.body });
  return skill as unknown as Skill;
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
 * For any other skill it returns `skill.content`. Bodies are read as all repository content is:
 * regular files only, at most 4 MiB (`MAX_SKILL_FILE_BYTES`), strict UTF-8, and project skills only
 * inside the project root.
 *
 * @throws SkillctxError `SKILL_READ_FAILED` when the file can no longer be read (gone, replaced by a
 * FIFO or a symlink out of the project, grown past the limit, no longer UTF-8).
 */
export async function readSkillContent(skill: Skill, options: { signal?: AbortSignal } = {}): Promise<string> {
  const state = lazySkills.get(skill);
  if (state === undefined) return skill.content;
  if (state.body !== undefined) return state.body;
  const read = await readTextFile(state.file.path, readOptions(state, options.signal));
  if (!read.ok) throw readFailed(state.file.path, read);
  // The sync getter may have won the race meanwhile; keep the first body.
  state.body ??= remember(state.entry, bodyOf(read.text, state.file), read.size, read.mtimeMs);
  return state.body;
}

function readBodySync(state: LazyState): string {
  const read = readTextFileSync(state.file.path, readOptions(state, undefined));
  if (!read.ok) throw readFailed(state.file.path, read);
  return remember(state.entry, bodyOf(read.text, state.file), read.size, read.mtimeMs);
}

function readOptions(state: LazyState, signal: AbortSignal | undefined): ReadTextFileOptions {
  return { maxBytes: MAX_SKILL_FILE_BYTES, root: state.file.containRoot, signal };
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

function readFailed(path: string, failure: Exclude<ReadTextResult, { ok: true }>): SkillctxError {
  return new SkillctxError(
    "SKILL_READ_FAILED",
    `cannot read the body of ${path}: ${failure.message} (${failure.code})`,
    {
      path,
      data: { reason: failure.code },
    },
  );
}
