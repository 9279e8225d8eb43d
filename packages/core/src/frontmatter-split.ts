/**
 * Cutting a markdown file into its frontmatter block and its body (the fences, before any YAML is read).
 * The fast frontmatter reader may read the block while the end fence is looked for.
 */
import { parseSimpleFrontmatter } from "./frontmatter-fast.js";
import type { FastFrontmatter } from "./frontmatter-fast.js";
import { FrontmatterScanner } from "./frontmatter-scan.js";
import { MAX_FRONTMATTER_CHARS } from "./limits.js";

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

/** Removes a UTF-8 BOM and turns CRLF and lone CR line ends into LF. */
export function normalizeText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Stryker disable next-line StringLiteral: a text without CR comes out of the replace unchanged (the test only saves the copy)
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

/** The split, and the fast reader's data when the fast path read the block to find its end. @internal */
export function splitText(
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
  // Stryker disable next-line ConditionalExpression,BlockStatement: a shortcut; the line scanner below gives the same split (test 'the shortcuts agree with the line scanner')
  if (first !== undefined) {
    const block = norm.slice(start, Math.max(start, first.cursor - 1));
    // Stryker disable next-line StringLiteral: a shortcut; the fast reader's check below, or the line scanner, gives the same split
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
  // Stryker disable next-line EqualityOperator,ConditionalExpression: text[end] is a newline or past the text (NaN), never a dash
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
  // Stryker disable next-line EqualityOperator: text[end] is the newline (blank), or the caller returned before at the end of the text
  for (let i = from; i < end; i++) if (!/\s/.test(text[i]!)) return false;
  return true;
}
