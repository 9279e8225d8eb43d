import { inlineHtmlEnd } from "./inline-html.js";
import { TextFinder } from "./text-finder.js";
import type { ProseSegment } from "./text-range.js";

/**
 * A part of a prose segment that is not prose. `code`: a code span, with the number of backticks that
 * fence it and what stands right before it (`` !`cmd` `` syntax: `live` for an unescaped `!`, `escaped`
 * for `\!`). `html`: raw inline HTML (a tag, a comment, a processing instruction, a declaration, CDATA)
 * or an autolink.
 */
export type InlineToken =
  | { kind: "code"; start: number; end: number; ticks: number; bang: "none" | "live" | "escaped" }
  | { kind: "html"; start: number; end: number };

/**
 * Reads the inline code of each prose segment (in order, as {@link scanBlocks} returns them) and calls
 * `visit` with each token, in document order.
 *
 * CommonMark rules: a run of N backticks opens a code span that closes at the next run of exactly N
 * (backslashes do not escape inside it; an unmatched run is literal text); a backslash before ASCII
 * punctuation escapes it, so `` \` `` opens nothing and `\!` is not a live `!`; code spans, raw HTML and
 * autolinks bind tighter than anything else, and the leftmost wins. Not modelled: link destinations
 * (`` [a](`b`) `` reads `` `b` `` as a code span).
 *
 * Linear in the text: closers are found through an index of each segment's backtick runs ({@link RunIndex}),
 * and HTML terminators with a {@link TextFinder} shared by all segments.
 */
export function scanInline(text: string, segments: readonly ProseSegment[], visit: (token: InlineToken) => void): void {
  const finder = new TextFinder(text);
  const runs = new RunIndex();
  for (const segment of segments) {
    if (segment.gaps === undefined) {
      scanSegment(text, segment.start, segment.end, finder, runs, visit);
      continue;
    }
    // Block-quote markers inside the paragraph read as spaces: scan a copy with them blanked out.
    const base = segment.start;
    let masked = "";
    let from = base;
    for (const gap of segment.gaps) {
      masked += text.slice(from, gap.start) + " ".repeat(gap.end - gap.start);
      from = gap.end;
    }
    masked += text.slice(from, segment.end);
    scanSegment(masked, 0, masked.length, new TextFinder(masked), runs, (token) =>
      visit({ ...token, start: token.start + base, end: token.end + base }),
    );
  }
}

function scanSegment(
  text: string,
  start: number,
  end: number,
  finder: TextFinder,
  runs: RunIndex,
  visit: (token: InlineToken) => void,
): void {
  let indexed = false;
  let escaped = -1; // offset of the last character taken by a backslash escape
  let i = start;
  while (i < end) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH) {
      if (i + 1 < end && isAsciiPunctuation(text.charCodeAt(i + 1))) {
        escaped = i + 1;
        i += 2;
      } else {
        i++;
      }
      continue;
    }
    if (code === BACKTICK) {
      const length = runLength(text, i, end);
      if (!indexed) {
        runs.reset(text, start, end);
        // Stryker disable next-line BooleanLiteral: indexing the segment again gives the same runs
        indexed = true;
      }
      const close = runs.next(i + length, length);
      if (close === -1) {
        i += length;
        continue;
      }
      const before = i - 1;
      const bang =
        before < start || text.charCodeAt(before) !== BANG ? "none" : before === escaped ? "escaped" : "live";
      visit({ kind: "code", start: i, end: close + length, ticks: length, bang });
      i = close + length;
      continue;
    }
    if (code === LESS) {
      const htmlEnd = inlineHtmlEnd(text, i, end, finder);
      if (htmlEnd !== -1) {
        visit({ kind: "html", start: i, end: htmlEnd });
        i = htmlEnd;
        continue;
      }
    }
    i++;
  }
}

function runLength(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && text.charCodeAt(i) === BACKTICK) i++;
  return i - from;
}

function isAsciiPunctuation(code: number): boolean {
  return (
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: of the punctuation escaped, only `!`, `<`, `\` and `` ` `` change what this scanner reads; `{|}~` are text either way
    (code >= 0x7b && code <= 0x7e)
  );
}

/**
 * The maximal backtick runs of one segment, to find a code span's closer: the next run of exactly the
 * opener's length. A segment with few runs (the usual case) is searched directly; a larger one is grouped
 * by length (a counting sort into one typed array) and each group read with a forward-only cursor, so that
 * a segment of a million runs stays linear and cheap. One instance serves every segment of a scan.
 */
class RunIndex {
  #positions = new Int32Array(64);
  #lengths = new Int32Array(64);
  #count = 0;
  #sorted: Int32Array | undefined;
  #groups: Map<number, { cursor: number; end: number }> | undefined;

  reset(text: string, start: number, end: number): void {
    let count = 0;
    // A plain loop: a million one-character indexOf calls cost more than reading the characters.
    for (let i = start; i < end; i++) {
      if (text.charCodeAt(i) !== BACKTICK) continue;
      const length = runLength(text, i, end);
      if (count === this.#positions.length) this.#grow();
      this.#positions[count] = i;
      this.#lengths[count] = length;
      count++;
      i += length;
    }
    this.#count = count;
    this.#sorted = undefined;
    this.#groups = undefined;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the direct search and the groups find the same closer; the bound picks the faster
    if (count <= SMALL) return;
    const groups = new Map<number, { cursor: number; end: number }>();
    for (let k = 0; k < count; k++) {
      const length = this.#lengths[k] as number;
      const group = groups.get(length);
      if (group === undefined) groups.set(length, { cursor: 0, end: 1 });
      else group.end++;
    }
    let offset = 0;
    for (const group of groups.values()) {
      const size = group.end;
      group.cursor = offset;
      group.end = offset; // filled below, then reset to the group's start
      offset += size;
    }
    const sorted = new Int32Array(count);
    for (let k = 0; k < count; k++) {
      const group = groups.get(this.#lengths[k] as number) as { cursor: number; end: number };
      sorted[group.end++] = this.#positions[k] as number;
    }
    this.#sorted = sorted;
    this.#groups = groups;
  }

  /** Start of the first run of exactly `length` backticks at or after `from`, or -1. */
  next(from: number, length: number): number {
    const groups = this.#groups;
    if (groups === undefined) {
      for (let k = 0; k < this.#count; k++) {
        if ((this.#positions[k] as number) >= from && this.#lengths[k] === length) return this.#positions[k] as number;
      }
      return -1;
    }
    const group = groups.get(length);
    if (group === undefined) return -1;
    const sorted = this.#sorted as Int32Array;
    while (group.cursor < group.end && (sorted[group.cursor] as number) < from) group.cursor++;
    return group.cursor < group.end ? (sorted[group.cursor] as number) : -1;
  }

  #grow(): void {
    const positions = new Int32Array(this.#positions.length * 2);
    positions.set(this.#positions);
    this.#positions = positions;
    const lengths = new Int32Array(this.#lengths.length * 2);
    lengths.set(this.#lengths);
    this.#lengths = lengths;
  }
}

/** Up to this many runs, a segment's closers are found by a direct search. */
const SMALL = 32;

const BANG = 0x21;
const LESS = 0x3c;
const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
