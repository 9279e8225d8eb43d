import type MiniSearch from "minisearch";
import type { Options } from "minisearch";

/** The methods of MiniSearch's term index (its `SearchableMap`, a radix tree) that add, replace or remove a term. */
interface TermMap<V> {
  fetch(key: string, initial: () => V): V;
  set(key: string, value: V): unknown;
  update(key: string, fn: (value: V | undefined) => V): unknown;
  delete(key: string): unknown;
  clear(): void;
}

/**
 * MiniSearch, with a term index that remembers where each term's postings are. MiniSearch's `add` looks each
 * term of a document up in its radix tree (a walk over each node's keys), once per field and document: about
 * a fifth of building an index of 1,000 skills. A skill set's vocabulary is small, so a Map from term to
 * postings answers those look-ups instead. Scores and results are MiniSearch's own: only where a term's
 * postings are found changes. (The term index is `_index`, protected: MiniSearch's documented place for
 * subclasses.)
 */
export function rememberingMiniSearch(Base: typeof MiniSearch): typeof MiniSearch {
  return class RememberingMiniSearch<T> extends Base<T> {
    constructor(options: Options<T>) {
      super(options);
      rememberTerms(this._index);
    }
  };
}

// Shadows the index's own methods: fetch answers from the Map; every other way a term's value changes or goes
// (set, update, delete, clear: discard and vacuum remove terms with delete) forgets the term first.
function rememberTerms<V>(index: TermMap<V>): void {
  const known = new Map<string, V>();
  const { fetch, set, update, delete: remove, clear } = index;
  index.fetch = (key, initial) => {
    let value = known.get(key);
    if (value === undefined) {
      value = fetch.call(index, key, initial);
      known.set(key, value);
    }
    return value;
  };
  index.set = (key, value) => {
    known.delete(key);
    return set.call(index, key, value);
  };
  index.update = (key, fn) => {
    known.delete(key);
    return update.call(index, key, fn);
  };
  index.delete = (key) => {
    known.delete(key);
    return remove.call(index, key);
  };
  index.clear = () => {
    known.clear();
    clear.call(index);
  };
}
