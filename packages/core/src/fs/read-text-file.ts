import { closeSync, readSync, realpathSync, statSync } from "node:fs";
import { realpath } from "node:fs/promises";
import * as path from "node:path";
import { openRegularFile, openRegularFileSync, readFailure } from "./open-file.js";
import type { ReadFailure } from "./open-file.js";
import { isAbsentError, isInside } from "./paths.js";
import { decodeStrict, wholeCodePoints } from "./utf8.js";

/** Options of {@link readTextFile} and {@link readTextFileSync}. */
export interface ReadTextFileOptions {
  /** Most bytes read. A larger file is `TOO_LARGE`, or cut when `truncate` is set. */
  maxBytes: number;
  /**
   * Containment: a file whose real path leaves this folder's real path is refused with
   * `PATH_OUTSIDE_ROOT` before it is opened. Unset: symlinks are followed anywhere.
   */
  root?: string | undefined;
  /** Over `maxBytes`, return the first `maxBytes` (whole code points) with `truncated: true` instead of `TOO_LARGE`. @default false */
  truncate?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** A text file read by {@link readTextFile}. */
export interface ReadTextSuccess {
  ok: true;
  /** The text, strict UTF-8, byte for byte (a BOM is kept). */
  text: string;
  /** The file's size in bytes (at least the bytes read: a `/proc` file says 0). */
  size: number;
  /** `text` is only the start of the file (`truncate` was set and the file is larger than `maxBytes`). */
  truncated: boolean;
  realPath: string;
  mtimeMs: number;
}

export type ReadTextResult = ReadTextSuccess | ReadFailure;

/**
 * Reads a text file of a repository, the one way skillctx reads repository content: regular files
 * only (a FIFO, device, socket or folder is refused without blocking), at most `maxBytes` (a larger
 * file is `TOO_LARGE`, never a crash), strict UTF-8 (`BINARY` for NUL bytes, `NOT_UTF8`), and, with
 * `root`, containment by real path (`PATH_OUTSIDE_ROOT`). Never throws, except on abort.
 */
export async function readTextFile(file: string, options: ReadTextFileOptions): Promise<ReadTextResult> {
  options.signal?.throwIfAborted();
  let realPath: string;
  try {
    realPath = await realpath(file);
  } catch (error) {
    return readFailure(file, error);
  }
  const outside = await checkRoot(file, realPath, options.root, (root) => realpath(root));
  if (outside !== undefined) return outside;
  const opened = await openRegularFile(realPath);
  if (!opened.ok) return { ...opened, message: opened.message.replace(realPath, file) };
  const { handle, stats } = opened;
  const limit = readLimit(options.maxBytes);
  if (!options.truncate && stats.size > limit) {
    await handle.close();
    return tooLarge(file, stats.size, options.maxBytes);
  }
  let buffer: Buffer = Buffer.allocUnsafe(firstSize(stats.size, limit));
  let length = 0;
  try {
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length >= limit + 1) break;
        buffer = grow(buffer, limit + 1);
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      options.signal?.throwIfAborted();
    }
  } catch (error) {
    options.signal?.throwIfAborted();
    return readFailure(file, error);
  } finally {
    await handle.close();
  }
  return finish(file, buffer, length, stats, realPath, options);
}

/** The synchronous twin of {@link readTextFile}, for hot paths that batch and yield themselves. */
export function readTextFileSync(file: string, options: ReadTextFileOptions): ReadTextResult {
  options.signal?.throwIfAborted();
  // Most files asked for are missing (a `.mcp.json` per skill folder, guidance files): a stat that
  // returns nothing costs a tenth of the exception `realpath` throws for them.
  if (isMissing(file)) return readFailure(file, { code: "ENOENT" });
  let realPath: string;
  try {
    realPath = realpathSync.native(file);
  } catch (error) {
    return readFailure(file, error);
  }
  const outside = checkRootSync(file, realPath, options.root);
  if (outside !== undefined) return outside;
  const opened = openRegularFileSync(realPath);
  if (!opened.ok) return { ...opened, message: opened.message.replace(realPath, file) };
  const { fd, stats } = opened;
  const limit = readLimit(options.maxBytes);
  try {
    if (!options.truncate && stats.size > limit) return tooLarge(file, stats.size, options.maxBytes);
    let buffer: Buffer = Buffer.allocUnsafe(firstSize(stats.size, limit));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (buffer.length >= limit + 1) break;
        buffer = grow(buffer, limit + 1);
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    return finish(file, buffer, length, stats, realPath, options);
  } catch (error) {
    return readFailure(file, error);
  } finally {
    closeSync(fd);
  }
}

/** Whether `file` does not exist; any other trouble (a loop, no permission) is left to the read to report. */
function isMissing(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) === undefined;
  } catch (error) {
    return isAbsentError(error);
  }
}

/** The failure of a file whose real path leaves `realRoot` (both real), or undefined when it stays inside. */
export function outsideRoot(file: string, realPath: string, realRoot: string): ReadFailure | undefined {
  if (isInside(realPath, realRoot)) return undefined;
  return {
    ok: false,
    code: "PATH_OUTSIDE_ROOT",
    message: `${file} resolves to ${realPath}, outside ${realRoot}; not read`,
  };
}

async function checkRoot(
  file: string,
  realPath: string,
  root: string | undefined,
  real: (root: string) => Promise<string>,
): Promise<ReadFailure | undefined> {
  if (root === undefined) return undefined;
  let realRoot: string;
  try {
    realRoot = await real(path.resolve(root));
  } catch (error) {
    return readFailure(root, error);
  }
  return outsideRoot(file, realPath, realRoot);
}

function checkRootSync(file: string, realPath: string, root: string | undefined): ReadFailure | undefined {
  if (root === undefined) return undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(path.resolve(root));
  } catch (error) {
    return readFailure(root, error);
  }
  return outsideRoot(file, realPath, realRoot);
}

// Reads stop one byte past the cap: that byte tells a file of exactly maxBytes from a larger one,
// without trusting the stat size (files in /proc say 0).
function readLimit(maxBytes: number): number {
  return Math.max(0, Math.floor(Number.isFinite(maxBytes) ? maxBytes : Number.MAX_SAFE_INTEGER - 1));
}

function firstSize(statSize: number, limit: number): number {
  return Math.min(limit + 1, Math.max(statSize + 1, 4096));
}

function grow(buffer: Buffer, most: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.min(most, buffer.length * 2));
  buffer.copy(bigger);
  return bigger;
}

function tooLarge(file: string, size: number, maxBytes: number): ReadFailure {
  return {
    ok: false,
    code: "TOO_LARGE",
    message: `${file} is ${size} bytes, over the ${maxBytes}-byte limit; not read`,
    size,
  };
}

function finish(
  file: string,
  buffer: Buffer,
  length: number,
  stats: { size: number; mtimeMs: number },
  realPath: string,
  options: ReadTextFileOptions,
): ReadTextResult {
  const limit = readLimit(options.maxBytes);
  const size = Math.max(stats.size, length);
  let end = length;
  let truncated = false;
  if (length > limit) {
    if (!options.truncate) return tooLarge(file, size, options.maxBytes);
    end = wholeCodePoints(buffer, limit);
    truncated = true;
  }
  const decoded = decodeStrict(buffer.subarray(0, end));
  if (!decoded.ok) {
    const message =
      decoded.code === "BINARY"
        ? `${file} looks binary (it contains NUL bytes); not read`
        : `${file} is not valid UTF-8; not read`;
    return decoded.line === undefined
      ? { ok: false, code: decoded.code, message }
      : { ok: false, code: decoded.code, message, line: decoded.line };
  }
  return { ok: true, text: decoded.text, size, truncated, realPath, mtimeMs: stats.mtimeMs };
}
