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

/**
 * One term's postings: flat arrays, one entry per (document, field) holding the term, in the order they were
 * added (a document's entries together, its fields in order). A removed document's entries stay until the
 * term is next searched (`live` counts per field what is not removed: the document frequency of BM25's IDF).
 * Flat arrays rather than maps of maps: building the index of 20,000 skills allocates a few arrays per term,
 * not a map per (term, field).
 */
interface Postings {
  /** document number × FIELD_SLOTS + field number */
  entries: number[];
  occurrences: number[];
  live: number[];
  /** entries of removed documents */
  dead: number;
}

// Field numbers take the low bits of a posting entry.
const FIELD_SLOTS = 16;

export class TermIndex<F extends string> {
  private readonly postings = new Map<string, Postings>();
  private readonly numbers = new Map<string, number>();
  private readonly ids = new Map<number, string>();
  // document number → length of each field (its distinct words)
  private readonly lengths = new Map<number, number[]>();
  private readonly averageLength: number[];
  private next = 0;
  // Posting entries in all, and those of removed documents: past half dead, every term is compacted (a term that
  // is never searched would otherwise keep its dead entries for as long as the index lives).
  private entries = 0;
  private dead = 0;

  constructor(private readonly options: TermIndexOptions<F>) {
    if (options.fields.length > FIELD_SLOTS) throw new Error(`TermIndex: at most ${FIELD_SLOTS} fields`);
    this.averageLength = options.fields.map(() => 0);
  }

  /** How many documents the index holds. */
  get size(): number {
    return this.ids.size;
  }

  /** Posting entries kept, those of removed documents not yet dropped included. */
  get postingEntries(): number {
    return this.entries;
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
      const entry = number * FIELD_SLOTS + fieldNumber;
      for (const word of words) {
        const term = this.options.processTerm(word);
        if (term) this.addTerm(term, entry, fieldNumber);
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
      const seen = new Set<string>();
      for (const word of this.options.tokenize(doc[field])) {
        const term = this.options.processTerm(word);
        if (!term || seen.has(term)) continue;
        seen.add(term);
        const postings = this.postings.get(term);
        if (postings === undefined) continue;
        postings.live[fieldNumber]! -= 1;
        postings.dead++;
        this.dead++;
      }
    });
    this.numbers.delete(id);
    this.ids.delete(number);
    this.lengths.delete(number);
    if (this.dead * 2 > this.entries) for (const term of [...this.postings.keys()]) this.live(term);
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
    const { fields } = this.options;
    for (const term of terms) {
      const postings = this.live(term);
      if (postings === undefined) continue;
      const boost = boosts?.get(term) ?? 1;
      // Multiplied in MiniSearch's order (weight × (IDF × term frequency part)): the same scores to the last bit.
      const weight = fields.map((field) => (weights[field] || 1) * boost);
      const idf = postings.live.map((docs) => Math.log(1 + (total - docs + 0.5) / (docs + 0.5)));
      const { entries, occurrences } = postings;
      for (let i = 0; i < entries.length; i++) {
        const fieldNumber = entries[i]! % FIELD_SLOTS;
        const number = (entries[i]! - fieldNumber) / FIELD_SLOTS;
        const field = fields[fieldNumber]!;
        const score =
          weight[fieldNumber]! *
          this.bm25(idf[fieldNumber]!, occurrences[i]!, this.lengths.get(number)![fieldNumber]!, fieldNumber);
        const result = found.get(number);
        if (result === undefined) {
          found.set(number, { id: this.ids.get(number)!, score, queryTerms: [term], match: { [term]: [field] } });
          continue;
        }
        result.score += score;
        if (result.queryTerms.at(-1) !== term) result.queryTerms.push(term);
        (result.match[term] ??= []).push(field);
      }
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

  // The postings of `term` without the entries of removed documents (dropped here, once they are many).
  private live(term: string): Postings | undefined {
    const postings = this.postings.get(term);
    if (postings === undefined || postings.dead === 0) return postings;
    this.dead -= postings.dead;
    if (postings.dead === postings.entries.length) {
      this.entries -= postings.entries.length;
      this.postings.delete(term);
      return undefined;
    }
    const entries: number[] = [];
    const occurrences: number[] = [];
    postings.entries.forEach((entry, i) => {
      if (this.ids.has((entry - (entry % FIELD_SLOTS)) / FIELD_SLOTS)) {
        entries.push(entry);
        occurrences.push(postings.occurrences[i]!);
      }
    });
    this.entries -= postings.entries.length - entries.length;
    postings.entries = entries;
    postings.occurrences = occurrences;
    postings.dead = 0;
    return postings;
  }

  private addTerm(term: string, entry: number, fieldNumber: number): void {
    let postings = this.postings.get(term);
    if (postings === undefined) {
      postings = { entries: [], occurrences: [], live: this.options.fields.map(() => 0), dead: 0 };
      this.postings.set(term, postings);
    }
    const last = postings.entries.length - 1;
    // A document's entries are added together: the same term again in the same field is the last entry.
    if (last >= 0 && postings.entries[last] === entry) postings.occurrences[last]! += 1;
    else {
      postings.entries.push(entry);
      postings.occurrences.push(1);
      this.entries++;
      postings.live[fieldNumber]! += 1;
    }
  }
}
