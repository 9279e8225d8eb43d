import { LineCounter, isMap, isNode, isPair, parseDocument } from "yaml";
import type { Document } from "yaml";
import { quoteColonValues } from "./colon-retry.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { SkillctxError } from "./errors.js";
import { parseSimpleFrontmatter } from "./frontmatter-fast.js";
import { FENCE, FrontmatterScanner } from "./frontmatter-scan.js";
import { asWritten, scalarText, unresolvedAliases } from "./yaml-values.js";

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
export interface ParseFrontmatterOptions {
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
 * `---` inside a quoted multi-line value or an indented block never closes the block.
 * @example splitFrontmatter("---\nname: a\n---\nHello\n") // { frontmatter: "name: a", body: "Hello\n", bodyLine: 4, ... }
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const norm = normalizeText(text);
  const whole: FrontmatterSplit = { frontmatter: undefined, body: norm, bodyLine: 1, bodyOffset: 0 };
  // Skip blank lines before the opening fence.
  let pos = 0;
  let line = 1;
  for (;;) {
    const nl = norm.indexOf("\n", pos);
    const end = nl === -1 ? norm.length : nl;
    const current = norm.slice(pos, end);
    if (FENCE.test(current)) break;
    if (nl === -1 || current.trim() !== "") return whole;
    pos = nl + 1;
    line++;
  }
  const openEnd = norm.indexOf("\n", pos);
  if (openEnd === -1) return { ...whole, unclosed: true };
  const start = openEnd + 1;
  const scanner = new FrontmatterScanner();
  let cursor = start;
  let lineNo = line + 1;
  while (cursor <= norm.length) {
    const nl = norm.indexOf("\n", cursor);
    const end = nl === -1 ? norm.length : nl;
    if (scanner.push(norm.slice(cursor, end)).closes) {
      const bodyOffset = nl === -1 ? norm.length : nl + 1;
      return {
        // The block keeps its last newline off: "a: 1\nb: 2".
        frontmatter: norm.slice(start, Math.max(start, cursor - 1)),
        body: norm.slice(bodyOffset),
        bodyLine: lineNo + 1,
        bodyOffset,
        frontmatterLine: line + 1,
      };
    }
    if (nl === -1) break;
    cursor = nl + 1;
    lineNo++;
  }
  return { ...whole, unclosed: true };
}

/**
 * Reads the frontmatter of a markdown file. Never throws: problems become diagnostics, and whenever the
 * block cannot be read as a mapping the whole text is kept as the body.
 *
 * Tolerances (each with a warning): an unclosed block, a block that is not a mapping, and a plain value
 * with an unquoted `: ` that breaks YAML (retried with the value quoted). Broken YAML is `YAML_INVALID`
 * (error) with the line in the file; duplicate keys are broken YAML.
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
  const split = splitFrontmatter(text);
  const keepWhole = { body: normalizeText(text), bodyLine: 1 };
  const diagnostics: Diagnostic[] = [];
  const base: FrontmatterRead = { split, data: undefined, diagnostics, keyLine: () => undefined, typedValue: () => undefined, ...keepWhole };
  if (split.frontmatter === undefined) {
    if (split.unclosed === true) {
      const openLine = firstFenceLine(keepWhole.body);
      diagnostics.push(
        diagnostic("FRONTMATTER_UNCLOSED", "warning", "frontmatter opened with --- is never closed; the whole file is read as the body", where(openLine)),
      );
    }
    return base;
  }
  const firstLine = split.frontmatterLine ?? 1;
  const body = { body: split.body, bodyLine: split.bodyLine };
  const fast = parseSimpleFrontmatter(split.frontmatter);
  if (fast !== undefined) {
    const block = split.frontmatter;
    let typed: Document | undefined;
    const typedValue = (key: string) => {
      typed ??= parseBlock(block, new LineCounter());
      return valueOf(typed, key);
    };
    const keyLine = (key: string) => {
      const line = fast.keyLines.get(key);
      return line === undefined ? undefined : firstLine + line;
    };
    dropPrototypeKeys(fast.data, diagnostics, where(firstLine));
    return { split, data: fast.data, diagnostics, keyLine, typedValue, ...body };
  }
  let block = split.frontmatter;
  let lineCounter = new LineCounter();
  let doc = parseBlock(block, lineCounter);
  const lineOf = (counter: LineCounter) => (offset: number) => firstLine + counter.linePos(offset).line - 1;
  if (doc.errors.length > 0) {
    const retry = quoteColonValues(block);
    if (retry !== undefined) {
      const retryCounter = new LineCounter();
      const retried = parseBlock(retry.text, retryCounter);
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
        doc = retried;
        lineCounter = retryCounter;
      }
    }
  }
  if (doc.errors.length > 0) {
    for (const error of doc.errors) {
      diagnostics.push(
        diagnostic("YAML_INVALID", "error", `invalid YAML in frontmatter: ${yamlMessage(error.message)}`, where(lineOf(lineCounter)(error.pos[0]))),
      );
    }
    return base;
  }
  const contents = doc.contents;
  if (contents === null) {
    // An empty (or comment-only) block: no metadata, nothing to lose.
    return { ...base, ...body, data: {} };
  }
  if (!isMap(contents)) {
    diagnostics.push(
      diagnostic("FRONTMATTER_NOT_MAPPING", "warning", "the leading --- block is not a YAML mapping; the whole file is read as the body", where(firstLine)),
    );
    return base;
  }
  let data: Record<string, unknown>;
  try {
    data = asWritten(contents, doc) as Record<string, unknown>;
  } catch (error) {
    const message = SkillctxError.isInstance(error) ? error.message : String(error);
    diagnostics.push(diagnostic("YAML_INVALID", "error", `invalid YAML in frontmatter: ${message}`, where(firstLine)));
    return base;
  }
  const parsed = doc;
  const toLine = lineOf(lineCounter);
  for (const alias of unresolvedAliases(parsed)) {
    diagnostics.push(
      diagnostic("YAML_UNRESOLVED_ALIAS", "warning", `${alias.text} names no anchor; read as the text "${alias.text}" (quote it to be portable)`, where(toLine(alias.offset))),
    );
  }
  const keyLine = (key: string) => {
    const offset = pairOf(parsed, key)?.key;
    return isNode(offset) && offset.range ? toLine(offset.range[0]) : undefined;
  };
  dropPrototypeKeys(data, diagnostics, where(firstLine));
  return { split, data, diagnostics, keyLine, typedValue: (key) => valueOf(parsed, key), ...body };
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
    diagnostics.push(diagnostic("FIELD_INVALID", "warning", `field ${trail === "" ? "" : `${trail}.`}__proto__ is not kept (it would change an object's prototype)`, where));
  }
  for (const [key, item] of Object.entries(record)) dropPrototypeKeys(item, diagnostics, where, trail === "" ? key : `${trail}.${key}`);
}

function pairOf(doc: Document, key: string) {
  const contents = doc.contents;
  if (!isMap(contents)) return undefined;
  return contents.items.find((p) => isPair(p) && scalarText(p.key, doc) === key);
}

// A top-level value with YAML types; undefined when absent or when aliases expand too far.
function valueOf(doc: Document, key: string): unknown {
  if (doc.errors.length > 0) return undefined;
  const node = pairOf(doc, key)?.value;
  try {
    return isNode(node) ? node.toJS(doc, { maxAliasCount: 100 }) : undefined;
  } catch {
    return undefined;
  }
}

function parseBlock(block: string, lineCounter: LineCounter): Document {
  return parseDocument(block, { lineCounter, prettyErrors: false, uniqueKeys: true, keepSourceTokens: false });
}

/** The first line of a yaml error message, without the position the diagnostic carries anyway. */
export function yamlMessage(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "").trim();
}

function firstFenceLine(text: string): number {
  const lines = text.split("\n", 10_000);
  const i = lines.findIndex((l) => FENCE.test(l));
  return i === -1 ? 1 : i + 1;
}

function truncate(value: string): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
