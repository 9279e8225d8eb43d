/**
 * Pruning of the remote-source cache. Entries are content-keyed folders that are never rewritten: a git
 * checkout per commit (`git/<url key>/<commit>/`), a verified URL skill per digest
 * (`url/<url key>/skills/<name>/<hex>/`) and a verified MCP skill copy per digest (`mcp/<name>/sha256-<hex>/`).
 * Every resolution marks the entries it loads as used (the folder's modification time, which no
 * content digest covers); `skillctx sync` then removes entries no source used for
 * {@link CACHE_UNUSED_MAX_MS}, and temp folders a crashed write left behind. Another project on the
 * machine that still needs an old entry fetches it again (online) when its next resolution misses it.
 */
import { readdir, rm, stat, utimes } from "node:fs/promises";
import * as path from "node:path";
import { CACHE_UNUSED_MAX_MS } from "./limits.js";
import type { ResolvedRemote } from "./types.js";

// Depth of an entry below the cache root, by kind (the first segment).
const ENTRY_DEPTH: Record<string, number> = { git: 3, url: 5, mcp: 3 };
// What an entry's own name looks like, by kind: anything else (repo.git, refs.json, index/, listing.json) is left alone.
const ENTRY_NAME: Record<string, RegExp> = {
  git: /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/,
  url: /^[0-9a-f]{64}$/,
  mcp: /^sha256-[0-9a-f]{64}$/,
};
// A temp folder of tempDirFor (or a listing temp file) older than this is a crashed write's leftover.
const TEMP_MAX_MS = 24 * 60 * 60 * 1000;

/** The cache entry (content-keyed folder) that holds `dir`, or undefined when `dir` is not in one. */
export function cacheEntryOf(cacheDir: string, dir: string): string | undefined {
  const relative = path.relative(cacheDir, dir);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  const depth = ENTRY_DEPTH[parts[0]!];
  if (depth === undefined || parts.length < depth || !ENTRY_NAME[parts[0]!]!.test(parts[depth - 1]!)) return undefined;
  return path.join(cacheDir, ...parts.slice(0, depth));
}

/** Marks the cache entries of `resolved` as used now (best effort). Returns the entries. */
export async function markCacheUsed(cacheDir: string, resolved: readonly ResolvedRemote[]): Promise<Set<string>> {
  const entries = new Set<string>();
  for (const source of resolved)
    for (const skill of source.skills) {
      const entry = cacheEntryOf(cacheDir, skill.dir);
      if (entry !== undefined) entries.add(entry);
    }
  const now = new Date();
  await Promise.all([...entries].map((entry) => utimes(entry, now, now).catch(() => undefined)));
  return entries;
}

/** What {@link pruneRemoteCache} removed, relative to the cache root. */
export interface CachePruned {
  removed: string[];
}

/**
 * Removes the cache entries not used for `maxUnusedMs` (never one in `inUse`), and temp leftovers older
 * than a day. Best effort: an entry that cannot be removed stays. Never follows symlinks.
 */
export async function pruneRemoteCache(
  cacheDir: string,
  options: { inUse: ReadonlySet<string>; maxUnusedMs?: number; now?: number },
): Promise<CachePruned> {
  const now = options.now ?? Date.now();
  const maxUnused = options.maxUnusedMs ?? CACHE_UNUSED_MAX_MS;
  const removed: string[] = [];
  for (const [kind, depth] of Object.entries(ENTRY_DEPTH)) {
    for (const dir of await foldersAt(path.join(cacheDir, kind), depth - 1)) {
      const name = path.basename(dir);
      const temp = name.startsWith(".tmp-");
      if (!temp && !ENTRY_NAME[kind]!.test(name)) continue;
      if (options.inUse.has(dir)) continue;
      let modified: number;
      try {
        modified = (await stat(dir)).mtimeMs;
      } catch {
        continue;
      }
      if (now - modified <= (temp ? TEMP_MAX_MS : maxUnused)) continue;
      try {
        await rm(dir, { recursive: true, force: true });
        removed.push(path.relative(cacheDir, dir));
      } catch {
        // in use by another process, or not ours to remove: left for the next prune
      }
    }
  }
  return { removed: removed.sort() };
}

// Every real folder exactly `levels` below `root` (symlinks are not followed).
async function foldersAt(root: string, levels: number): Promise<string[]> {
  let current = [root];
  for (let level = 0; level < levels; level++) {
    const next: string[] = [];
    for (const dir of current) {
      try {
        for (const entry of await readdir(dir, { withFileTypes: true }))
          if (entry.isDirectory() && !entry.isSymbolicLink()) next.push(path.join(dir, entry.name));
      } catch {
        // gone or unreadable
      }
    }
    current = next;
  }
  return current;
}
