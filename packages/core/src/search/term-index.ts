/**
 * The inverted index behind skill search: for each term, which documents hold it in which field and how
 * often, and BM25 over it with a weight per field. It scores as MiniSearch 7 does for exact terms combined
 * with OR (the same formula, the same running average of field lengths, a score times the number of request
 * terms matched), so rankings and scores are MiniSearch's; term-index.test.ts holds the two equal.
 *
 * Why not MiniSearch itself: looking each term up in its radix tree was about a fifth of an index build, and
 * the only way around that was reaching into its protected term index. A Map does the look-up, and no prefix
 * or fuzzy search is needed here (docs/decisions.md, "The search index is ours").
 */

/** BM25 parameters: `k` term-frequency saturation, `b` length normalisation, `d` BM25+'s floor per match. */
export interface Bm25Parameters {
  k: number;
  b: number;
  d: number;
}

/** How a {@link TermIndex} reads documents. */
export interface TermIndexOptions<F extends string> {
  /** The fields of a document, in the order their matches are listed. */
  fields: readonly F[];
  /** Splits a field's text into words. */
  tokenize(text: string): readonly string[];
  /** A word as a term, or `null` to leave it out (a stop word). */
  processTerm(word: string): string | null;
  bm25: Bm25Parameters;
}

/** One document a search found. */
export interface TermMatch<F extends string> {
  id: string;
  /** BM25 with field weights, times the number of request terms matched (each at its boost). */
  score: number;
  /** The request terms the document holds. */
  queryTerms: string[];
  /** Each matched term → the fields holding it. */
  match: Record<string, F[]>;
}

export class TermIndex<F extends string> {
  // term → field number → document number → occurrences
  private readonly postings = new Map<string, Map<number, Map<number, number>>>();
  private readonly numbers = new Map<string, number>();
  private readonly ids = new Map<number, string>();
  // document number → length of each field (its distinct words)
  private readonly lengths = new Map<number, number[]>();
  private readonly averageLength: number[];
  private next = 0;

  constructor(private readonly options: TermIndexOptions<F>) {
    this.averageLength = options.fields.map(() => 0);
  }

  /** How many documents the index holds. */
  get size(): number {
    return this.ids.size;
  }

  has(id: string): boolean {
    return this.numbers.has(id);
  }

  /** Indexes `doc` under `id`, which must not be in the index (to replace a document, remove it first). */
  add(id: string, doc: Readonly<Record<F, string>>): void {
    if (this.numbers.has(id)) throw new Error(`TermIndex: "${id}" is indexed already`);
    const number = this.next++;
    this.numbers.set(id, number);
    this.ids.set(number, id);
    const lengths: number[] = [];
    this.lengths.set(number, lengths);
    const count = this.ids.size - 1;
    this.options.fields.forEach((field, fieldNumber) => {
      const words = this.options.tokenize(doc[field]);
      const length = new Set(words).size;
      lengths[fieldNumber] = length;
      // The running average MiniSearch keeps (its floating-point steps too, so scores stay equal).
      this.averageLength[fieldNumber] = (this.averageLength[fieldNumber]! * count + length) / (count + 1);
      for (const word of words) {
        const term = this.options.processTerm(word);
        if (term) this.addTerm(term, fieldNumber, number);
      }
    });
  }

  /**
   * Removes the document indexed under `id`; `doc` must be the text it was indexed with (its terms are found
   * by reading it again, as MiniSearch's `remove` does, so the index keeps no term list per document).
   */
  remove(id: string, doc: Readonly<Record<F, string>>): void {
    const number = this.numbers.get(id);
    if (number === undefined) return;
    const lengths = this.lengths.get(number)!;
    const count = this.ids.size;
    this.options.fields.forEach((field, fieldNumber) => {
      const length = lengths[fieldNumber] ?? 0;
      this.averageLength[fieldNumber] =
        count === 1 ? 0 : (this.averageLength[fieldNumber]! * count - length) / (count - 1);
      for (const word of this.options.tokenize(doc[field])) {
        const term = this.options.processTerm(word);
        if (term) this.removeTerm(term, fieldNumber, number);
      }
    });
    this.numbers.delete(id);
    this.ids.delete(number);
    this.lengths.delete(number);
  }

  /**
   * The documents holding any of `terms` (already processed), best first; a field weighs `weights[field]`
   * (a missing or zero weight counts as 1, as in MiniSearch); a term's score is times `boosts.get(term)` (default 1,
   * MiniSearch's term boost).
   */
  search(
    terms: readonly string[],
    weights: Partial<Record<F, number>>,
    boosts?: ReadonlyMap<string, number>,
  ): TermMatch<F>[] {
    const found = new Map<number, TermMatch<F>>();
    const total = this.ids.size;
    for (const term of terms) {
      const byField = this.postings.get(term);
      if (byField === undefined) continue;
      this.options.fields.forEach((field, fieldNumber) => {
        const docs = byField.get(fieldNumber);
        if (docs === undefined) return;
        const weight = (weights[field] || 1) * (boosts?.get(term) ?? 1);
        const idf = Math.log(1 + (total - docs.size + 0.5) / (docs.size + 0.5));
        for (const [number, occurrences] of docs) {
          const score = weight * this.bm25(idf, occurrences, this.lengths.get(number)![fieldNumber]!, fieldNumber);
          const result = found.get(number);
          if (result === undefined) {
            found.set(number, { id: this.ids.get(number)!, score, queryTerms: [term], match: { [term]: [field] } });
            continue;
          }
          result.score += score;
          if (result.queryTerms.at(-1) !== term) result.queryTerms.push(term);
          (result.match[term] ??= []).push(field);
        }
      });
    }
    const results = [...found.values()];
    // Times the number of request terms matched (MiniSearch's), each counted at its boost.
    for (const result of results) {
      let matched = 0;
      for (const term of result.queryTerms) matched += boosts?.get(term) ?? 1;
      result.score *= matched;
    }
    return results.sort((a, b) => b.score - a.score);
  }

  private bm25(idf: number, occurrences: number, length: number, fieldNumber: number): number {
    const { k, b, d } = this.options.bm25;
    const norm = 1 - b + (b * length) / this.averageLength[fieldNumber]!;
    return idf * (d + (occurrences * (k + 1)) / (occurrences + k * norm));
  }

  private addTerm(term: string, fieldNumber: number, number: number): void {
    let byField = this.postings.get(term);
    if (byField === undefined) this.postings.set(term, (byField = new Map()));
    let docs = byField.get(fieldNumber);
    if (docs === undefined) byField.set(fieldNumber, (docs = new Map()));
    docs.set(number, (docs.get(number) ?? 0) + 1);
  }

  private removeTerm(term: string, fieldNumber: number, number: number): void {
    const byField = this.postings.get(term);
    const docs = byField?.get(fieldNumber);
    const occurrences = docs?.get(number);
    if (byField === undefined || docs === undefined || occurrences === undefined) return;
    if (occurrences > 1) docs.set(number, occurrences - 1);
    else docs.delete(number);
    if (docs.size === 0) byField.delete(fieldNumber);
    if (byField.size === 0) this.postings.delete(term);
  }
}
