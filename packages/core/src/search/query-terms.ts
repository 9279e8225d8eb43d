/**
 * A request as the index sees it: its words as terms (stop words out, plurals folded by {@link singular}), each
 * with a weight, and the per-word term cache the index uses when it reads skills.
 */
import { MAX_SEARCH_QUERY_CHARS } from "../limits.js";
import { headUtf16 } from "../text/cut-text.js";
import { searchTerm, singular, splitWords } from "./tokenize.js";

// Most distinct terms of one request searched: a request longer than a paragraph says no more.
const MAX_QUERY_TERMS = 64;
// How much a part of an identifier the request names whole counts (queryTerms).
const PART_BOOST = 0.3;

/** The terms of a request as the index sees them (stop words out, plurals folded), for display. */
export function requestTerms(query: string): Promise<string[]> {
  return Promise.resolve([...queryTerms(String(query)).keys()]);
}

// Folding every word of every body is most of the build: a skill set's vocabulary is small, so each word
// is processed once (bounded: the cache is dropped when full).
const termCache = new Map<string, string | null>();
const MAX_CACHED_TERMS = 200_000;

/** {@link searchTerm} of `word` (`null`: a stop word), cached. */
export function cachedTerm(word: string): string | null {
  let term = termCache.get(word);
  // Stryker disable next-line ConditionalExpression: a cache; computing the term again gives the same term
  if (term === undefined) {
    // Stryker disable next-line all: the cache's bound; dropping it sooner, later or never gives the same terms
    if (termCache.size >= MAX_CACHED_TERMS) termCache.clear();
    term = searchTerm(word, singular) ?? null;
    // Stryker disable next-line CallExpression: a cache; without the store every call computes the same term
    termCache.set(word, term);
  }
  return term;
}

/**
 * The terms of a request, each with its weight: 1, or PART_BOOST for the parts of a camel-case identifier the
 * request names whole ("OrderRepo" → orderrepo 1, order and repo PART_BOOST), so that a skill that has the
 * identifier outranks one that has only its parts ("…-github-repos").
 */
export function queryTerms(query: string): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (word: string, boost: number) => {
    const term = searchTerm(word, singular);
    // Stryker disable next-line EqualityOperator: setting a term's weight again to the same value changes nothing
    if (term !== undefined && (terms.get(term) ?? 0) < boost) terms.set(term, boost);
  };
  const text = headUtf16(typeof query === "string" ? query : "", MAX_SEARCH_QUERY_CHARS);
  // Stryker disable next-line Regex: splitting at each whitespace character only adds empty chunks, which hold no word
  for (const chunk of text.split(/\s+/)) {
    const words = splitWords(chunk);
    for (let i = 0; i < words.length && terms.size < MAX_QUERY_TERMS; i++) {
      const whole = words[i]!;
      add(whole, 1);
      // splitWords lists an identifier's parts right after it: the words that spell it.
      let joined = "";
      let j = i + 1;
      while (j < words.length && joined.length < whole.length) joined += words[j++];
      if (j > i + 2 && joined === whole) {
        for (const part of words.slice(i + 1, j)) add(part, PART_BOOST);
        i = j - 1;
      }
    }
  }
  return terms;
}
