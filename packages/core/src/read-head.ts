import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { sep } from "node:path";
import { SkillctxError } from "./errors.js";
import { errorCode, OPEN_FLAGS, openRegularFileSync } from "./fs/open-file.js";
import type { ReadFailure } from "./fs/open-file.js";
import { readTextFileSync } from "./fs/read-text-file.js";
import { MAX_SKILL_FILE_BYTES } from "./limits.js";
import type { FileStamp } from "./scan-cache/file-stamp.js";

/** The frontmatter head of a file, read without its body. */
export interface FileHead {
  /**
   * The text from the start of the file through the closing fence line, or the whole
   * file when `whole` is true. Empty when the file does not open with a fence.
   */
  text: string;
  /** The file opens (after a BOM and blank lines) with a fence line of three or more dashes. */
  fenced: boolean;
  /** `text` is the whole file (it ended before a closing fence was found). */
  whole: boolean;
  /** Size and modification time from `fstat` of the handle that was read. */
  size: number;
  mtimeMs: number;
  /** The whole stamp (size, mtime, ctime, inode, device, mode) of that `fstat`, or of the caller's `stat`. */
  stamp: FileStamp;
}

/** Options for {@link readHeadSync}. */
export interface ReadHeadOptions {
  /** Bytes read first; doubled until the closing fence is in. @default 4096 */
  chunkSize?: number;
  /**
   * Size and mtime the caller already has from a `stat` (reported instead of the handle's, so that a
   * cache keyed by them stays consistent with the stat it was looked up by).
   */
  stat?: FileStamp;
  /** Largest file read: a larger one, or a head that does not close within it, is `TOO_LARGE`. @default MAX_SKILL_FILE_BYTES (4 MiB) */
  maxBytes?: number;
}

// The first chunk of every read goes through one scratch buffer (the reads are synchronous),
// so a scan of thousands of small files does not allocate a buffer per file.
const SCRATCH = Buffer.allocUnsafe(4096);

/**
 * Reads only the frontmatter block at the start of `file`: the first chunk, extended until the
 * closing fence line. The body is never decoded. Fences are found liberally (a line of three or
 * more dashes, trailing blanks allowed); the parser has the last word on what the block means.
 *
 * Synchronous on purpose: for small files one `open`/`read`/`close` costs a few microseconds,
 * while a thread-pool round trip per call costs several times that. Callers batch and yield.
 *
 * Opened as repository content is (`fs/open-file.ts`): a FIFO, device or socket is refused without
 * blocking (`NOT_A_FILE`), and a file over `maxBytes` is `TOO_LARGE` without being read.
 *
 * @throws SkillctxError `NOT_A_FILE`, `TOO_LARGE` or `READ_FAILED`.
 */
export function readHeadSync(file: string, options: ReadHeadOptions = {}): FileHead {
  const opened = openRegularFileSync(file);
  if (!opened.ok) throw readError(file, opened);
  try {
    return readOpenedHead(file, opened.fd, options.stat ?? opened.stats, opened.stats.size, options);
  } finally {
    closeSync(opened.fd);
  }
}

/** A SKILL.md found by {@link readSkillHeadSync}, with its head already read. */
export interface SkillHeadProbe {
  path: string;
  head: FileHead;
}

/**
 * The `SKILL.md` (or `skill.md`) of `dir` with its head, read in one go: `open`, `fstat`, `read`, `close`,
 * where a `stat` first and {@link readHeadSync} later would take five calls (the `stat` resolving the path
 * again). For a scan of files its cache does not hold: those are read anyway.
 *
 * Returns undefined when `dir` has no such regular file (a folder named `SKILL.md` does not count), and
 * `"ask-stat"` whenever the answer needs more than this fast path gives: a symlink while `containRoot`
 * is set (opened with `O_NOFOLLOW`, it must be checked against the root), a file that is not regular
 * (the caller's `stat` names it), an error other than "not found", or a head that cannot be read (too
 * large, unreadable: the caller's read reports it). The caller then takes its usual path.
 */
export function readSkillHeadSync(dir: string, containRoot?: string): SkillHeadProbe | "ask-stat" | undefined {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  const flags = containRoot === undefined ? OPEN_FLAGS : OPEN_FLAGS | NOFOLLOW;
  for (const name of SKILL_FILE_NAMES) {
    const file = prefix + name;
    let fd: number;
    try {
      fd = openSync(file, flags);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT") continue;
      // ENOTDIR: `dir` is no folder (as a failed stat, not a skill); anything else (ELOOP, EACCES, ENXIO) asks stat.
      return code === "ENOTDIR" ? undefined : "ask-stat";
    }
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) continue;
      if (!stats.isFile() || stats.size > MAX_SKILL_FILE_BYTES) return "ask-stat";
      return { path: file, head: readOpenedHead(file, fd, stats, stats.size, {}) };
    } catch {
      return "ask-stat";
    } finally {
      closeSync(fd);
    }
  }
  return undefined;
}

const SKILL_FILE_NAMES = ["SKILL.md", "skill.md"];
// A symlink named SKILL.md fails with ELOOP instead of being followed (Linux, macOS); 0 where unknown.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

// The head of an open file: the first chunk, extended until the closing fence line.
function readOpenedHead(file: string, fd: number, stats: FileStamp, size: number, options: ReadHeadOptions): FileHead {
  const maxBytes = options.maxBytes ?? MAX_SKILL_FILE_BYTES;
  if (size > maxBytes) throw tooLarge(file, size, maxBytes);
  const chunkSize = Math.max(64, options.chunkSize ?? SCRATCH.length);
  let buffer = chunkSize === SCRATCH.length ? SCRATCH : Buffer.allocUnsafe(chunkSize);
  let length = 0;
  let eof = false;
  for (;;) {
    while (length < buffer.length && !eof) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      // The whole file is in once `size` bytes are (no second read to see 0); a /proc file says 0 and reads on.
      if (read === 0 || (size > 0 && length + read >= size)) eof = true;
      length += read;
    }
    // A file that grew past the cap since the fstat (or a /proc file, whose size says 0).
    if (length > maxBytes) throw tooLarge(file, length, maxBytes);
    const scan = scanHead(buffer, length, eof);
    if (scan !== "more") {
      const head = { size: stats.size, mtimeMs: stats.mtimeMs, stamp: stamp(stats) };
      if (scan === "unfenced") return { text: "", fenced: false, whole: false, ...head };
      if (scan === "unclosed") return { text: buffer.toString("utf8", 0, length), fenced: true, whole: true, ...head };
      return { text: buffer.toString("utf8", 0, scan), fenced: true, whole: scan === length && eof, ...head };
    }
    const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
    buffer.copy(bigger, 0, 0, length);
    buffer = bigger;
  }
}

/**
 * The whole text of a skill file, for when its head cannot stand alone: read as repository content is
 * (regular files only, at most `maxBytes`, strict UTF-8, and inside `containRoot` when given).
 *
 * @throws SkillctxError with the reader's code (`TOO_LARGE`, `NOT_A_FILE`, `PATH_OUTSIDE_ROOT`, ...).
 */
export function readSkillFileSync(
  file: string,
  options: { maxBytes?: number; containRoot?: string | undefined } = {},
): string {
  const read = readTextFileSync(file, {
    maxBytes: options.maxBytes ?? MAX_SKILL_FILE_BYTES,
    root: options.containRoot,
  });
  if (!read.ok) throw readError(file, read);
  return read.text;
}

/** A reader's failure as the SkillctxError that skill loading reports. */
export function readError(file: string, failure: ReadFailure): SkillctxError {
  const code = failure.code === "NOT_FOUND" ? "READ_FAILED" : failure.code;
  const options: { path: string; line?: number } = { path: file };
  if (failure.line !== undefined) options.line = failure.line;
  return new SkillctxError(code, failure.message, options);
}

function tooLarge(file: string, size: number, maxBytes: number): SkillctxError {
  return new SkillctxError(
    "TOO_LARGE",
    `${file} is ${size} bytes, over the ${maxBytes}-byte limit for a skill file; not loaded`,
    { path: file },
  );
}

const DASH = 0x2d;
const LF = 0x0a;

/**
 * Where the head ends in `buffer[0..length)`: the byte offset just after the closing fence line,
 * "unfenced" when the file does not open with a fence, "unclosed" when it ends without one,
 * or "more" when the answer needs more bytes.
 */
function scanHead(buffer: Buffer, length: number, eof: boolean): number | "unfenced" | "unclosed" | "more" {
  let pos = 0;
  if (length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) pos = 3;
  // Leading blank lines.
  for (;;) {
    const end = lineEnd(buffer, pos, length);
    if (end === -1) return eof ? (isFence(buffer, pos, length) ? "unclosed" : "unfenced") : "more";
    if (!isBlank(buffer, pos, end)) break;
    pos = end + 1;
  }
  const open = lineEnd(buffer, pos, length);
  if (!isFence(buffer, pos, open)) return "unfenced";
  pos = open + 1;
  for (;;) {
    const end = lineEnd(buffer, pos, length);
    if (end === -1) {
      if (!eof) return "more";
      return pos < length && isFence(buffer, pos, length) ? length : "unclosed";
    }
    if (isFence(buffer, pos, end)) return end + 1;
    pos = end + 1;
  }
}

function lineEnd(buffer: Buffer, from: number, length: number): number {
  const at = buffer.indexOf(LF, from);
  return at === -1 || at >= length ? -1 : at;
}

// Three or more dashes, then only spaces, tabs or a CR.
function isFence(buffer: Buffer, from: number, end: number): boolean {
  let i = from;
  while (i < end && buffer[i] === DASH) i++;
  return i - from >= 3 && isBlank(buffer, i, end);
}

function isBlank(buffer: Buffer, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const byte = buffer[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

// The identity fields of a stat (a `Stats` carries many more), so a head keeps no `Stats` object alive.
function stamp(stats: FileStamp): FileStamp {
  const { size, mtimeMs, ctimeMs, ino, dev, mode } = stats;
  return { size, mtimeMs, ctimeMs, ino, dev, mode };
}
