import * as path from "node:path";
import { compareCodePoints } from "./code-point-order.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { loadSkillFile } from "./load-skill-file.js";
import { ScanPacer } from "./scan-pacer.js";
import { createHash } from "./crypto-lib.js";
import { cacheEntries, defaultSkillCache, persistedMemo } from "./skill-cache.js";
import { PersistentScan } from "./scan-cache/persistent-scan.js";
import type { SkillCache } from "./skill-cache.js";
import { collectSource } from "./skill-sources.js";
import type { FoundSkill, SkillSourceInput, SourceEntry } from "./skill-sources.js";
import type { Skill, SkillScope } from "./skill.js";
import type { CachedPaths, WalkContext } from "./walk-skill-dirs.js";

/** Options for {@link loadSkills}. */
export interface LoadSkillsOptions {
  /** The scope of skills read from path sources (Skill objects keep their own). @default "project" */
  scope?: SkillScope;
  /**
   * The folder relative path sources resolve against. Without it a relative source is refused with a
   * `PATH_NOT_ABSOLUTE` error (paths never resolve against the process's working folder).
   * @default undefined (absolute paths only)
   */
  cwd?: string;
  /** Parsed metadata kept between scans. @default defaultSkillCache */
  cache?: SkillCache;
  /**
   * Keep what the scan derives from each file (metadata, diagnostics) on disk, for the next process:
   * `true` in `defaultCacheDir()` (`SKILLCTX_CACHE_DIR`, else the user's cache folder), or in `dir`. A file
   * is used again only while its size, mtime, ctime, inode, device and mode are unchanged (and, when it
   * changed within 2 seconds of being read, its text's SHA-256). Results are the same with or without it.
   * @default false
   */
  persistentCache?: PersistentCacheOption;
  signal?: AbortSignal;
}

/** Where a scan keeps its persistent cache: `true` in the default folder, or in `dir`; `false` not at all. */
export type PersistentCacheOption = boolean | { dir?: string };

/** The skills a scan found, in code-point order of name, and what went wrong on the way. */
export interface LoadSkillsResult {
  skills: Skill[];
  diagnostics: Diagnostic[];
}

/**
 * Loads skills from folders, files and Skill objects, reading only each file's frontmatter:
 * every skill's `content` is read from disk on first access. A parent folder is searched to
 * depth 4 for sub-folders with a SKILL.md (skipping dot-folders and `node_modules`), and its
 * other `.md` files are legacy skills named by their path relative to it (`a/b.md` → `a/b`).
 * Symlinks are followed (the caller chose these sources; {@link discoverSkills} contains project
 * folders); a folder or file reached twice counts once. When two skills share a name, the first
 * source wins and a `NAME_CLASH` warning names both. One bad file never stops the others: it becomes
 * a diagnostic (a file over 4 MiB is `TOO_LARGE`; FIFOs, devices and sockets are never opened).
 *
 * @example
 * const { skills, diagnostics } = await loadSkills(["./skills", "./extra/AGENTS-review.md"], { cwd: process.cwd() });
 */
export async function loadSkills(
  sources: SkillSourceInput[],
  options: LoadSkillsOptions = {},
): Promise<LoadSkillsResult> {
  const scope = options.scope ?? "project";
  return loadSkillSources(
    sources.map((input) => ({ input, scope })),
    {
      baseDir: options.cwd === undefined ? undefined : path.resolve(options.cwd),
      cache: options.cache,
      persistentCache: options.persistentCache,
      signal: options.signal,
    },
  );
}

/**
 * @internal Loads sources in precedence order (first wins on a name clash); relative paths resolve
 * against `baseDir` (refused with `PATH_NOT_ABSOLUTE` without one).
 */
export async function loadSkillSources(
  sources: SourceEntry[],
  options: {
    baseDir: string | undefined;
    cache?: SkillCache | undefined;
    persistentCache?: PersistentCacheOption | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<LoadSkillsResult> {
  const cache = options.cache ?? defaultSkillCache;
  const entries = cacheEntries(cache);
  const pacer = new ScanPacer(options.signal);
  const cacheDiagnostics: Diagnostic[] = [];
  const persistent =
    options.persistentCache === undefined || options.persistentCache === false
      ? undefined
      : await PersistentScan.open(scanScope(sources, options.baseDir), persistedMemo(cache), {
          dir: options.persistentCache === true ? undefined : options.persistentCache.dir,
          report: (d) => cacheDiagnostics.push(d),
        });
  const context: WalkContext = {
    pacer,
    diagnostics: [],
    visitedDirs: new Set(),
    seenFiles: new Set(),
    skillDirs: new Set(),
    cached: persistent === undefined ? entries : eitherHas(entries, persistent),
  };
  const found: FoundSkill[] = [];
  for (const source of sources) await collectSource(source, options.baseDir, context, found);

  const diagnostics = context.diagnostics;
  const byName = new Map<string, Skill>();
  for (const item of found) {
    let skill: Skill | undefined;
    if (item.kind === "inline") {
      skill = item.skill;
    } else {
      const { file } = item;
      // A file reached through a symlink into a skill's folder is one of its resources.
      if (file.realPath !== undefined && file.explicit !== true && insideAny(file.realPath, context.skillDirs))
        continue;
      const loaded = loadSkillFile(file, entries, persistent);
      // The head read by the walk is parsed now; the file object lives on with the skill, the head need not.
      delete file.head;
      diagnostics.push(...loaded.diagnostics);
      skill = loaded.skill;
      if (pacer.tick(loaded.calls)) await pacer.pause();
    }
    if (skill === undefined) continue;
    const first = byName.get(skill.name);
    if (first === undefined) {
      byName.set(skill.name, skill);
      continue;
    }
    diagnostics.push(
      diagnostic(
        "NAME_CLASH",
        "warning",
        `skill "${skill.name}" at ${where(skill)} is shadowed by the one at ${where(first)}`,
        { path: skill.source.path },
      ),
    );
  }
  pacer.check();
  await persistent?.save();
  diagnostics.push(...cacheDiagnostics);
  const skills = [...byName.values()].sort((a, b) => compareCodePoints(a.name, b.name));
  return { skills, diagnostics };
}

// The scan configuration a persistent cache file belongs to: its sources in order, with how each is read.
function scanScope(sources: readonly SourceEntry[], baseDir: string | undefined): string {
  const text = JSON.stringify({
    baseDir: baseDir ?? null,
    sources: sources.map((s) =>
      typeof s.input === "string"
        ? [s.input, s.scope, s.optional === true, s.containRoot ?? null, s.origin ?? null]
        : "inline",
    ),
  });
  // The store keeps the scope whole in its header: a long one is kept as its digest.
  return text.length <= 4096 ? text : `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

function eitherHas(entries: Map<string, unknown>, persistent: PersistentScan): CachedPaths {
  return {
    get size() {
      return entries.size + 1;
    },
    has: (path) => entries.has(path) || persistent.has(path),
  };
}

function insideAny(file: string, folders: ReadonlySet<string>): boolean {
  if (folders.size === 0) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (folders.has(dir)) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

function where(skill: Skill): string {
  return skill.source.path ?? `(${skill.source.kind} ${skill.source.scope} skill)`;
}
