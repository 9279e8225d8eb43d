import type { Stats } from "node:fs";

/**
 * What a scan knows of a file's identity from one `stat` taken before its content was read: size and
 * mtime key the in-process cache; the persistent cache also wants the change time, inode, device and
 * mode, so that an edit, a replacement, a symlink retargeted or a permission change is never hidden.
 */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs?: number;
  ino?: number;
  dev?: number;
  mode?: number;
}

/** The stamp of `stats`. */
export function stampOf(stats: Stats): FileStamp {
  return {
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    ino: stats.ino,
    dev: stats.dev,
    mode: stats.mode,
  };
}
