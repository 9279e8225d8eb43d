/**
 * `indexOf` for scanners that search the same terminators again and again from positions that only move
 * forward (an unclosed `<!--` per line, a `"` per attribute). Each terminator remembers its last answer,
 * so a search that failed once is not repeated and every search costs O(1) amortised: the whole scan
 * stays linear instead of quadratic on hostile input.
 */
export class TextFinder {
  readonly #last = new Map<string, { from: number; at: number }>();

  constructor(private readonly text: string) {}

  /** First occurrence of `term` at or after `from`, or -1. */
  find(term: string, from: number): number {
    const last = this.#last.get(term);
    if (last !== undefined && from >= last.from && (last.at === -1 || last.at >= from)) return last.at;
    const at = this.text.indexOf(term, from);
    // Stryker disable next-line ObjectLiteral: an empty memory is never reused, and searching again gives the same answer
    this.#last.set(term, { from, at });
    return at;
  }

  /** First match of the global `pattern` (keyed by `key`) at or after `from`, or -1. */
  match(key: string, pattern: RegExp, from: number): number {
    const last = this.#last.get(key);
    if (last !== undefined && from >= last.from && (last.at === -1 || last.at >= from)) return last.at;
    pattern.lastIndex = from;
    const at = pattern.exec(this.text)?.index ?? -1;
    // Stryker disable next-line ObjectLiteral: an empty memory is never reused, and searching again gives the same answer
    this.#last.set(key, { from, at });
    return at;
  }
}
