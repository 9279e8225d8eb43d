/**
 * A parsed glob compiled to a Thompson automaton and run as a set of live states over the path (the
 * way RE2 and Go's regexp run regular expressions): each path character advances every live state
 * once, and a state reached twice in one step is kept once. So a test costs at most
 * (instructions × path characters) steps whatever the glob: no backtracking, and braces are
 * alternatives inside the automaton, never expanded. A glob compiles to at most one instruction per
 * character plus one (`*` and `**` are one instruction that consumes and stays; `{a,b}` adds one
 * split per comma).
 */
import type { GlobNode, ParsedGlob } from "./glob-syntax.js";

const CHAR = 0; // arg: code point
const ANY = 1; // one character other than `/`
const ANYCHAR = 2; // any one character
const CLASS = 3; // arg: class index; never `/`
const SPLIT = 4; // epsilon to x and to arg
const MATCH = 5;
const STAR = 6; // any run of characters other than `/`: consumes and stays; x: epsilon exit
const STARALL = 7; // any run of characters: consumes and stays; x: epsilon exit

const SLASH = 0x2f;

/** A compiled glob. */
export interface GlobProgram {
  readonly op: Uint8Array;
  readonly arg: Int32Array;
  readonly x: Int32Array;
  readonly start: number;
  readonly classes: ReadonlyArray<{ negated: boolean; ranges: Int32Array }>;
  /** Text every match starts with, and ends with. */
  readonly prefix: string;
  readonly suffix: string;
  /** The glob's text when it has no wildcard at all: a match is equality. */
  readonly literal: string | undefined;
  /** The longest run of plain characters between the prefix and the suffix: every match contains it. */
  readonly infix: string;
  /** The live instructions before the first character (the start's closure). */
  readonly initial: Int32Array;
  /** The characters a match can end with (UTF-16 units), when the glob's end says so. */
  readonly last: string | undefined;
  /**
   * For `**\/X` where X never spans a `/` (`**\/*.ts`, and every glob written without a `/`): X's
   * program, run on the path's last segment only.
   */
  readonly basename?: GlobProgram;
  /** With `positions`: for a consuming instruction, the source offset where the rest of the glob begins after it... */
  readonly resume?: Int32Array;
  /** ...and the frame (alternative) that offset belongs to. */
  readonly frame?: Int32Array;
}

/** Compiles a parsed glob, in time linear in its size. `positions` keeps what relocation needs. */
export function compileProgram(parsed: ParsedGlob, options: { positions?: boolean } = {}): GlobProgram {
  const [first, ...rest] = parsed.nodes;
  // Stryker disable next-line StringLiteral,BlockStatement: the basename program is a shortcut; the whole program gives the same answers
  if (options.positions !== true && first?.type === "globstar" && first.slash && rest.every(withinSegment)) {
    // The outer program only hands the last segment over.
    // Stryker disable next-line ArrayDeclaration: runProgram hands such a program to its basename before reading the outer one
    return { ...compileNodes({ ...parsed, nodes: [] }), basename: compileProgram({ ...parsed, nodes: rest }) };
  }
  return compileNodes(parsed, options);
}

function compileNodes(parsed: ParsedGlob, options: { positions?: boolean } = {}): GlobProgram {
  const b = new Builder();
  // Stryker disable next-line UnaryOperator: MATCH consumes nothing, so its resume offset is never read
  const match = b.emit(MATCH, 0, -1, -1, 0);
  const start = b.sequence(parsed.nodes, match);
  const literal = parsed.nodes.every((node) => node.type === "char") ? codePoints(parsed.nodes) : undefined;
  const program: GlobProgram = {
    op: Uint8Array.from(b.op),
    arg: Int32Array.from(b.arg),
    x: Int32Array.from(b.x),
    start,
    classes: b.classes.map((c) => ({ negated: c.negated, ranges: Int32Array.from(c.ranges) })),
    prefix: literal ?? codePoints(leadingChars(parsed.nodes)),
    suffix: literal ?? codePoints(trailingChars(parsed.nodes)),
    literal,
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a literal program is compared as text before the infix is read; a missing infix only skips a prefilter
    infix: literal === undefined ? longestInnerRun(parsed.nodes) : "",
    initial: new Int32Array(0),
    last: lastUnits(parsed.nodes),
  };
  const initial = new Int32Array(program.op.length);
  reserve(program.op.length);
  const count = add(program, initial, 0, start, nextGen());
  (program as { initial: Int32Array }).initial = initial.slice(0, count);
  if (options.positions !== true) return program;
  return { ...program, resume: Int32Array.from(b.resume), frame: Int32Array.from(b.frame) };
}

/** Whether the whole of `text` matches. At most (instructions × characters) steps. */
export function runProgram(p: GlobProgram, text: string): boolean {
  if (p.basename !== undefined) return runProgram(p.basename, text.slice(text.lastIndexOf("/") + 1));
  if (p.literal !== undefined) return text === p.literal;
  if (p.last !== undefined && (text.length === 0 || !p.last.includes(text[text.length - 1]!))) return false;
  // Stryker disable next-line LogicalOperator,ArithmeticOperator: a prefilter (length, prefix, suffix); a weaker check leaves the automaton to decide
  if (text.length < p.prefix.length + p.suffix.length || !text.startsWith(p.prefix) || !text.endsWith(p.suffix))
    return false;
  // Stryker disable next-line EqualityOperator,StringLiteral: a prefilter; every string includes "", and a weaker check leaves the automaton to decide
  if (p.infix !== "" && !text.includes(p.infix)) return false;
  const length = step(p, text, undefined);
  const { op } = p;
  const live = scratch.a;
  for (let k = 0; k < length; k++) if (op[live[k]!] === MATCH) return true;
  return false;
}

/**
 * The consuming instructions that took the last character of `text`, run as a prefix of a longer
 * path (with `positions`, each names where the rest of the glob resumes). Used to move globs between
 * folders.
 */
export function lastConsumers(p: GlobProgram, text: string): number[] {
  const consumers: number[] = [];
  step(p, text, consumers);
  return consumers;
}

// ---------------------------------------------------------------------------------------------

// Work space shared by every program: matching is synchronous and calls nothing outside this file.
const scratch = {
  a: new Int32Array(64),
  b: new Int32Array(64),
  mark: new Int32Array(64),
  stack: new Int32Array(130),
  gen: 0,
};

function reserve(n: number): void {
  if (scratch.mark.length >= n) return;
  // Stryker disable next-line MethodExpression,ArithmeticOperator: the size only has to be at least n; doubling is for amortised growth
  const size = Math.max(n, scratch.mark.length * 2);
  scratch.a = new Int32Array(size);
  scratch.b = new Int32Array(size);
  scratch.mark = new Int32Array(size);
  scratch.stack = new Int32Array(2 * size + 2);
  scratch.gen = 0;
}

// Runs the automaton over `text`; leaves the live states in `scratch.a` and returns their count. With
// `consumers`, records the instructions that consumed the final character.
function step(p: GlobProgram, text: string, consumers: number[] | undefined): number {
  const { op, arg, x, classes } = p;
  // Stryker disable next-line CallExpression: compileNodes reserved room for this program already, and the work space never shrinks
  reserve(op.length);
  const mark = scratch.mark;
  let cur = scratch.a;
  let next = scratch.b;
  const initial = p.initial;
  let length = initial.length;
  cur.set(initial);
  const end = text.length;
  for (let i = 0; i < end && length > 0; ) {
    let c = text.charCodeAt(i++);
    if (c >= 0xd800 && c <= 0xdbff && i < end) {
      const d = text.charCodeAt(i);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        i++;
      }
    }
    const collect = consumers !== undefined && i >= end;
    if (scratch.gen >= 0x3fffffff) {
      scratch.mark.fill(0);
      scratch.gen = 0;
    }
    const gen = ++scratch.gen;
    let n = 0;
    for (let k = 0; k < length; k++) {
      const pc = cur[k]!;
      const code = op[pc]!;
      let target: number;
      if (code === CHAR) {
        if (arg[pc] !== c) continue;
        target = x[pc]!;
      } else if (code === STAR || code === ANY) {
        if (c === SLASH) continue;
        target = code === STAR ? pc : x[pc]!;
      } else if (code === STARALL) target = pc;
      else if (code === ANYCHAR) target = x[pc]!;
      else if (code === CLASS) {
        if (c === SLASH || !inClass(classes[arg[pc]!]!, c)) continue;
        target = x[pc]!;
      } else continue; // MATCH
      if (collect) consumers!.push(pc);
      if (mark[target] === gen) continue;
      const to = op[target]!;
      if (to !== SPLIT && to < STAR) {
        mark[target] = gen; // a plain instruction: nothing further to follow
        next[n++] = target;
      } else n = add(p, next, n, target, gen);
    }
    const swap = cur;
    cur = next;
    next = swap;
    length = n;
  }
  if (cur !== scratch.a) scratch.a.set(cur.subarray(0, length));
  return length;
}

// Adds `pc` and every instruction reachable from it without consuming to `list`; returns the new length.
function add(p: GlobProgram, list: Int32Array, length: number, pc: number, gen: number): number {
  const { op, x, arg } = p;
  const { mark, stack } = scratch;
  let top = 0;
  stack[top++] = pc;
  while (top > 0) {
    const at = stack[--top]!;
    if (mark[at] === gen) continue;
    mark[at] = gen;
    const code = op[at]!;
    if (code === SPLIT) {
      stack[top++] = arg[at]!;
      stack[top++] = x[at]!;
    } else {
      list[length++] = at;
      if (code >= STAR) stack[top++] = x[at]!;
    }
  }
  return length;
}

function nextGen(): number {
  if (scratch.gen >= 0x3fffffff) {
    scratch.mark.fill(0);
    scratch.gen = 0;
  }
  return ++scratch.gen;
}

function inClass(cls: { negated: boolean; ranges: Int32Array }, c: number): boolean {
  const { ranges } = cls;
  for (let r = 0; r < ranges.length; r += 2) if (c >= ranges[r]! && c <= ranges[r + 1]!) return !cls.negated;
  return cls.negated;
}

class Builder {
  op: number[] = [];
  arg: number[] = [];
  x: number[] = [];
  resume: number[] = [];
  frame: number[] = [];
  classes: Array<{ negated: boolean; ranges: number[] }> = [];

  emit(op: number, arg: number, x: number, resume: number, frame: number): number {
    this.op.push(op);
    this.arg.push(arg);
    this.x.push(x);
    this.resume.push(resume);
    this.frame.push(frame);
    return this.op.length - 1;
  }

  // Built back to front: each node gets the entry of what follows it.
  sequence(nodes: readonly GlobNode[], next: number): number {
    let entry = next;
    for (let i = nodes.length - 1; i >= 0; i--) entry = this.node(nodes[i]!, entry);
    return entry;
  }

  private node(node: GlobNode, next: number): number {
    switch (node.type) {
      case "char":
        return this.emit(CHAR, node.cp, next, node.end, node.frame);
      case "any":
        return this.emit(ANY, 0, next, node.end, node.frame);
      case "class":
        this.classes.push({ negated: node.negated, ranges: node.ranges });
        return this.emit(CLASS, this.classes.length - 1, next, node.end, node.frame);
      case "star":
        return this.emit(STAR, 0, next, node.end, node.frame);
      case "wild":
        return this.emit(node.many ? STARALL : ANYCHAR, 0, next, node.end, node.frame);
      case "globstar": {
        if (!node.slash) return this.emit(STARALL, 0, next, node.start, node.frame); // `**`: anything
        // `**/` = (anything, then `/`) or nothing. The run resumes at `**/`, its slash after it.
        const slash = this.emit(CHAR, SLASH, next, node.end, node.frame);
        const run = this.emit(STARALL, 0, slash, node.start, node.frame);
        // Stryker disable next-line UnaryOperator: SPLIT consumes nothing, so its resume offset is never read
        return this.emit(SPLIT, run, next, -1, node.frame);
      }
      case "tail": {
        // `/**` at the end = (`/`, then anything) or nothing. Both resume at `**`.
        const run = this.emit(STARALL, 0, next, node.stars, node.frame);
        const slash = this.emit(CHAR, SLASH, run, node.stars, node.frame);
        // Stryker disable next-line UnaryOperator: SPLIT consumes nothing, so its resume offset is never read
        return this.emit(SPLIT, slash, next, -1, node.frame);
      }
      case "group": {
        const entries = node.alts.map((alt) => this.sequence(alt, next));
        let entry = entries[entries.length - 1]!;
        // Stryker disable next-line UnaryOperator: SPLIT consumes nothing, so its resume offset is never read
        for (let i = entries.length - 2; i >= 0; i--) entry = this.emit(SPLIT, entry, entries[i]!, -1, node.frame);
        return entry;
      }
    }
  }
}

// Whether a node never matches across a `/`.
function withinSegment(node: GlobNode): boolean {
  switch (node.type) {
    case "char":
      return node.cp !== SLASH;
    case "any":
    case "star":
    case "class":
      return true;
    case "group":
      return node.alts.every((alt) => alt.every(withinSegment));
    default:
      return false;
  }
}

// The UTF-16 units a match of `nodes` can end with, or undefined when any (or the empty text) can.
function lastUnits(nodes: readonly GlobNode[]): string | undefined {
  const node = nodes[nodes.length - 1];
  // Stryker disable next-line StringLiteral,MethodExpression: feeds the last-character prefilter; a wider set of last characters (or none) leaves the automaton to decide
  if (node?.type === "char") return String.fromCodePoint(node.cp).slice(-1);
  // Stryker disable next-line StringLiteral: feeds the last-character prefilter; no set means no prefilter
  if (node?.type !== "group") return undefined;
  // Stryker disable next-line StringLiteral: more last characters only weaken the prefilter
  let units = "";
  for (const alt of node.alts) {
    const more = lastUnits(alt);
    if (more === undefined) return undefined;
    units += more;
  }
  return units;
}

// The longest run of top-level characters strictly between the leading and the trailing ones.
function longestInnerRun(nodes: readonly GlobNode[]): string {
  const from = leadingChars(nodes).length;
  const to = nodes.length - trailingChars(nodes).length;
  // Stryker disable next-line ArrayDeclaration: codePoints skips what is not a character node; the infix is a prefilter
  let best: GlobNode[] = [];
  // Stryker disable next-line ArrayDeclaration: codePoints skips what is not a character node; the infix is a prefilter
  let run: GlobNode[] = [];
  // Stryker disable next-line ConditionalExpression,BlockStatement: any run of top-level characters (or none) is text every match holds; the infix is a prefilter
  for (let i = from; i < to; i++) {
    const node = nodes[i]!;
    // Stryker disable next-line EqualityOperator,StringLiteral,BlockStatement: any run of top-level characters (or none) is text every match holds
    if (node.type === "char") {
      // Stryker disable next-line CallExpression: an empty infix only skips the prefilter
      run.push(node);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: any run of top-level characters is text every match holds; the longest only filters more
      if (run.length > best.length) best = run;
      // Stryker disable next-line ArrayDeclaration: codePoints skips what is not a character node
    } else run = [];
  }
  return codePoints(best);
}

function leadingChars(nodes: readonly GlobNode[]): GlobNode[] {
  // Stryker disable next-line EqualityOperator,StringLiteral: a shorter prefix (or none) only weakens the prefilter; an all-character glob is a literal and never asks
  const end = nodes.findIndex((node) => node.type !== "char");
  return nodes.slice(0, end === -1 ? nodes.length : end);
}

function trailingChars(nodes: readonly GlobNode[]): GlobNode[] {
  let start = nodes.length;
  // Stryker disable next-line EqualityOperator,StringLiteral: a shorter suffix (or none) only weakens the prefilter; an all-character glob is a literal and never asks
  while (start > 0 && nodes[start - 1]!.type === "char") start--;
  return nodes.slice(start);
}

function codePoints(nodes: readonly GlobNode[]): string {
  let text = "";
  for (const node of nodes) if (node.type === "char") text += String.fromCodePoint(node.cp);
  return text;
}
