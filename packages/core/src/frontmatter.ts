import { isMap, isNode, isPair, newLineCounter } from "./yaml-lib.js";
import type { Document } from "yaml";
import { quoteColonValues } from "./colon-retry.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { SkillctxError } from "./errors.js";
import { parseSimpleFrontmatter } from "./frontmatter-fast.js";
import type { FastFrontmatter } from "./frontmatter-fast.js";
import { FENCE, FrontmatterScanner } from "./frontmatter-scan.js";
import { MAX_FRONTMATTER_CHARS, MAX_YAML_ERRORS } from "./limits.js";
import { parseYamlBlock } from "./yaml-document.js";
import type { AliasTable, YamlBlock } from "./yaml-document.js";
import { asWritten, scalarText, typedValue, unresolvedAliases } from "./yaml-values.js";
import { errorText } from "./error-text.js";

/** A file cut into its frontmatter block and its body. */
export interface FrontmatterSplit {
  /** The text between the fences (without them), or undefined when the file has no closed block. */
  frontmatter: string | undefined;
  /** The body: the text after the closing fence, or the whole (normalised) text when there is no block. */
  body: string;
  /** 1-based line of the file where `body` starts. */
  bodyLine: number;
  /** Offset of `body` in the normalised text (BOM removed, CRLF and CR turned into LF). */
  bodyOffset: number;
  /** 1-based line of the file where `frontmatter` starts (the line after the opening fence). */
  frontmatterLine?: number;
  /** True when an opening fence was found but no closing one. */
  unclosed?: boolean;
  /**
   * True when the block is not closed within `maxFrontmatterChars` but a fence line follows later:
   * the block was not read (`frontmatter` is undefined).
   */
  tooLarge?: boolean;
  /** 1-based line of the opening fence, when the text opens with one. */
  fenceLine?: number;
}

/** Options for {@link splitFrontmatter}. */
export interface SplitFrontmatterOptions {
  /**
   * Longest block read, in UTF-16 units; the search for the closing fence stops there.
   * @default MAX_FRONTMATTER_CHARS (262,144)
   */
  maxFrontmatterChars?: number;
}

/** The frontmatter of a file, read as data. */
export interface ParsedFrontmatter {
  /**
   * The block as a mapping with every scalar as written (`123` → `"123"`, empty → `""`), or undefined when
   * the file has no frontmatter, the block is not a YAML mapping, or its YAML is broken.
   */
  data: Record<string, unknown> | undefined;
  /** The body; the whole normalised text whenever `data` is undefined, so no content is ever lost. */
  body: string;
  /** 1-based line of the file where `body` starts. */
  bodyLine: number;
  /** What was tolerated or went wrong, with lines of the file. */
  diagnostics: Diagnostic[];
}

/** Options for {@link parseFrontmatter}. */
export interface ParseFrontmatterOptions extends SplitFrontmatterOptions {
  /** File path, copied into diagnostics. */
  path?: string;
}

/** Removes a UTF-8 BOM and turns CRLF and lone CR line ends into LF. */
export function normalizeText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes("\r") ? noBom.replace(/\r\n?/g, "\n") : noBom;
}

/**
 * Cuts `text` into frontmatter and body as authors write them: a BOM and blank lines before the opening
 * fence are tolerated, CRLF is normalised, fences are lines of three or more dashes at column 0, and a
 * `---` inside a quoted multi-line value or an indented block never closes the block. A block longer than
 * `maxFrontmatterChars` is not read (`tooLarge`, or `unclosed` when no fence line follows at all): the
 * cost of a split is bounded by the cap, not by the size of the file.
 * @example splitFrontmatter("---\nname: a\n---\nHello\n") // { frontmatter: "name: a", body: "Hello\n", bodyLine: 4, ... }
 */
export function splitFrontmatter(text: string, options: SplitFrontmatterOptions = {}): FrontmatterSplit {
  return splitText(text, options).split;
}

/** The split, and the fast reader's data when the fast path read the block to find its end. */
function splitText(
  text: string,
  options: SplitFrontmatterOptions,
): { split: FrontmatterSplit; fast?: FastFrontmatter | undefined } {
  const norm = normalizeText(text);
  const maxChars = options.maxFrontmatterChars ?? MAX_FRONTMATTER_CHARS;
  const whole: FrontmatterSplit = { frontmatter: undefined, body: norm, bodyLine: 1, bodyOffset: 0 };
  const unfenced = { split: whole };
  // Skip blank lines before the opening fence.
  let pos = 0;
  let line = 1;
  for (;;) {
    const nl = norm.indexOf("\n", pos);
    const end = nl === -1 ? norm.length : nl;
    if (isFenceAt(norm, pos, end)) break;
    if (nl === -1 || !isBlankRange(norm, pos, end)) return unfenced;
    pos = nl + 1;
    line++;
  }
  const fenceLine = line;
  const openEnd = norm.indexOf("\n", pos);
  if (openEnd === -1) return { split: { ...whole, unclosed: true, fenceLine } };
  const start = openEnd + 1;
  const closed = (cursor: number, nl: number, lineNo: number, block?: string): FrontmatterSplit => {
    const bodyOffset = nl === -1 ? norm.length : nl + 1;
    return {
      // The block keeps its last newline off: "a: 1\nb: 2".
      frontmatter: block ?? norm.slice(start, Math.max(start, cursor - 1)),
      body: norm.slice(bodyOffset),
      bodyLine: lineNo + 1,
      bodyOffset,
      frontmatterLine: line + 1,
      fenceLine,
    };
  };
  // The scanner below closes the block at the first fence line unless a quoted value spanning lines is
  // open there. Two cheap tests prove that none is, for nearly every file: no quote character before that
  // line (a quote is the only way in), or the fast reader reads the block up to it (it accepts quotes
  // only in values closed on their line, in comments and in block scalars, which hide them from the scanner).
  const first = firstFence(norm, start, maxChars);
  if (first !== undefined) {
    const block = norm.slice(start, Math.max(start, first.cursor - 1));
    if (!block.includes('"') && !block.includes("'"))
      return { split: closed(first.cursor, first.nl, line + first.lines, block) };
    const fast = parseSimpleFrontmatter(block);
    if (fast !== undefined) return { split: closed(first.cursor, first.nl, line + first.lines, block), fast };
  }
  const scanner = new FrontmatterScanner();
  let cursor = start;
  let lineNo = line + 1;
  while (cursor <= norm.length) {
    const nl = norm.indexOf("\n", cursor);
    const end = nl === -1 ? norm.length : nl;
    if (end - start > maxChars) {
      // Past the cap: a later fence line means a block too large to read; none at all, an unclosed one.
      FENCE_LINE.lastIndex = cursor;
      return {
        split: FENCE_LINE.test(norm)
          ? { ...whole, tooLarge: true, fenceLine }
          : { ...whole, unclosed: true, fenceLine },
      };
    }
    if (scanner.push(norm.slice(cursor, end)).closes) return { split: closed(cursor, nl, lineNo) };
    if (nl === -1) break;
    cursor = nl + 1;
    lineNo++;
  }
  return { split: { ...whole, unclosed: true, fenceLine } };
}

/**
 * The first fence line from `start` on that ends within `maxChars` of it: its start (`cursor`), the
 * offset of its newline (`nl`, -1 at the end of the text) and how many lines below the opening fence it is.
 */
function firstFence(
  norm: string,
  start: number,
  maxChars: number,
): { cursor: number; nl: number; lines: number } | undefined {
  let cursor = start;
  for (let lines = 1; cursor <= norm.length; lines++) {
    const nl = norm.indexOf("\n", cursor);
    const end = nl === -1 ? norm.length : nl;
    if (end - start > maxChars) return undefined;
    if (isFenceAt(norm, cursor, end)) return { cursor, nl, lines };
    if (nl === -1) return undefined;
    cursor = nl + 1;
  }
  return undefined;
}

// A fence line anywhere after lastIndex (the native scan is fast on a 50 MB tail).
const FENCE_LINE = /^-{3,}[ \t]*$/gm;

// FENCE.test on norm[from, end) without copying a line that may be megabytes long.
function isFenceAt(text: string, from: number, end: number): boolean {
  let i = from;
  while (i < end && text.charCodeAt(i) === 45) i++;
  if (i - from < 3) return false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

// `text.slice(from, end).trim() === ""` without the copy.
function isBlankRange(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (!/\s/.test(text[i]!)) return false;
  return true;
}

/**
 * Reads the frontmatter of a markdown file. Never throws: problems become diagnostics, and whenever the
 * block cannot be read as a mapping the whole text is kept as the body.
 *
 * Tolerances (each with a warning): an unclosed block, a block that is not a mapping, and a plain value
 * with an unquoted `: ` that breaks YAML (retried with the value quoted). Broken YAML is `YAML_INVALID`
 * (error) with the line in the file (at most `MAX_YAML_ERRORS` of them, then one that counts the rest);
 * duplicate keys, nesting deeper than `MAX_YAML_DEPTH` and aliases that expand past
 * `MAX_YAML_ALIAS_EXPANSIONS` values are broken YAML. A block longer than `maxFrontmatterChars` is
 * `FRONTMATTER_TOO_LARGE` (error) and is not read.
 */
export function parseFrontmatter(text: string, options: ParseFrontmatterOptions = {}): ParsedFrontmatter {
  const read = readFrontmatter(text, options);
  return { data: read.data, body: read.body, bodyLine: read.bodyLine, diagnostics: read.diagnostics };
}

/** {@link parseFrontmatter} plus what the skill parser needs. @internal */
export interface FrontmatterRead extends ParsedFrontmatter {
  split: FrontmatterSplit;
  /** File line of a top-level key, when the key is there. */
  keyLine: (key: string) => number | undefined;
  /** A top-level value with its YAML types (numbers, booleans, null) instead of as written. */
  typedValue: (key: string) => unknown;
}

/** @internal */
export function readFrontmatter(text: string, options: ParseFrontmatterOptions = {}): FrontmatterRead {
  const where = (line: number | undefined) => ({ path: options.path, line });
  const { split, fast: readWhileSplitting } = splitText(text, options);
  const diagnostics: Diagnostic[] = [];
  // No data: the whole (normalised) text is the body. Made only on that path.
  const unread = (): FrontmatterRead => ({
    split,
    data: undefined,
    diagnostics,
    keyLine: none,
    typedValue: none,
    body: split.frontmatter === undefined ? split.body : normalizeText(text),
    bodyLine: 1,
  });
  if (split.frontmatter === undefined) {
    if (split.tooLarge === true) {
      const max = (options.maxFrontmatterChars ?? MAX_FRONTMATTER_CHARS).toLocaleString("en-US");
      diagnostics.push(
        diagnostic(
          "FRONTMATTER_TOO_LARGE",
          "error",
          `frontmatter is longer than ${max} characters; not read`,
          where(split.fenceLine),
        ),
      );
    } else if (split.unclosed === true) {
      diagnostics.push(
        diagnostic(
          "FRONTMATTER_UNCLOSED",
          "warning",
          "frontmatter opened with --- is never closed; the whole file is read as the body",
          where(split.fenceLine),
        ),
      );
    }
    return unread();
  }
  const firstLine = split.frontmatterLine ?? 1;
  const body = { body: split.body, bodyLine: split.bodyLine };
  const fast = readWhileSplitting ?? parseSimpleFrontmatter(split.frontmatter);
  if (fast !== undefined) {
    const block = split.frontmatter;
    let typed: YamlBlock | undefined;
    const typedOf = (key: string) => {
      typed ??= parseYamlBlock(block);
      return valueOf(typed, key);
    };
    const keyLine = (key: string) => {
      const line = fast.keyLines.get(key);
      return line === undefined ? undefined : firstLine + line;
    };
    // No dropPrototypeKeys here: the fast reader gives up on a `__proto__` key at any depth.
    return { split, data: fast.data, diagnostics, keyLine, typedValue: typedOf, ...body };
  }
  try {
    return readYaml(split.frontmatter, firstLine, diagnostics, where, body, unread());
  } catch (error) {
    // Nothing in readYaml should throw on any input; if something does, the file still gets a diagnostic.
    const message = errorText(error);
    diagnostics.push(
      diagnostic("YAML_INVALID", "error", `invalid YAML in frontmatter: cannot be read (${message})`, where(firstLine)),
    );
    return unread();
  }
}

const none = (): undefined => undefined;

/** The full YAML path: parse (with the colon retry), convert, report. `failed` is returned when the block cannot be read. */
function readYaml(
  frontmatter: string,
  firstLine: number,
  diagnostics: Diagnostic[],
  where: (line: number | undefined) => { path: string | undefined; line: number | undefined },
  body: { body: string; bodyLine: number },
  failed: FrontmatterRead,
): FrontmatterRead {
  const { split } = failed;
  let block = frontmatter;
  let lineCounter = newLineCounter();
  let parsed = parseYamlBlock(block, { lineCounter });
  if (parsed.errors.length > 0) {
    const retry = quoteColonValues(block);
    if (retry !== undefined) {
      const retryCounter = newLineCounter();
      const retried = parseYamlBlock(retry.text, { lineCounter: retryCounter });
      if (retried.errors.length === 0) {
        for (const q of retry.quoted) {
          diagnostics.push(
            diagnostic(
              "YAML_UNQUOTED_COLON",
              "warning",
              `value with an unquoted ': ' read as a quoted string: ${truncate(q.value)}`,
              where(firstLine + q.line),
            ),
          );
        }
        block = retry.text;
        parsed = retried;
        lineCounter = retryCounter;
      }
    }
  }
  const counter = lineCounter;
  const toLine = (offset: number) => firstLine + counter.linePos(offset).line - 1;
  if (parsed.errors.length > 0) {
    pushYamlErrors(
      parsed.errors.map((e) => ({ message: yamlMessage(e.message), line: toLine(e.offset) })),
      diagnostics,
      where,
    );
    return failed;
  }
  const { doc, aliases } = parsed;
  const contents = doc.contents;
  if (contents === null) {
    // An empty (or comment-only) block: no metadata, nothing to lose.
    return { ...failed, ...body, data: {} };
  }
  if (!isMap(contents)) {
    diagnostics.push(
      diagnostic(
        "FRONTMATTER_NOT_MAPPING",
        "warning",
        "the leading --- block is not a YAML mapping; the whole file is read as the body",
        where(firstLine),
      ),
    );
    return failed;
  }
  let data: Record<string, unknown>;
  try {
    data = asWritten(contents, doc, aliases) as Record<string, unknown>;
  } catch (error) {
    const message = SkillctxError.isInstance(error) ? error.message : String(error);
    diagnostics.push(diagnostic("YAML_INVALID", "error", `invalid YAML in frontmatter: ${message}`, where(firstLine)));
    return failed;
  }
  for (const alias of unresolvedAliases(doc, aliases)) {
    diagnostics.push(
      diagnostic(
        "YAML_UNRESOLVED_ALIAS",
        "warning",
        `${alias.text} names no anchor; read as the text "${alias.text}" (quote it to be portable)`,
        where(toLine(alias.offset)),
      ),
    );
  }
  let keyLines: Map<string, number> | undefined;
  const keyLine = (key: string) => {
    // Built once: a lookup per key would be quadratic on a block of 50,000 keys.
    if (keyLines === undefined) {
      keyLines = new Map();
      for (const pair of contents.items) {
        if (!isPair(pair) || !isNode(pair.key) || !pair.key.range) continue;
        const name = scalarText(pair.key, doc, aliases);
        if (name !== undefined && !keyLines.has(name)) keyLines.set(name, toLine(pair.key.range[0]));
      }
    }
    return keyLines.get(key);
  };
  dropPrototypeKeys(data, diagnostics, where(firstLine));
  return { split, data, diagnostics, keyLine, typedValue: (key) => valueOf(parsed, key), ...body };
}

/** YAML errors as diagnostics: the first `MAX_YAML_ERRORS`, then one that counts the rest. */
function pushYamlErrors(
  errors: ReadonlyArray<{ message: string; line: number }>,
  diagnostics: Diagnostic[],
  where: (line: number | undefined) => { path: string | undefined; line: number | undefined },
  prefix = "invalid YAML in frontmatter: ",
): void {
  for (const error of errors.slice(0, MAX_YAML_ERRORS))
    diagnostics.push(diagnostic("YAML_INVALID", "error", `${prefix}${error.message}`, where(error.line)));
  const rest = errors.length - MAX_YAML_ERRORS;
  if (rest > 0) {
    const at = errors[MAX_YAML_ERRORS]!.line;
    diagnostics.push(
      diagnostic(
        "YAML_INVALID",
        "error",
        `${prefix}${rest.toLocaleString("en-US")} more YAML errors from this line on`,
        where(at),
      ),
    );
  }
}

/**
 * Removes `__proto__` keys at any depth, each with a warning: whoever merges or spreads the data
 * would otherwise change an object's prototype.
 */
function dropPrototypeKeys(
  value: unknown,
  diagnostics: Diagnostic[],
  where: { path: string | undefined; line: number | undefined },
  trail = "",
): void {
  if (typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => dropPrototypeKeys(item, diagnostics, where, `${trail}[${i}]`));
    return;
  }
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, "__proto__")) {
    delete record["__proto__"];
    diagnostics.push(
      diagnostic(
        "FIELD_INVALID",
        "warning",
        `field ${trail === "" ? "" : `${trail}.`}__proto__ is not kept (it would change an object's prototype)`,
        where,
      ),
    );
  }
  for (const [key, item] of Object.entries(record))
    dropPrototypeKeys(item, diagnostics, where, trail === "" ? key : `${trail}.${key}`);
}

function pairOf(doc: Document, key: string, aliases: AliasTable) {
  const contents = doc.contents;
  if (!isMap(contents)) return undefined;
  return contents.items.find((p) => isPair(p) && scalarText(p.key, doc, aliases) === key);
}

// A top-level value with YAML types; undefined when absent, or when the block is broken or over a cap.
function valueOf(parsed: YamlBlock, key: string): unknown {
  if (parsed.errors.length > 0) return undefined;
  const node = pairOf(parsed.doc, key, parsed.aliases)?.value;
  try {
    return isNode(node) ? typedValue(node, parsed.doc, parsed.aliases) : undefined;
  } catch {
    return undefined;
  }
}

/** The first line of a yaml error message, without the position the diagnostic carries anyway. */
export function yamlMessage(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "").trim();
}

function truncate(value: string): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
