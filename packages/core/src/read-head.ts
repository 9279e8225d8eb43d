import { closeSync, fstatSync, openSync, readSync } from "node:fs";

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
}

/** Options for {@link readHeadSync}. */
export interface ReadHeadOptions {
  /** Bytes read first; doubled until the closing fence is in. @default 4096 */
  chunkSize?: number;
  /** Size and mtime the caller already has from a `stat`; saves the `fstat`. */
  stat?: { size: number; mtimeMs: number };
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
 */
export function readHeadSync(file: string, options: ReadHeadOptions = {}): FileHead {
  const fd = openSync(file, "r");
  try {
    const stats = options.stat ?? fstatSync(fd);
    const chunkSize = Math.max(64, options.chunkSize ?? SCRATCH.length);
    let buffer = chunkSize === SCRATCH.length ? SCRATCH : Buffer.allocUnsafe(chunkSize);
    let length = 0;
    let eof = false;
    for (;;) {
      while (length < buffer.length && !eof) {
        const read = readSync(fd, buffer, length, buffer.length - length, length);
        if (read === 0) eof = true;
        length += read;
      }
      const scan = scanHead(buffer, length, eof);
      if (scan !== "more") {
        const head = { size: stats.size, mtimeMs: stats.mtimeMs };
        if (scan === "unfenced") return { text: "", fenced: false, whole: false, ...head };
        if (scan === "unclosed") return { text: buffer.toString("utf8", 0, length), fenced: true, whole: true, ...head };
        return { text: buffer.toString("utf8", 0, scan), fenced: true, whole: scan === length && eof, ...head };
      }
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
  } finally {
    closeSync(fd);
  }
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
