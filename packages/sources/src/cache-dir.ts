import { cacheDirSeenFrom, createHash, randomBytes } from "@skillctx/core/internal";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import * as path from "node:path";

/**
 * The cache of remote sources: skillctx's one cache folder (`SKILLCTX_CACHE_DIR`, else `$XDG_CACHE_HOME/skillctx`,
 * else the user's cache folder, `~/.cache/skillctx` on Linux), seen from `homeDir` when given, as the scan cache is.
 */
export function defaultCacheDir(homeDir?: string): string {
  return cacheDirSeenFrom(homeDir);
}

/** A short, file-name-safe key for a URL (first 16 hex of its SHA-256): one cache folder per source location. */
export function locationKey(location: string): string {
  return createHash("sha256").update(location).digest("hex").slice(0, 16);
}

/** A fresh, empty temp folder beside `final` (same file system, so the rename is atomic). */
export async function tempDirFor(final: string): Promise<string> {
  const parent = path.dirname(final);
  await mkdir(parent, { recursive: true });
  const temp = path.join(parent, `.tmp-${path.basename(final)}-${process.pid}-${randomBytes(6).toString("hex")}`);
  await mkdir(temp);
  return temp;
}

/**
 * Moves a fully written temp folder to `final` in one rename, so a reader sees a cache entry whole
 * or not at all. When another process got there first, its copy is kept (entries are keyed by
 * content: both are the same) and ours is removed.
 */
export async function publishDir(temp: string, final: string): Promise<void> {
  try {
    await rename(temp, final);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    await rm(temp, { recursive: true, force: true });
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
  }
}

/** Whether `dir` exists as a folder. */
export async function isDir(dir: string): Promise<boolean> {
  try {
    return (await stat(dir)).isDirectory();
  } catch {
    return false;
  }
}
