import { open } from "node:fs/promises";

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
    }
  | { ok: false; binary: true };

const CHUNK = 64 * 1024;

/**
 * Reads lines `startLine..endLine` of a UTF-8 text file, at most `maxBytes` of them, without loading the
 * rest of the file: it stops at the cap or after `endLine`. A NUL byte or invalid UTF-8 in what was read
 * marks the file binary. A line longer than the cap is cut on a character boundary.
 */
export async function readTextLines(
  file: string,
  options: { startLine: number; endLine: number; maxBytes: number; signal?: AbortSignal | undefined },
): Promise<TextRead> {
  const { startLine, endLine, maxBytes } = options;
  const handle = await open(file, "r");
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const buffer = Buffer.allocUnsafe(CHUNK);
    let line = 1;
    let pending = "";
    let out = "";
    let outBytes = 0;
    let cut = false;
    let splitLine = false;
    let reachedEnd = false;

    // Adds one line (with its newline, when it had one); false once the cap is hit.
    const take = (text: string): boolean => {
      if (line < startLine || line > endLine) return true;
      const bytes = Buffer.byteLength(text);
      if (outBytes + bytes <= maxBytes) {
        out += text;
        outBytes += bytes;
        return true;
      }
      cut = true;
      if (outBytes === 0) {
        // A single line longer than the cap: show its head.
        out = cutUtf8(text, maxBytes);
        outBytes = Buffer.byteLength(out);
        splitLine = true;
      }
      return false;
    };

    outer: for (;;) {
      options.signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      let text: string;
      try {
        if (bytesRead === 0) {
          text = decoder.decode();
        } else {
          if (buffer.subarray(0, bytesRead).includes(0)) return { ok: false, binary: true };
          text = decoder.decode(buffer.subarray(0, bytesRead), { stream: true });
        }
      } catch {
        return { ok: false, binary: true };
      }
      pending += text;
      let from = 0;
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        if (!take(pending.slice(from, newline + 1))) break outer;
        line++;
        if (line > endLine) break outer;
        from = newline + 1;
        newline = pending.indexOf("\n", from);
      }
      pending = pending.slice(from);
      if (bytesRead === 0) {
        reachedEnd = true;
        if (pending !== "") {
          if (!take(pending)) break;
          line++;
        }
        break;
      }
    }

    const lastShown = cut ? (splitLine ? line : line - 1) : Math.min(line - 1, endLine);
    const result: TextRead = { ok: true, text: out, first: startLine, last: lastShown, cut, splitLine, reachedEnd };
    if (reachedEnd && !cut) result.totalLines = line - 1;
    return result;
  } finally {
    await handle.close();
  }
}

function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text).subarray(0, maxBytes);
  // Drop a partial character at the end.
  return new TextDecoder("utf-8", { fatal: false }).decode(bytes).replace(/\uFFFD$/, "");
}
