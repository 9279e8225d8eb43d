import { open } from "node:fs/promises";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";

/** What {@link readGuidanceText} found. `missing` is set when the file vanished (or never was a file). */
export type ReadTextResult =
  | { ok: true; text: string; truncated?: { size: number; kept: number } }
  | { ok: false; diagnostic?: Diagnostic; missing?: true };

/** Options of {@link readGuidanceText}. */
export interface ReadTextOptions {
  /** Bytes kept at most; a longer file is cut at the last line boundary before the limit. */
  maxBytes: number;
  /** How the file is named in the truncation note and diagnostics (a repository-relative path). */
  label: string;
  signal?: AbortSignal | undefined;
}

const NEWLINE = 0x0a;
const BOM = "\uFEFF";

/**
 * Reads a guidance file as UTF-8 text, byte for byte (only a leading BOM is dropped).
 * A binary or non-UTF-8 file is refused with a diagnostic; a file over `maxBytes` is cut at a line
 * boundary and ends with a visible note (text and note together fit in `maxBytes`); the caller turns
 * `truncated` into a diagnostic. Only `maxBytes` bytes are ever read.
 */
export async function readGuidanceText(file: string, options: ReadTextOptions): Promise<ReadTextResult> {
  options.signal?.throwIfAborted();
  let bytes: Buffer;
  let size: number;
  try {
    const handle = await open(file, "r");
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { ok: false, missing: true };
      size = stat.size;
      const wanted = Math.min(size, options.maxBytes);
      bytes = Buffer.alloc(wanted);
      let filled = 0;
      while (filled < wanted) {
        const { bytesRead } = await handle.read(bytes, filled, wanted - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      bytes = bytes.subarray(0, filled);
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR" || code === "ELOOP") return { ok: false, missing: true };
    return {
      ok: false,
      diagnostic: diagnostic("GUIDANCE_READ_FAILED", "error", `cannot read ${options.label}: ${(error as Error).message}`, {
        path: file,
      }),
    };
  }
  options.signal?.throwIfAborted();

  const cut = size > bytes.length;
  const kept = cut ? cutAtLineBoundary(bytes, options.maxBytes - noteRoom(options.label, size)) : bytes;
  const decoded = decode(kept, file, options.label);
  if (!decoded.ok) return decoded;
  if (!cut) return { ok: true, text: decoded.text };
  return {
    ok: true,
    text: decoded.text + truncationNote(decoded.text, options.label, size, kept.length),
    truncated: { size, kept: kept.length },
  };
}

/**
 * Cuts `text` at a line boundary so that it and the visible note fit in `maxBytes` UTF-8 bytes;
 * undefined when it already fits.
 */
export function truncateText(text: string, maxBytes: number, label: string): { text: string; size: number; kept: number } | undefined {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return undefined;
  const kept = cutAtLineBoundary(bytes, maxBytes - noteRoom(label, bytes.length));
  const head = kept.toString("utf8");
  return { text: head + truncationNote(head, label, bytes.length, kept.length), size: bytes.length, kept: kept.length };
}

/** The diagnostic that goes with a cut file. */
export function truncationDiagnostic(file: string, label: string, size: number, kept: number, maxBytes: number): Diagnostic {
  return diagnostic(
    "GUIDANCE_TRUNCATED",
    "warning",
    `${label} is ${size} bytes, over maxGuidanceBytes (${maxBytes}); only its first ${kept} bytes are used`,
    { path: file },
  );
}

// Bytes to keep free for the note, so that text plus note stay within the limit.
function noteRoom(label: string, size: number): number {
  return Buffer.byteLength(truncationNote("", label, size, size)) + 1;
}

// Keeps whole lines when there is a newline within the limit; otherwise whole code points.
function cutAtLineBoundary(bytes: Buffer, maxBytes: number): Buffer {
  const head = bytes.subarray(0, Math.max(0, maxBytes));
  const lastNewline = head.lastIndexOf(NEWLINE);
  if (lastNewline >= 0) return head.subarray(0, lastNewline + 1);
  // No newline: keep whole code points. Find the last lead byte and drop its sequence if incomplete.
  let lead = head.length - 1;
  while (lead > 0 && lead > head.length - 4 && ((head[lead] ?? 0) & 0xc0) === 0x80) lead--;
  const first = head[lead] ?? 0;
  const length = first < 0x80 ? 1 : first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  return lead + length > head.length ? head.subarray(0, lead) : head;
}

function truncationNote(head: string, label: string, size: number, kept: number): string {
  const gap = head === "" || head.endsWith("\n") ? "" : "\n";
  return `${gap}\n[skillctx: ${label} was truncated here: ${kept} of ${size} bytes are included (maxGuidanceBytes)]\n`;
}

function decode(bytes: Buffer, file: string, label: string): { ok: true; text: string } | { ok: false; diagnostic: Diagnostic } {
  if (bytes.includes(0)) {
    return {
      ok: false,
      diagnostic: diagnostic("GUIDANCE_BINARY", "error", `${label} looks binary (it contains NUL bytes); skipped`, { path: file }),
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const line = offset === undefined ? undefined : countLines(bytes, offset);
    return {
      ok: false,
      diagnostic: diagnostic("GUIDANCE_NOT_UTF8", "error", `${label} is not valid UTF-8; skipped`, { path: file, line }),
    };
  }
  return { ok: true, text: text.startsWith(BOM) ? text.slice(1) : text };
}

// The byte offset where UTF-8 decoding first fails, found by decoding growing line prefixes.
function firstInvalidUtf8(bytes: Buffer): number | undefined {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let start = 0;
  while (start < bytes.length) {
    const next = bytes.indexOf(NEWLINE, start);
    const end = next < 0 ? bytes.length : next + 1;
    try {
      decoder.decode(bytes.subarray(start, end));
    } catch {
      return start;
    }
    start = end;
  }
  return undefined;
}

function countLines(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === NEWLINE) line++;
  return line;
}
