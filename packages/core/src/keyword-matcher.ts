import { compareCodePoints } from "./code-point-order.js";
import { classOf, foldCodePoint, isWhitespace, NO_SPACE, SPACE, WORD } from "./keyword-chars.js";
import type { Skill } from "./skill.js";

/** One keyword or task skill whose keyword was found in a text. */
export interface KeywordMatch {
  /** The skill's name. */
  skill: string;
  /** The keyword as the skill declares it (not as it appears in the text). */
  keyword: string;
  /** UTF-16 offset in the text where the first accepted occurrence of `keyword` starts. */
  index: number;
}

/** All keyword and task triggers of a skill set, compiled once. */
export interface KeywordMatcher {
  /**
   * The skills whose keywords occur in `text`, at most one entry per skill, in code-point order of
   * skill name. Each entry reports the skill's first declared keyword that occurs anywhere in the
   * text. Never throws; a non-string `text` matches nothing. Cost grows with the text, not with the
   * number of skills or keywords.
   */
  match(text: string): KeywordMatch[];
  /** How many skills have at least one usable keyword. */
  readonly size: number;
}

/**
 * Compiles the keyword and task triggers of `skills` into one Aho–Corasick automaton over
 * case-folded text in which every run of whitespace counts as one space. Other skills are ignored.
 *
 * Rules (issue 3): case-insensitive by Unicode simple case folding (as a JavaScript `/iu` regex: `ß`
 * does not match `ss`); whole tokens: an occurrence is refused when the character just before or after
 * it is a letter, digit or mark of any script (`\p{L}\p{N}\p{M}`), except that no boundary is needed on a
 * side where that character or the keyword's edge character is in a script written without spaces (Han,
 * Hiragana, Katakana, Thai, Lao, Khmer, Myanmar, by Script_Extensions). `_ - / .`, whitespace and other
 * punctuation are boundaries; a keyword's inner whitespace matches any run of whitespace; its leading and
 * trailing whitespace is ignored; regex metacharacters are literal. Text is not Unicode-normalized (`é`
 * and `e` + U+0301 differ). A task skill whose keywords lack `/<name>` gets it as its last keyword.
 *
 * @example
 * const matcher = createKeywordMatcher([{ name: "git", trigger: { type: "keyword", keywords: ["git"] } }]);
 * matcher.match("commit in my_git_repo") // [{ skill: "git", keyword: "git", index: 13 }]
 */
export function createKeywordMatcher(skills: ReadonlyArray<KeywordSkill>): KeywordMatcher {
  // Stryker disable next-line ArrayDeclaration: a list that is not an array holds no skill whatever stands in for it (entries without a string name are dropped)
  const ordered = (Array.isArray(skills) ? skills : [])
    .filter((skill) => typeof skill?.name === "string")
    .map((skill) => ({ name: skill.name, keywords: keywordsOf(skill), substring: matchesSubstrings(skill) }))
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a skill without keywords is skipped below as well (no usable keyword)
    .filter((skill) => skill.keywords.length > 0)
    .sort((a, b) => compareCodePoints(a.name, b.name));
  const automaton = new Automaton();
  const names: string[] = [];
  const declared: string[][] = [];
  for (const skill of ordered) {
    const usable: string[] = [];
    for (const keyword of skill.keywords) {
      const units = patternUnits(keyword);
      if (units.length === 0) continue;
      automaton.add(units, keyword, names.length, usable.length, skill.substring);
      usable.push(keyword);
    }
    if (usable.length === 0) continue;
    names.push(skill.name);
    declared.push(usable);
  }
  automaton.finish();

  return {
    size: names.length,
    match(text: string): KeywordMatch[] {
      if (typeof text !== "string" || text.length === 0 || names.length === 0) return [];
      // skill index -> best [declared keyword index, text offset]
      const best = new Map<number, [number, number]>();
      automaton.scan(text, (skill, keywordIndex, start) => {
        const current = best.get(skill);
        if (current === undefined || keywordIndex < current[0]) best.set(skill, [keywordIndex, start]);
      });
      return [...best.keys()]
        .sort((a, b) => a - b)
        .map((skill) => {
          const [keywordIndex, index] = best.get(skill)!;
          return { skill: names[skill]!, keyword: declared[skill]![keywordIndex]!, index };
        });
    },
  };
}

/**
 * What the matcher reads of a skill: its name and trigger, and its source when it may be an OpenHands
 * legacy microagent.
 */
export type KeywordSkill = Pick<Skill, "name" | "trigger"> & {
  source?: Pick<Skill["source"], "format" | "path"> | undefined;
};

/**
 * OpenHands' legacy knowledge microagents (`.openhands/microagents/*.md`) fire on a case-insensitive
 * substring (`match_trigger`: `trigger.lower() in message.lower()`, OpenHands/OpenHands
 * openhands/microagent/microagent.py): "…with python3…" fires `python`. Their keywords match as
 * substrings; every other skill's, as whole tokens (docs/decisions.md, "OpenHands legacy triggers").
 */
function matchesSubstrings(skill: KeywordSkill): boolean {
  const source = skill.source;
  if (source?.format !== "legacy" || typeof source.path !== "string") return false;
  return source.path.replaceAll("\\", "/").includes("/.openhands/microagents/");
}

/**
 * The first of `keywords` (in declared order) that occurs in `text` under the rules of
 * {@link createKeywordMatcher}, as declared; `undefined` when none does.
 *
 * @example
 * matchKeyword(["deploy", "/deploy"], "please /deploy now") // "deploy" (a `/` is a boundary)
 * matchKeyword(["git"], "see github.com") // undefined
 */
export function matchKeyword(keywords: readonly string[], text: string): string | undefined {
  if (!Array.isArray(keywords)) return undefined;
  // Stryker disable next-line StringLiteral: the one skill's name is never reported, only its keyword
  const matcher = createKeywordMatcher([{ name: "_", trigger: { type: "keyword", keywords: [...keywords] } }]);
  return matcher.match(text)[0]?.keyword;
}

/** A keyword as automaton input: folded code points, whitespace runs as one space, trimmed. */
function patternUnits(keyword: string): number[] {
  const units: number[] = [];
  for (const char of keyword) {
    const cp = char.codePointAt(0)!;
    if (isWhitespace(cp)) {
      if (units.length > 0 && units[units.length - 1] !== SPACE) units.push(SPACE);
    } else units.push(foldCodePoint(cp));
  }
  if (units[units.length - 1] === SPACE) units.pop();
  return units;
}

function keywordsOf(skill: Pick<Skill, "name" | "trigger">): string[] {
  const trigger = skill.trigger as Skill["trigger"] | undefined;
  if (trigger?.type !== "keyword" && trigger?.type !== "task") return [];
  const keywords = Array.isArray(trigger.keywords) ? trigger.keywords.filter((k) => typeof k === "string") : [];
  // Stryker disable next-line ConditionalExpression,StringLiteral: pushing /name twice changes nothing (the first declared keyword wins)
  if (trigger.type === "task" && !keywords.includes(`/${skill.name}`)) keywords.push(`/${skill.name}`);
  return keywords;
}

/** Code point at `i` (a lone surrogate stands for itself). */
function codePointAt(text: string, i: number): number {
  return text.codePointAt(i)!;
}

/** Code point that ends just before `i`. */
function codePointBefore(text: string, i: number): number {
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    // Stryker disable next-line EqualityOperator: high = 0xdbff starts plane-16 private use characters, never letters: < and <= give the same class
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

interface Pattern {
  length: number;
  /** Whether the keyword's first / last character is in a script written without spaces. */
  startNoSpace: boolean;
  endNoSpace: boolean;
  /** [skill index, declared keyword index, matches inside words] for every skill that declares this keyword. */
  owners: Array<[number, number, boolean]>;
}

/** Aho–Corasick over code points. States with one child keep it inline; others use a Map. */
class Automaton {
  // Stryker disable next-line ArrayDeclaration: the root's inline child slot is set before it is read; an empty array reads as no child
  private readonly childCp: number[] = [0];
  // Stryker disable next-line ArrayDeclaration: an empty array reads as no inline child, as -1 does
  private readonly childState: number[] = [-1];
  // Stryker disable next-line ArrayDeclaration: an empty array reads as no child map, as undefined does
  private readonly children: Array<Map<number, number> | undefined> = [undefined];
  private fail = new Int32Array(1);
  /** Pattern ending at the state, or -1. */
  private readonly output: number[] = [-1];
  /** Nearest state on the fail chain that has an output, or -1. */
  // Stryker disable next-line UnaryOperator: finish() replaces this array before any scan reads it
  private dictLink = new Int32Array(1).fill(-1);
  // Stryker disable next-line ArrayDeclaration: pattern ids are taken from the array's length, so a stray first entry only shifts them
  private readonly patterns: Pattern[] = [];
  private ringMask = 0;

  // Stryker disable next-line BooleanLiteral: every caller passes `substring`; the default is never used
  add(units: number[], keyword: string, skill: number, keywordIndex: number, substring = false): void {
    let state = 0;
    for (const unit of units) {
      let next = this.next(state, unit);
      // Stryker disable next-line EqualityOperator: next() never returns 0 (the root is no one's child), so < 0 and <= 0 agree
      if (next < 0) {
        next = this.output.length;
        // Stryker disable next-line CallExpression: a state's inline code point is written before it is read; a missing slot reads as no child
        this.childCp.push(0);
        this.childState.push(-1);
        // Stryker disable next-line CallExpression: a missing slot reads as undefined, as the pushed undefined does
        this.children.push(undefined);
        this.output.push(-1);
        this.setChild(state, unit, next);
      }
      state = next;
    }
    let id = this.output[state]!;
    if (id < 0) {
      const first = keyword.trimStart().codePointAt(0)!;
      const last = codePointBefore(keyword.trimEnd(), keyword.trimEnd().length);
      id = this.patterns.length;
      this.patterns.push({
        length: units.length,
        startNoSpace: (classOf(first) & NO_SPACE) !== 0,
        endNoSpace: (classOf(last) & NO_SPACE) !== 0,
        owners: [],
      });
      this.output[state] = id;
    }
    const owners = this.patterns[id]!.owners;
    // Two keywords of one skill may fold to the same pattern: the first declared one wins.
    // Stryker disable next-line all: a second owner entry of the same skill has a higher keyword index and never wins
    if (!owners.some(([s]) => s === skill)) owners.push([skill, keywordIndex, substring]);
  }

  /** Computes fail and dictionary links (breadth first). */
  finish(): void {
    const count = this.output.length;
    const longest = this.patterns.reduce((max, pattern) => Math.max(max, pattern.length), 1);
    this.ringMask = 2 ** Math.ceil(Math.log2(longest + 1)) - 1;
    this.fail = new Int32Array(count);
    this.dictLink = new Int32Array(count).fill(-1);
    // Stryker disable next-line ArrayDeclaration: a stray non-state entry in the queue has no children and changes no link
    const queue: number[] = [];
    this.forEachChild(0, (_, child) => queue.push(child));
    // Stryker disable next-line EqualityOperator: queue[queue.length] is undefined and has no children
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      this.forEachChild(state, (unit, child) => {
        let fallback = this.fail[state]!;
        while (fallback > 0 && this.next(fallback, unit) < 0) fallback = this.fail[fallback]!;
        const target = this.next(fallback, unit);
        // Stryker disable next-line EqualityOperator: target is never 0 (the root is no one's child), so >= 0 and > 0 agree
        const link = target >= 0 && target !== child ? target : 0;
        this.fail[child] = link;
        this.dictLink[child] = this.output[link]! >= 0 ? link : this.dictLink[link]!;
        queue.push(child);
      });
    }
  }

  /** Feeds `text` through the automaton and reports every occurrence that passes the boundary checks. */
  scan(text: string, report: (skill: number, keywordIndex: number, start: number) => void): void {
    // Ring buffer: unit number -> UTF-16 offset where it starts (only the last `longest` are needed).
    const mask = this.ringMask;
    const starts = new Int32Array(mask + 1);
    let units = 0;
    let state = 0;
    // Stryker disable next-line BooleanLiteral: a leading whitespace unit is never part of a match (keywords are trimmed)
    let lastWasSpace = false;
    for (let i = 0; i < text.length; ) {
      const cp = codePointAt(text, i);
      const width = cp > 0xffff ? 2 : 1;
      let unit: number;
      if (isWhitespace(cp)) {
        if (lastWasSpace) {
          i += width;
          continue;
        }
        lastWasSpace = true;
        unit = SPACE;
      } else {
        lastWasSpace = false;
        unit = foldCodePoint(cp);
      }
      starts[units++ & mask] = i;
      i += width;
      let next = this.next(state, unit);
      while (next < 0 && state > 0) {
        state = this.fail[state]!;
        next = this.next(state, unit);
      }
      state = Math.max(next, 0);
      for (let s = this.output[state]! >= 0 ? state : this.dictLink[state]!; s >= 0; s = this.dictLink[s]!) {
        const pattern = this.patterns[this.output[s]!]!;
        const start = starts[(units - pattern.length) & mask]!;
        const whole = acceptable(text, start, i, pattern);
        for (const [skill, keywordIndex, substring] of pattern.owners)
          if (whole || substring) report(skill, keywordIndex, start);
      }
    }
  }

  private next(state: number, unit: number): number {
    if (this.childCp[state] === unit && this.childState[state]! >= 0) return this.childState[state]!;
    return this.children[state]?.get(unit) ?? -1;
  }

  private setChild(state: number, unit: number, child: number): void {
    // Stryker disable next-line ConditionalExpression,BlockStatement: whether the first child is kept inline or in the map, next() finds it
    if (this.childState[state]! < 0 && this.children[state] === undefined) {
      this.childCp[state] = unit;
      this.childState[state] = child;
      return;
    }
    let map = this.children[state];
    if (map === undefined) map = this.children[state] = new Map();
    map.set(unit, child);
  }

  private forEachChild(state: number, visit: (unit: number, child: number) => void): void {
    // Stryker disable next-line EqualityOperator: childState is never 0 (the root is no one's child), so >= 0 and > 0 agree
    if (this.childState[state]! >= 0) visit(this.childCp[state]!, this.childState[state]!);
    this.children[state]?.forEach((child, unit) => visit(unit, child));
  }
}

/** The whole-token rule: refuse a letter/digit/mark neighbour unless either side is a no-space script. */
function acceptable(text: string, start: number, end: number, pattern: Pattern): boolean {
  if (start > 0) {
    const before = classOf(codePointBefore(text, start));
    if ((before & WORD) !== 0 && (before & NO_SPACE) === 0 && !pattern.startNoSpace) return false;
  }
  if (end < text.length) {
    const after = classOf(codePointAt(text, end));
    if ((after & WORD) !== 0 && (after & NO_SPACE) === 0 && !pattern.endNoSpace) return false;
  }
  return true;
}
