import { closeSync, constants, fstatSync, openSync } from "node:fs";
import type { Stats } from "node:fs";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { errorText } from "../error-text.js";

/** Why a file could not be read, as every reader of repository content reports it. */
export type ReadFailureCode =
  | "NOT_FOUND"
  | "NOT_A_FILE"
  | "PATH_OUTSIDE_ROOT"
  | "TOO_LARGE"
  | "BINARY"
  | "NOT_UTF8"
  | "READ_FAILED";

/** What a file that is not a regular file turned out to be. */
export type FileType = "directory" | "fifo" | "socket" | "device" | "symlink" | "other";

/** A refused or failed read: never thrown, always returned. */
export interface ReadFailure {
  ok: false;
  code: ReadFailureCode;
  /** One line that names the file and says why. */
  message: string;
  /** NOT_A_FILE: what the path is instead. */
  fileType?: FileType;
  /** TOO_LARGE: the size seen (at least `maxBytes + 1`). */
  size?: number;
  /** NOT_UTF8: the 1-based line of the first invalid byte. */
  line?: number;
}

/**
 * Flags of every open of repository content: read only; non-blocking, so that opening a FIFO returns
 * at once instead of waiting for a writer (the fstat that follows then refuses it); never a
 * controlling terminal. O_NONBLOCK does not change reads of regular files.
 */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** A regular file opened for reading, with the stats of the open handle. */
export type OpenedSync = { ok: true; fd: number; stats: Stats } | ReadFailure;
export type Opened = { ok: true; handle: FileHandle; stats: Stats } | ReadFailure;

/** Opens `file` if it is a regular file (checked on the handle, so no FIFO, device or socket is ever read). */
export function openRegularFileSync(file: string): OpenedSync {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    return openFailure(file, error);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isFile()) return { ok: true, fd, stats };
    closeSync(fd);
    return notAFile(file, stats);
  } catch (error) {
    closeSync(fd);
    return readFailure(file, error);
  }
}

/** The async twin of {@link openRegularFileSync}. */
export async function openRegularFile(file: string): Promise<Opened> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    return openFailure(file, error);
  }
  try {
    const stats = await handle.stat();
    if (stats.isFile()) return { ok: true, handle, stats };
    await handle.close();
    return notAFile(file, stats);
  } catch (error) {
    await handle.close().catch(() => undefined);
    return readFailure(file, error);
  }
}

/** What a stat says a path is, when it is not a regular file. */
export function fileTypeOf(stats: Stats): FileType {
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device";
  if (stats.isSymbolicLink()) return "symlink";
  return "other";
}

/** The failure for an error thrown by a file-system call on `file`. */
export function readFailure(file: string, error: unknown): ReadFailure {
  const code = errorCode(error);
  if (code === "ENOENT" || code === "ENOTDIR")
    return { ok: false, code: "NOT_FOUND", message: `${file} does not exist` };
  if (code === "EISDIR")
    return { ok: false, code: "NOT_A_FILE", message: `${file} is a folder, not a file`, fileType: "directory" };
  if (code === "ELOOP") return { ok: false, code: "READ_FAILED", message: `${file} is a symlink loop` };
  const reason = code ?? errorText(error);
  return { ok: false, code: "READ_FAILED", message: `cannot read ${file}: ${reason}` };
}

/** The `code` of a Node.js file-system error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function openFailure(file: string, error: unknown): ReadFailure {
  // A socket cannot be opened at all (ENXIO); a device may refuse (ENODEV, ENXIO).
  const code = errorCode(error);
  if (code === "ENXIO" || code === "ENODEV" || code === "EOPNOTSUPP") {
    return {
      ok: false,
      code: "NOT_A_FILE",
      message: `${file} is not a regular file (a socket or device); not read`,
      fileType: "other",
    };
  }
  return readFailure(file, error);
}

function notAFile(file: string, stats: Stats): ReadFailure {
  const fileType = fileTypeOf(stats);
  const what = fileType === "directory" ? "a folder" : fileType === "other" ? "not a regular file" : `a ${fileType}`;
  return { ok: false, code: "NOT_A_FILE", message: `${file} is ${what}, not a regular file; not read`, fileType };
}
