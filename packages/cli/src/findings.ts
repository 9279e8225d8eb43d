import { formatDiagnostic, printableLine, shownPath } from "./format.js";
import type { Finding } from "./format.js";
import { wrap } from "./wrap.js";

/**
 * Findings as a developer reads them: repeats of one code grouped on one line, a summary that counts
 * errors, warnings and info apart with plurals right, and on a terminal each line wrapped to its width.
 * `--json` has every finding on its own; this is only the text form.
 */

/** A code found this many times or more is told once, as a group. */
export const GROUP_AT = 3;

/** `1 error`, `2 errors`; `info` has no plural. */
export function plural(count: number, noun: string): string {
  if (noun === "info") return `${count} info`;
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** `2 errors, 1 warning, 10 info`: the severities counted apart. */
export function severityCounts(findings: readonly Finding[]): string {
  const count = (severity: string) => findings.filter((d) => d.severity === severity).length;
  return [plural(count("error"), "error"), plural(count("warning"), "warning"), plural(count("info"), "info")].join(
    ", ",
  );
}

/**
 * The lines that tell `findings`: one per finding, except that a code found {@link GROUP_AT} times or
 * more at one severity is one line (`info UNKNOWN_FIELDS 10 skills have unknown fields: category, tags`).
 * Errors first, then warnings, then info; within a severity, in the order found.
 */
export function findingLines(findings: readonly Finding[]): string[] {
  const groups = new Map<string, Finding[]>();
  for (const d of findings) {
    const key = `${d.severity}\u0000${d.code}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const lines: Array<{ rank: number; text: string }> = [];
  for (const group of groups.values()) {
    const rank = SEVERITY_RANK[group[0]!.severity] ?? 3;
    if (group.length < GROUP_AT) for (const d of group) lines.push({ rank, text: formatDiagnostic(d) });
    else lines.push({ rank, text: groupLine(group) });
  }
  return lines.sort((a, b) => a.rank - b.rank).map((line) => line.text);
}

/**
 * Writes the findings to `write`, one line each (wrapped with a hanging indent when `columns` is known),
 * then, when there were any, the summary line `skillctx <command>: 1 error, 0 warnings, 10 info`.
 */
export function writeFindings(
  findings: readonly Finding[],
  write: (text: string) => unknown,
  options: { command: string; columns?: number | undefined; linePrefix?: string },
): void {
  if (findings.length === 0) return;
  const prefix = options.linePrefix ?? "";
  for (const line of findingLines(findings)) write(`${fitted(prefix + line, options.columns)}\n`);
  write(`skillctx ${options.command}: ${severityCounts(findings)}\n`);
}

/** `text` on one line when `columns` is unknown (a pipe, a file); wrapped with a four-space hanging indent on a terminal. */
export function fitted(text: string, columns: number | undefined): string {
  if (columns === undefined || [...text].length <= columns) return text;
  return wrap(text, Math.max(40, columns), "", "    ").join("\n");
}

const SEVERITY_RANK: Readonly<Record<string, number>> = { error: 0, warning: 1, info: 2 };

// One line for a repeated code: the union of the unknown fields for UNKNOWN_FIELDS, the message once when
// every repeat says the same, else the count and the first message; then where (the first few files).
function groupLine(group: readonly Finding[]): string {
  const first = group[0]!;
  const head = `${first.severity} ${first.code}`;
  const files = [...new Set(group.flatMap((d) => (d.path === undefined ? [] : [shownPath(d.path)])))];
  const named = `${files.slice(0, 3).join(", ")}${files.length > 3 ? `, and ${files.length - 3} more` : ""}`;
  const where = files.length === 0 ? "" : ` (${named})`;
  if (first.code === "UNKNOWN_FIELDS") {
    const fields = [...new Set(group.flatMap((d) => unknownFieldsOf(d.message)))];
    return printableLine(`${head} ${group.length} skills have unknown fields: ${fields.join(", ")}${where}`);
  }
  if (group.every((d) => d.message === first.message))
    return printableLine(`${head} ${first.message} (${group.length} times${files.length === 0 ? "" : `: ${named}`})`);
  return printableLine(`${head} ${group.length} findings, such as: ${first.message}${where}; --json lists each`);
}

// "fields skillctx does not use, kept in extra: a, b (did you mean c?) and 3 more" → ["a", "b (did you mean c?)"]
function unknownFieldsOf(message: string): string[] {
  const at = message.indexOf(": ");
  if (at === -1) return [message];
  const listed = message.slice(at + 2).replace(/ and [\d,]+ more$/, "");
  return listed.split(", ").filter((field) => field !== "");
}
