/**
 * Glob syntax: parses one glob into a tree, in time linear in its length (plus one bounded scan per
 * `[`), never expanding braces. The caller has already capped the length.
 */

/** One element of a parsed glob. `start`/`end` are offsets in the source; `frame` is the alternative it sits in. */
export type GlobNode =
  | { type: "char"; cp: number; start: number; end: number; frame: number }
  /** `?`: one character other than `/`. */
  | { type: "any"; start: number; end: number; frame: number }
  /** `*`: any run of characters other than `/` (empty included). */
  | { type: "star"; start: number; end: number; frame: number }
  /** `[...]`: one character other than `/` in (or, negated, not in) the ranges `[lo, hi, lo, hi, ...]`. */
  | { type: "class"; negated: boolean; ranges: number[]; start: number; end: number; frame: number }
  /** `**` as a whole segment: `slash` when it took the `/` after it (`**\/` = zero or more whole folders). */
  | { type: "globstar"; slash: boolean; start: number; end: number; frame: number }
  /** `/**` ending a glob or an alternative: the folder itself or anything below it. `stars` is the offset of `**`. */
  | { type: "tail"; stars: number; start: number; end: number; frame: number }
  /** A tool-name wildcard: `*` (any run) or `?` (one character), `/` included. */
  | { type: "wild"; many: boolean; start: number; end: number; frame: number }
  /** `{a,b}`: one of the alternatives; `frames[i]` is the frame of `alts[i]`. */
  | { type: "group"; alts: GlobNode[][]; frames: number[]; start: number; end: number; frame: number };

/** Where an alternative ends, and what follows its group; frame 0 is the whole glob. */
export interface GlobFrame {
  /** Offset where the alternative's text ends (its `,` or `}`; the source length for frame 0). */
  altEnd: number;
  /** Offset just after the group's `}` (unused for frame 0). */
  groupEnd: number;
  /** The enclosing frame, -1 for frame 0. */
  parent: number;
}

/** A parsed glob. */
export interface ParsedGlob {
  source: string;
  nodes: GlobNode[];
  frames: GlobFrame[];
  /** How many patterns the braces stand for, saturated at the cap + 1. */
  expansions: number;
}

/**
 * `path`: full glob syntax (`*`, `?`, `[...]`, `**`, `{a,b}`, `\` escapes), `*` and `?` never match `/`.
 * `name`: tool-name patterns, where only `*` and `?` are special and match any character.
 */
export type GlobMode = "path" | "name";

/** Parses `source` (length already capped by the caller). Never throws. */
export function parseGlob(source: string, options: { mode: GlobMode; maxExpansions: number }): ParsedGlob {
  const frames: GlobFrame[] = [{ altEnd: source.length, groupEnd: source.length, parent: -1 }];
  if (options.mode === "name") return { source, nodes: parseName(source), frames, expansions: 1 };
  const structure = scanStructure(source);
  const parser = new Parser(source, structure, frames);
  const nodes = parser.sequence(0, false, true, 0).nodes;
  return { source, nodes, frames, expansions: countExpansions(nodes, options.maxExpansions + 1) };
}

// ---------------------------------------------------------------------------------------------

const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const STAR = 0x2a;
const QUESTION = 0x3f;

interface Structure {
  /** For a `[` that opens a valid class: the offset after its `]`; else absent. */
  classEnd: Map<number, number>;
  /** For a `{` that opens a group (closed, with a comma of its own): the offset of its `}`. */
  groupClose: Map<number, number>;
  /** Offsets of the `}` that close groups. */
  closers: Set<number>;
}

// One pass: which `[` open classes and which `{` open groups. An unclosed `[` or `{`, a `{...}` without a
// comma of its own and a stray `}` are literal text.
function scanStructure(source: string): Structure {
  const classEnd = new Map<number, number>();
  const groupClose = new Map<number, number>();
  const closers = new Set<number>();
  const open: Array<{ at: number; comma: boolean }> = [];
  for (let i = 0; i < source.length; ) {
    const c = source.charCodeAt(i);
    if (c === BACKSLASH) i += 2;
    else if (c === OPEN_BRACKET) {
      const end = classClose(source, i);
      if (end === -1) i++;
      else {
        classEnd.set(i, end);
        i = end;
      }
    } else {
      if (c === OPEN_BRACE) open.push({ at: i, comma: false });
      else if (c === COMMA && open.length > 0) open[open.length - 1]!.comma = true;
      else if (c === CLOSE_BRACE && open.length > 0) {
        const top = open.pop()!;
        if (top.comma) {
          groupClose.set(top.at, i);
          closers.add(i);
        }
      }
      i++;
    }
  }
  return { classEnd, groupClose, closers };
}

// The offset after the `]` closing the class opened at `at`, or -1 (no `]`, or a `/` inside).
function classClose(source: string, at: number): number {
  let i = at + 1;
  const c = source.charCodeAt(i);
  if (c === 0x21 || c === 0x5e) i++; // ! ^
  if (source.charCodeAt(i) === CLOSE_BRACKET) i++;
  while (i < source.length) {
    const d = source.charCodeAt(i);
    if (d === BACKSLASH) i += 2;
    else if (d === SLASH) return -1;
    else if (d === CLOSE_BRACKET) return i + 1;
    else i++;
  }
  return -1;
}

class Parser {
  constructor(
    private readonly source: string,
    private readonly structure: Structure,
    private readonly frames: GlobFrame[],
  ) {}

  /** Nodes from `i` up to the end, or (in a group) up to this alternative's `,` or `}`. */
  sequence(start: number, inGroup: boolean, segmentStart: boolean, frame: number): { nodes: GlobNode[]; end: number } {
    const { source, structure } = this;
    const nodes: GlobNode[] = [];
    let atStart = segmentStart;
    let i = start;
    while (i < source.length) {
      const c = source.charCodeAt(i);
      if (inGroup && (c === COMMA || (c === CLOSE_BRACE && structure.closers.has(i)))) break;
      if (c === STAR) {
        let j = i;
        while (source.charCodeAt(j) === STAR) j++;
        if (j - i >= 2 && atStart && this.segmentEnds(j, inGroup)) {
          const previous = nodes[nodes.length - 1];
          const afterGlobstar = previous?.type === "globstar" && previous.slash;
          if (source.charCodeAt(j) === SLASH) {
            // `**/**/` is `**/`.
            if (!afterGlobstar) nodes.push({ type: "globstar", slash: true, start: i, end: j + 1, frame });
            i = j + 1;
            continue; // still at a segment start
          }
          if (afterGlobstar) nodes.pop(); // `x/**/**` is `x/**`
          const last = nodes[nodes.length - 1];
          if (last?.type === "char" && last.cp === SLASH) {
            nodes.pop();
            nodes.push({ type: "tail", stars: i, start: last.start, end: j, frame });
          } else nodes.push({ type: "globstar", slash: false, start: i, end: j, frame });
          // Stryker disable next-line ArithmeticOperator: a run of `*` nodes matches what one does; collapsing them only saves states
        } else if (nodes[nodes.length - 1]?.type !== "star") nodes.push({ type: "star", start: i, end: j, frame });
        i = j;
      } else if (c === QUESTION) {
        // `*?` is `?*`: a run of `*` and `?` becomes its `?`s then one `*`, one live state instead of many.
        // Stryker disable next-line ArithmeticOperator: `?` before or after `*` matches the same text; the order only saves live states
        const last = nodes[nodes.length - 1];
        const any: GlobNode = { type: "any", start: i, end: i + 1, frame };
        // Stryker disable next-line StringLiteral: `?` before or after `*` matches the same text; the order only saves live states
        if (last?.type === "star") nodes.splice(nodes.length - 1, 0, any);
        else nodes.push(any);
        i++;
      } else if (c === OPEN_BRACKET && structure.classEnd.has(i)) {
        const end = structure.classEnd.get(i)!;
        nodes.push(this.bracket(i, end, frame));
        i = end;
      } else if (c === OPEN_BRACE && structure.groupClose.has(i)) {
        const close = structure.groupClose.get(i)!;
        const alts: GlobNode[][] = [];
        // Stryker disable next-line ArrayDeclaration: a group's frames list is kept for readers of the tree; compiling and relocation read the frames table
        const altFrames: number[] = [];
        let k = i + 1;
        for (;;) {
          const altFrame = this.frames.length;
          this.frames.push({ altEnd: close, groupEnd: close + 1, parent: frame });
          const alt = this.sequence(k, true, atStart, altFrame);
          this.frames[altFrame]!.altEnd = alt.end;
          alts.push(alt.nodes);
          // Stryker disable next-line CallExpression: a group's frames list is kept for readers of the tree; compiling and relocation read the frames table
          altFrames.push(altFrame);
          if (alt.end >= close) break;
          k = alt.end + 1; // past the `,`
        }
        // Stryker disable next-line ArithmeticOperator: a group's end offset is never read: the compiled group consumes nothing itself
        nodes.push({ type: "group", alts, frames: altFrames, start: i, end: close + 1, frame });
        i = close + 1;
      } else if (c === BACKSLASH) {
        if (i + 1 < source.length) {
          const cp = source.codePointAt(i + 1)!;
          const end = i + 1 + (cp > 0xffff ? 2 : 1);
          nodes.push({ type: "char", cp, start: i, end, frame });
          i = end;
        } else {
          nodes.push({ type: "char", cp: BACKSLASH, start: i, end: i + 1, frame });
          i++;
        }
      } else {
        const cp = source.codePointAt(i)!;
        const end = i + (cp > 0xffff ? 2 : 1);
        nodes.push({ type: "char", cp, start: i, end, frame });
        i = end;
        if (cp === SLASH) {
          atStart = true;
          continue;
        }
      }
      atStart = false;
    }
    return { nodes, end: i };
  }

  // `**` ending at `j` fills its segment: the glob, the alternative or the segment ends there.
  private segmentEnds(j: number, inGroup: boolean): boolean {
    const c = this.source.charCodeAt(j);
    if (j >= this.source.length || c === SLASH) return true;
    return inGroup && (c === COMMA || (c === CLOSE_BRACE && this.structure.closers.has(j)));
  }

  private bracket(at: number, end: number, frame: number): GlobNode {
    const { source } = this;
    let i = at + 1;
    const first = source.charCodeAt(i);
    const negated = first === 0x21 || first === 0x5e;
    if (negated) i++;
    const ranges: number[] = [];
    const last = end - 1; // the closing `]`
    while (i < last) {
      const lo = readClassChar(source, i);
      i = lo.next;
      if (source.charCodeAt(i) === 0x2d && i + 1 < last) {
        const hi = readClassChar(source, i + 1);
        ranges.push(lo.cp, hi.cp);
        i = hi.next;
      } else ranges.push(lo.cp, lo.cp);
    }
    return { type: "class", negated, ranges, start: at, end, frame };
  }
}

function readClassChar(source: string, i: number): { cp: number; next: number } {
  if (source.charCodeAt(i) === BACKSLASH) {
    const cp = source.codePointAt(i + 1)!;
    return { cp, next: i + 1 + (cp > 0xffff ? 2 : 1) };
  }
  const cp = source.codePointAt(i)!;
  return { cp, next: i + (cp > 0xffff ? 2 : 1) };
}

// Tool-name patterns: `*` and `?` are wildcards over any character; everything else is literal.
function parseName(source: string): GlobNode[] {
  const nodes: GlobNode[] = [];
  for (let i = 0; i < source.length; ) {
    const cp = source.codePointAt(i)!;
    const end = i + (cp > 0xffff ? 2 : 1);
    if (cp === STAR) {
      if (nodes[nodes.length - 1]?.type !== "wild" || !(nodes[nodes.length - 1] as { many: boolean }).many) {
        nodes.push({ type: "wild", many: true, start: i, end, frame: 0 });
      }
    } else if (cp === QUESTION) nodes.push({ type: "wild", many: false, start: i, end, frame: 0 });
    else nodes.push({ type: "char", cp, start: i, end, frame: 0 });
    i = end;
  }
  return nodes;
}

// Patterns the braces stand for: product over a sequence, sum over alternatives, saturated at `cap`.
function countExpansions(nodes: readonly GlobNode[], cap: number): number {
  let total = 1;
  for (const node of nodes) {
    if (node.type !== "group") continue;
    let sum = 0;
    for (const alt of node.alts) sum = Math.min(cap, sum + countExpansions(alt, cap));
    total = Math.min(cap, total * sum);
  }
  return total;
}
