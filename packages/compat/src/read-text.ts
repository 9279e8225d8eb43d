import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { headUtf8BytesAtLine, readTextFile } from "@skillctx/core/internal";

/** What {@link readGuidanceText} found. `missing` is set when the file vanished (or never was a file). */
export type GuidanceTextResult =
  | { ok: true; text: string; truncated?: { size: number; kept: number } }
  | { ok: false; diagnostic?: Diagnostic; missing?: true };

/** Options of {@link readGuidanceText}. */
export interface ReadTextOptions {
  /** Bytes kept at most; a longer file is cut at the last line boundary before the limit. */
  maxBytes: number;
  /** How the file is named in the truncation note and diagnostics (a repository-relative path). */
  label: string;
  /**
   * Containment: a file whose real path leaves this folder is refused with a
   * `GUIDANCE_OUTSIDE_REPOSITORY` warning. Unset: callers check containment themselves.
   */
  root?: string | undefined;
  signal?: AbortSignal | undefined;
}

const BOM = "\uFEFF";

/**
 * Reads a guidance file as UTF-8 text, byte for byte (only a leading BOM is dropped), through core's
 * one reader (`readTextFile`: regular files only, never blocking on a FIFO, at most `maxBytes` read).
 * A binary or non-UTF-8 file is refused with a diagnostic; a file over `maxBytes` is cut at a line
 * boundary and ends with a visible note (text and note together fit in `maxBytes`); the caller turns
 * `truncated` into a diagnostic.
 */
export async function readGuidanceText(file: string, options: ReadTextOptions): Promise<GuidanceTextResult> {
  options.signal?.throwIfAborted();
  const read = await readTextFile(file, {
    maxBytes: options.maxBytes,
    truncate: true,
    root: options.root,
    signal: options.signal,
  });
  options.signal?.throwIfAborted();
  if (!read.ok) {
    const where = { path: file, line: read.line };
    switch (read.code) {
      case "NOT_FOUND":
        return { ok: false, missing: true };
      case "NOT_A_FILE":
        if (read.fileType === "directory") return { ok: false, missing: true };
        return {
          ok: false,
          diagnostic: diagnostic(
            "GUIDANCE_NOT_A_FILE",
            "warning",
            `${options.label} is not a regular file (${read.fileType ?? "special file"}); skipped`,
            where,
          ),
        };
      case "PATH_OUTSIDE_ROOT":
        return {
          ok: false,
          diagnostic: diagnostic(
            "GUIDANCE_OUTSIDE_REPOSITORY",
            "warning",
            `${options.label} resolves outside the repository; skipped`,
            where,
          ),
        };
      case "BINARY":
        return {
          ok: false,
          diagnostic: diagnostic(
            "GUIDANCE_BINARY",
            "error",
            `${options.label} looks binary (it contains NUL bytes); skipped`,
            where,
          ),
        };
      case "NOT_UTF8":
        return {
          ok: false,
          diagnostic: diagnostic("GUIDANCE_NOT_UTF8", "error", `${options.label} is not valid UTF-8; skipped`, where),
        };
      default:
        return {
          ok: false,
          diagnostic: diagnostic(
            "GUIDANCE_READ_FAILED",
            "error",
            `cannot read ${options.label}: ${read.message}`,
            where,
          ),
        };
    }
  }
  if (!read.truncated) return { ok: true, text: stripBom(read.text) };
  // Cut at a line boundary so that the text and its note fit in maxBytes.
  const kept = headUtf8BytesAtLine(read.text, options.maxBytes - noteRoom(options.label, read.size));
  const keptBytes = Buffer.byteLength(kept);
  const head = stripBom(kept);
  return {
    ok: true,
    text: head + truncationNote(head, options.label, read.size, keptBytes),
    truncated: { size: read.size, kept: keptBytes },
  };
}

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * Cuts `text` at a line boundary so that it and the visible note fit in `maxBytes` UTF-8 bytes;
 * undefined when it already fits.
 */
export function truncateText(
  text: string,
  maxBytes: number,
  label: string,
): { text: string; size: number; kept: number } | undefined {
  const size = Buffer.byteLength(text);
  if (size <= maxBytes) return undefined;
  const head = headUtf8BytesAtLine(text, maxBytes - noteRoom(label, size));
  const kept = Buffer.byteLength(head);
  return { text: head + truncationNote(head, label, size, kept), size, kept };
}

/** The diagnostic that goes with a cut file. */
export function truncationDiagnostic(
  file: string,
  label: string,
  size: number,
  kept: number,
  maxBytes: number,
): Diagnostic {
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

function truncationNote(head: string, label: string, size: number, kept: number): string {
  const gap = head === "" || head.endsWith("\n") ? "" : "\n";
  return `${gap}\n[skillctx: ${label} was truncated here: ${kept} of ${size} bytes are included (maxGuidanceBytes)]\n`;
}
