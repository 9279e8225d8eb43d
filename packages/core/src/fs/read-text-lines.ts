import { createHash } from "../crypto-lib.js";
import { MAX_RESOURCE_SCAN_BYTES, MAX_SKILL_FILE_DIGEST_BYTES } from "../limits.js";
import { openRegularFile } from "./open-file.js";
import type { ReadFailure } from "./open-file.js";
import { decodeStrict, wholeCodePoints } from "./utf8.js";

/** What {@link readTextLines} read. */
export type TextRead =
  | {
      ok: true;
      text: string;
      /** First and last line shown (1-based); `last < first` when nothing was shown. */
      first: number;
      last: number;
      /** The byte cap stopped the read; `last` may be a partly shown line when `splitLine`. */
      cut: boolean;
      splitLine: boolean;
      /** The file ended within or before the range. */
      reachedEnd: boolean;
      /** Lines in the file, known only when the read reached the end. */
      totalLines?: number;
      /** The file's size in bytes. */
      size: number;
    }
  | { ok: false; binary: true }
  /** The file's bytes are not the ones `options.digest` names (it changed since that digest was taken). */
  | { ok: false; binary: false; mismatch: true; digest: string }
  /** `startLine` lies past the first `scanned` bytes, which is as far as a read looks for it. */
  | { ok: false; binary: false; beyond: true; scanned: number }
  /** The file could not be opened as a regular file (core's reader said why). */
  | { ok: false; binary: false; failure: ReadFailure };

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Reads lines `startLine..endLine` of a UTF-8 text file, at most `maxBytes` of them, without loading the
 * rest of the file: one pass over fixed-size chunks, so the cost is linear in the bytes read and the
 * memory is `maxBytes` plus one chunk, however long a line is. Lines before `startLine` are only counted,
 * and at most `maxScanBytes` are scanned to find it. Opened as all repository content is (regular files
 * only, never blocking on a FIFO). A NUL byte in what was read, or invalid UTF-8 in what is shown, marks
 * the file binary. A line longer than the cap is cut on a character boundary.
 *
 * With `digest` (`sha256:<hex>` of the whole file, as taken when a signature was verified), every byte
 * of the open file is hashed, the lines shown and the rest to the end, and a file whose bytes differ is
 * refused (`mismatch`): what is returned is exactly what was verified, with no window between a check
 * and a read.
 */
export async function readTextLines(
  file: string,
  options: {
    startLine: number;
    endLine: number;
    maxBytes: number;
    maxScanBytes?: number | undefined;
    /** The digest the whole file must have; refused (`mismatch`) otherwise. @default none (no check) */
    digest?: string | undefined;
    signal?: AbortSignal | undefined;
  },
): Promise<TextRead> {
  const { startLine, endLine } = options;
  const maxBytes = Math.max(0, Math.floor(options.maxBytes));
  const maxScanBytes = options.maxScanBytes ?? MAX_RESOURCE_SCAN_BYTES;
  const opened = await openRegularFile(file);
  if (!opened.ok) return { ok: false, binary: false, failure: opened };
  const { handle, stats } = opened;
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    const hash = options.digest === undefined ? undefined : createHash("sha256");
    let out: Buffer = Buffer.allocUnsafe(Math.min(maxBytes, CHUNK));
    let outLength = 0;
    // Where the line being read starts in `out` (it is dropped if it does not fit whole).
    let lineStart = 0;
    let line = 1;
    let lineHasBytes = false;
    let scanned = 0;
    let cut = false;
    let splitLine = false;
    let reachedEnd = false;

    // Appends data[from..to) of the current line; false once the cap is hit (then `cut` is set).
    const append = (data: Buffer, from: number, to: number): boolean => {
      const length = to - from;
      if (outLength + length <= maxBytes) {
        if (outLength + length > out.length) out = grow(out, outLength + length, maxBytes);
        data.copy(out, outLength, from, to);
        outLength += length;
        return true;
      }
      cut = true;
      if (lineStart === 0) {
        // A single line longer than the cap: show its head, on a character boundary.
        if (maxBytes > out.length) out = grow(out, maxBytes, maxBytes);
        data.copy(out, outLength, from, from + (maxBytes - outLength));
        outLength = wholeCodePoints(out, maxBytes);
        splitLine = true;
      } else {
        outLength = lineStart; // whole lines only
      }
      return false;
    };

    outer: for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) {
        reachedEnd = true;
        if (lineHasBytes) line++; // the last line, without a newline
        break;
      }
      const data = chunk.subarray(0, bytesRead);
      hash?.update(data);
      if (data.indexOf(0) !== -1) return { ok: false, binary: true };
      scanned += bytesRead;
      let pos = 0;
      while (pos < bytesRead) {
        const newline = data.indexOf(NEWLINE, pos);
        const end = newline === -1 ? bytesRead : newline + 1;
        if (line >= startLine && !append(data, pos, end)) break outer;
        pos = end;
        if (newline === -1) {
          lineHasBytes = true; // the line goes on in the next chunk
          break;
        }
        line++;
        lineHasBytes = false;
        lineStart = outLength;
        if (line > endLine) break outer;
      }
      if (line < startLine && scanned >= maxScanBytes) return { ok: false, binary: false, beyond: true, scanned };
    }

    if (hash !== undefined) {
      // The rest of the file, hashed only: the digest covers the whole file, not just the lines shown.
      // A file grown past what a digest may cover is not the verified file: stop there, refused below.
      let total = scanned;
      while (!reachedEnd && total <= MAX_SKILL_FILE_DIGEST_BYTES) {
        options.signal?.throwIfAborted();
        const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        hash.update(chunk.subarray(0, bytesRead));
      }
      if (total > MAX_SKILL_FILE_DIGEST_BYTES) return { ok: false, binary: false, mismatch: true, digest: "" };
      const actual = `sha256:${hash.digest("hex")}`;
      if (actual !== options.digest) return { ok: false, binary: false, mismatch: true, digest: actual };
    }
    const decoded = decodeStrict(out.subarray(0, outLength));
    if (!decoded.ok) return { ok: false, binary: true };
    const last = cut ? (splitLine ? line : line - 1) : Math.min(line - 1, endLine);
    const result: TextRead = {
      ok: true,
      text: decoded.text,
      first: startLine,
      last,
      cut,
      splitLine,
      reachedEnd,
      size: Math.max(stats.size, scanned),
    };
    if (reachedEnd && !cut) result.totalLines = line - 1;
    return result;
  } finally {
    await handle.close();
  }
}

function grow(buffer: Buffer, needed: number, most: number): Buffer {
  const bigger = Buffer.allocUnsafe(Math.min(most, Math.max(needed, buffer.length * 2)));
  buffer.copy(bigger);
  return bigger;
}
