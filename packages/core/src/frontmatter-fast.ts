/**
 * A fast reader for the plain YAML that nearly all frontmatter is written in: top-level `key: value`
 * lines, single-line plain or quoted values, `|` / `>` block scalars (with `-` chomping), and one level
 * of block lists or mappings of such values (a list's items may be flat mappings: `- name: x` / `  type: y`). It returns exactly what the `yaml` package would give with
 * every scalar read as written, and undefined for anything else (the caller then parses with `yaml`).
 * The equality is pinned by tests against `yaml` on the corpus and on generated blocks.
 *
 * It runs for every skill a scan reads, mostly before the JIT has optimised it: loops are indexed,
 * since a `for...of` allocates an iterator result per item until then.
 */

import { countNewlines } from "./count-newlines.js";

/** What the fast reader found: the data and the 0-based block line of each top-level key. */
export interface FastFrontmatter {
  data: Record<string, unknown>;
  keyLines: Map<string, number>;
}

// One top-level entry, matched at `lastIndex` (the start of the block, or the newline that ends the entry
// before): blank and comment lines first (1), then `key:` (2) and the rest of its line after the spaces that
// follow the colon (4), then the lines that belong to its value (5): indented, empty, or `-` items at column 0.
const ENTRY =
  /(\n?(?:(?: *#[^\n]*| *)\n)*)([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:( +)([^\n]*))?(?=\n|$)((?:\n(?: [^\n]*|- [^\n]*|-(?=\n|$)|(?=\n|$)))*)/y;
// What may follow the last entry: blank and comment lines only.
const TRAILER = /(?: *#[^\n]*| *)(?:\n(?: *#[^\n]*| *))*$/y;
const NESTED_KEY_LINE = /^( +)([A-Za-z0-9_][A-Za-z0-9_.-]*):(?:( +)(.*))?$/;
const LIST_LINE = /^( *)- +(.*)$/;
// Control characters, tabs, and line or paragraph separators: leave those to the full parser.
const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029\ufeff]/;

/**
 * Reads `block` if it is in the simple subset, else returns undefined. One regular expression match per
 * top-level entry: a scan runs this for every skill it reads, mostly before V8 has optimised it, so the
 * work per line is left to the regular expression engine.
 */
export function parseSimpleFrontmatter(block: string): FastFrontmatter | undefined {
  if (UNSAFE.test(block)) return undefined;
  const data: Record<string, unknown> = {};
  const keyLines = new Map<string, number>();
  let pos = 0;
  let line = 0;
  while (pos < block.length) {
    ENTRY.lastIndex = pos;
    const m = ENTRY.exec(block);
    if (m === null) {
      TRAILER.lastIndex = pos;
      if (TRAILER.test(block)) break;
      return undefined;
    }
    pos = ENTRY.lastIndex;
    line += countNewlines(m[1]!);
    const key = m[2]!;
    if (keyLines.has(key) || key === "__proto__") return undefined;
    keyLines.set(key, line);
    const rest = m[4] === undefined ? "" : trimSpacesEnd(m[4]);
    const more = m[5]!;
    const inner = more === "" ? NO_LINES : more.slice(1).split("\n");
    line += inner.length;
    let value: unknown;
    if (rest === "") value = nested(inner);
    else if (rest[0] === "|" || rest[0] === ">") value = blockScalar(rest, inner);
    else if (allBlank(inner)) value = scalar(rest);
    else value = undefined; // a multi-line plain or quoted value
    if (value === undefined) return undefined;
    data[key] = value;
  }
  return { data, keyLines };
}

const NO_LINES: readonly string[] = Object.freeze([]);

/** A single-line plain, double-quoted or single-quoted scalar, as written; undefined when not simple. */
function scalar(text: string): string | undefined {
  const c = text[0];
  if (c === '"') {
    const m = /^"([^"\\]*)"$/.exec(text);
    return m === null ? undefined : m[1];
  }
  if (c === "'") {
    const m = /^'((?:[^']|'')*)'$/.exec(text);
    return m === null ? undefined : m[1]!.replace(/''/g, "'");
  }
  if (c === undefined || "[]{},#&*!|>%@`".includes(c)) return undefined;
  if ((c === "-" || c === "?" || c === ":") && (text.length === 1 || text[1] === " ")) return undefined;
  if (text.includes(": ") || text.includes(" #") || text.endsWith(":")) return undefined;
  return text;
}

/** An empty value, or a block list / mapping of simple scalars one level deep (list items may be flat mappings). */
function nested(inner: readonly string[]): unknown {
  const content: string[] = [];
  for (let k = 0; k < inner.length; k++) if (!isBlank(inner[k]!) && !isComment(inner[k]!)) content.push(inner[k]!);
  if (content.length === 0) return "";
  const first = content[0]!;
  const list = LIST_LINE.exec(first);
  if (list !== null) {
    const indent = list[1]!;
    const items: unknown[] = [];
    // The mapping item being read (`- key: value` and the `key: value` lines under it), and its keys' column.
    let map: Record<string, string> | undefined;
    let column = 0;
    for (let k = 0; k < content.length; k++) {
      const line = content[k]!;
      const m = LIST_LINE.exec(line);
      if (m === null || m[1] !== indent) {
        // A line under a mapping item: one more `key: value` at that item's column.
        const entry = NESTED_KEY_LINE.exec(line);
        if (map === undefined || entry === null || entry[1]!.length !== column) return undefined;
        if (!addEntry(map, entry[2]!, entry[4])) return undefined;
        continue;
      }
      const text = trimSpacesEnd(m[2]!);
      const entry = ITEM_KEY.exec(text);
      if (entry !== null) {
        // `- key: value` starts a mapping whose keys sit where this one does.
        map = {};
        column = line.length - m[2]!.length;
        if (!addEntry(map, entry[1]!, entry[2])) return undefined;
        items.push(map);
        continue;
      }
      map = undefined;
      const item = scalar(text);
      if (item === undefined) return undefined;
      items.push(item);
    }
    return items;
  }
  const map: Record<string, string> = {};
  let indent: string | undefined;
  for (let k = 0; k < content.length; k++) {
    const m = NESTED_KEY_LINE.exec(content[k]!);
    if (m === null) return undefined;
    if (indent === undefined) indent = m[1];
    // Stryker disable next-line ConditionalExpression,StringLiteral: `"__proto__" in map` is true already (the inherited accessor); the explicit test says why
    if (m[1] !== indent || m[2] === "__proto__" || m[2]! in map) return undefined;
    const rest = trimSpacesEnd(m[4] ?? "");
    const value = rest === "" ? "" : scalar(rest);
    if (value === undefined) return undefined;
    map[m[2]!] = value;
  }
  // A key without a value followed by nothing deeper reads as "", but one with lines below it nests.
  return map;
}

// `key:` or `key: value` as a list item's text (the item is then a mapping).
const ITEM_KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):(?: +(.*))?$/;

/** Adds `key: rest` to a mapping item; false when the key repeats or is `__proto__`, or the value is not simple. */
function addEntry(map: Record<string, string>, key: string, rest: string | undefined): boolean {
  // Stryker disable next-line ConditionalExpression,StringLiteral: `"__proto__" in map` is true already (the inherited accessor); the explicit test says why
  if (key === "__proto__" || key in map) return false;
  const text = trimSpacesEnd(rest ?? "");
  const value = text === "" ? "" : scalar(text);
  if (value === undefined) return false;
  map[key] = value;
  return true;
}

/** `|`, `|-`, `>`, `>-` with content lines at one indentation (more-indented lines only for `|`). */
function blockScalar(header: string, inner: readonly string[]): string | undefined {
  if (!/^[|>]-?$/.test(header)) return undefined;
  const literal = header[0] === "|";
  const strip = header.length === 2;
  let last = inner.length - 1;
  while (last >= 0 && inner[last] === "") last--;
  if (last < 0 || inner[0] === "" || isBlank(inner[0]!)) return undefined;
  const n = /^ */.exec(inner[0]!)![0].length;
  if (n === 0) return undefined;
  const body: string[] = [];
  for (let k = 0; k <= last; k++) {
    const line = inner[k]!;
    if (line === "") {
      body.push("");
      continue;
    }
    const indent = /^ */.exec(line)![0].length;
    // Whitespace-only lines, lines less indented, and (for folding) more indented or trailing blanks: full parser.
    if (indent < n || isBlank(line)) return undefined;
    if (!literal && (indent > n || / $/.test(line))) return undefined;
    body.push(line.slice(n));
  }
  let text: string;
  if (literal) text = body.join("\n");
  else {
    text = "";
    let breaks = 0;
    body.forEach((l, k) => {
      if (l === "") breaks++;
      else {
        text += k === 0 ? l : breaks === 0 ? ` ${l}` : `${"\n".repeat(breaks)}${l}`;
        breaks = 0;
      }
    });
  }
  return strip ? text : `${text}\n`;
}

// Only spaces (or nothing): tabs and other blanks never reach here (UNSAFE).
function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) !== 32) return false;
  return true;
}

function allBlank(lines: readonly string[]): boolean {
  for (let k = 0; k < lines.length; k++) if (!isBlank(lines[k]!)) return false;
  return true;
}

// `/^ *#/`: spaces, then `#`.
function isComment(line: string): boolean {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  return line.charCodeAt(i) === 35;
}

function trimSpacesEnd(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--;
  return end === s.length ? s : s.slice(0, end);
}
