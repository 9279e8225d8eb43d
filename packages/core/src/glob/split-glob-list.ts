import { trimGlob } from "./normalize-glob.js";

/**
 * Reads a glob-list value as authors write it (`paths:`, `globs:`, `applyTo:`): a comma-separated
 * string (`src/**\/*.ts, lib/**`), a YAML list of such strings, or nothing (`[]`). Commas inside
 * `{...}` or `[...]`, or escaped with `\`, do not split (`src/{a,b}/**` is one glob); each item is
 * trimmed and unquoted, empty items are dropped. Returns undefined for any other type (a number, a
 * mapping, a list with a non-string item). Linear in the input.
 *
 * @example
 * splitGlobList("src/{a,b}/**, *.md") // ["src/{a,b}/**", "*.md"]
 */
export function splitGlobList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return splitGlobs(value);
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const item of value) {
      if (typeof item !== "string") return undefined;
      out.push(...splitGlobs(item));
    }
    return out;
  }
  return undefined;
}

/**
 * Splits one string of globs at the commas outside braces and brackets (an unclosed `{` or `[` runs
 * to the end), trimming and unquoting each item and dropping empty ones. Linear in the text.
 */
export function splitGlobs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c)
      i++; // `\x`: x is literal
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && depth > 0) depth--;
    else if (c === 0x2c && depth === 0) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out.map(unquote).filter((g) => g !== "");
}

function unquote(text: string): string {
  const t = trimGlob(text);
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return trimGlob(t.slice(1, -1));
  return t;
}
