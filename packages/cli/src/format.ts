import * as path from "node:path";

/** The fields of a finding that its one-line form shows (a core `Diagnostic` has them). */
export interface Finding {
  code: string;
  severity: string;
  message: string;
  path?: string | undefined;
  line?: number | undefined;
}

/**
 * One finding on one line: `path:line: severity CODE message`. Every command prints findings with
 * this one function, so `list`, `catalog`, `build` and `validate` print the same line for the same
 * finding. The path is shown relative to the folder skillctx was started in when it is inside it,
 * as typed otherwise; control characters are escaped (the line is safe for a terminal).
 */
export function formatDiagnostic(d: Finding): string {
  const where = d.path === undefined ? "" : `${shownPath(d.path)}${d.line === undefined ? "" : `:${d.line}`}: `;
  return printableLine(`${where}${d.severity} ${d.code} ${d.message}`);
}

/** `file` relative to `base` (default: the process's folder) when inside it, else as given. */
export function shownPath(file: string, base: string = process.cwd()): string {
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(base, file);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

// C0 controls except tab and newline, DEL, C1 controls (U+0080–U+009F, 8-bit CSI among them), line and
// paragraph separators, and the bidirectional overrides and isolates (text that reads differently
// from how it runs). What a skill file says must not move the cursor, recolour or retitle the terminal.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Text for a terminal, line breaks and tabs kept: every other control character escaped (`\x1b`, `\u202e`). */
export function printable(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** Text for one line of a terminal: newlines and tabs escaped too. */
export function printableLine(text: string): string {
  return text.replace(UNSAFE_OR_BREAK, escapeChar);
}

/**
 * One JSON document (two-space indent, newline at the end). `JSON.stringify` escapes U+0000–U+001F
 * only; DEL, C1 controls, separators and bidi controls are escaped as `\uXXXX` too, so piping JSON to
 * a terminal is safe. The parsed value is unchanged.
 */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${hex(c, 4)}`)}\n`;
}

function escapeChar(c: string): string {
  switch (c) {
    case "\n":
      return "\\n";
    case "\t":
      return "\\t";
    case "\r":
      return "\\r";
  }
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`;
}

function hex(c: string, digits: number): string {
  return c.charCodeAt(0).toString(16).padStart(digits, "0");
}
