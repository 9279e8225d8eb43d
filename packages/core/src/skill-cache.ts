import * as path from "node:path";
import type { SkillctxError } from "./errors.js";
import type { Diagnostic } from "./diagnostics.js";
import type { Skill } from "./skill.js";
import type { FileStamp } from "./scan-cache/file-stamp.js";

/**
 * Parsed skill metadata kept between scans, keyed by file path and checked against the file's
 * size and mtime, so a scan of unchanged files costs one `stat` each. Bodies are not kept by a
 * scan: only once a skill's `content` has been read is it cached here, beside its metadata.
 */
export interface SkillCache {
  /**
   * Forgets cached files: all of them, or the file at `path` and every file under it when
   * `path` is a folder. The next scan reads and parses them again.
   */
  invalidate(path?: string): void;
  /** How many files are cached. */
  readonly size: number;
}

/** The digest of the text a cache entry was parsed from, kept when the file's stamp is ambiguous. */
export interface TextDigest {
  of: "head" | "whole";
  sha256: string;
}

/** @internal A persisted entry (scan-cache/persistent-scan.ts): the entry with the full stamp it was read under. */
export interface PersistedEntry {
  stamp: Required<FileStamp>;
  entry: CacheEntry;
}

/** @internal What a process remembers of the persisted cache of each scan configuration. */
export type PersistedMemo = Map<string, Map<string, PersistedEntry>>;

/** @internal One cached file. */
export interface CacheEntry {
  size: number;
  mtimeMs: number;
  /** The parse options the entry was made with. */
  format: "skill-md" | "legacy";
  root: string | undefined;
  dir: string | undefined;
  /** The parse result with `content: ""` (the body is never kept by a scan), or the error that stopped it. */
  result: { ok: true; meta: Skill; diagnostics: Diagnostic[] } | { ok: false; error: SkillctxError };
  /** The body, once some skill object read it for exactly this size and mtime. */
  body?: string;
  /** The whole stamp of the `stat` taken before the file was read (the persistent cache's key). */
  stamp?: FileStamp;
  /** The file had changed less than 2 seconds before it was read, or has no ctime: its stamp alone may hide a change. */
  ambiguous?: boolean;
  /** For an ambiguous stamp, the digest of the text parsed (kept when the scan persists). */
  digest?: TextDigest;
}

class MemorySkillCache implements SkillCache {
  readonly entries = new Map<string, CacheEntry>();
  /** What this process last read or wrote of each persisted scan cache (scan-cache/persistent-scan.ts). */
  readonly persisted: PersistedMemo = new Map();
  /** False once `invalidate()` dropped everything: the persisted files are not read again by this cache. */
  readsDisk = true;

  get size(): number {
    return this.entries.size;
  }

  invalidate(target?: string): void {
    if (target === undefined) {
      this.entries.clear();
      this.persisted.clear();
      this.readsDisk = false;
      return;
    }
    const resolved = path.resolve(target);
    const prefix = resolved.endsWith(path.sep) ? resolved : resolved + path.sep;
    for (const map of [this.entries, ...this.persisted.values()]) {
      for (const key of [...map.keys()]) {
        if (key === resolved || key.startsWith(prefix)) map.delete(key);
      }
    }
  }
}

/**
 * Creates an empty cache for {@link loadSkills} and {@link discoverSkills}. Pass the same cache to
 * repeated scans; scans without a `cache` option share {@link defaultSkillCache}.
 *
 * @example
 * const cache = createSkillCache();
 * await loadSkills(["./skills"], { cache, cwd }); // reads and parses every head
 * await loadSkills(["./skills"], { cache, cwd }); // stats only, unless files changed
 */
export function createSkillCache(): SkillCache {
  return new MemorySkillCache();
}

/** The cache used by scans that are given none. Call `defaultSkillCache.invalidate()` to drop it. */
export const defaultSkillCache: SkillCache = createSkillCache();

/** @internal The entries of a cache made by {@link createSkillCache}. */
export function cacheEntries(cache: SkillCache): Map<string, CacheEntry> {
  if (!(cache instanceof MemorySkillCache)) {
    throw new TypeError("skillctx: `cache` must come from createSkillCache()");
  }
  return cache.entries;
}

/** @internal What a cache made by {@link createSkillCache} remembers of the persisted scan caches. */
export function persistedMemo(cache: SkillCache): { memo: PersistedMemo; readsDisk: boolean } {
  if (!(cache instanceof MemorySkillCache)) {
    throw new TypeError("skillctx: `cache` must come from createSkillCache()");
  }
  return { memo: cache.persisted, readsDisk: cache.readsDisk };
}
