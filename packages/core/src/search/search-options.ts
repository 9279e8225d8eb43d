/**
 * What a skill search is asked and answers: field weights, the score thresholds (confidence, suggestion, an
 * optional cut-off), the options of an index and of one search, a match, and the {@link SkillIndex} interface.
 * The index itself is skill-index.ts; how a request becomes terms is query-terms.ts.
 */
import type { EmbedTexts } from "./fusion.js";
import type { DocumentSources, SearchField } from "./skill-document.js";
import type { Skill } from "../skill.js";

/** How much a match in each field counts; the rest of the score is BM25 (term rarity, field length). */
export type FieldWeights = Record<SearchField, number>;

/** Field weights chosen on all labelled sets of eval/selection together (docs/selection.md). */
export const DEFAULT_FIELD_WEIGHTS: Readonly<FieldWeights> = {
  name: 1.5,
  description: 2,
  whenToUse: 2,
  keywords: 2,
  headings: 0.5,
  body: 1.5,
  references: 0.3,
  files: 0.5,
};

/**
 * The default cut-off: none. A search ranks every skill that matches a request word, and marks each result's
 * confidence ({@link DEFAULT_CONFIDENT_SCORE}) instead of dropping it: on held-out sets no cut-off both
 * empties most no-skill requests and keeps answerable ones (docs/selection.md has the figures). A host may set
 * `minScore` to drop results below a score. A score is the BM25 score with field weights (times the number
 * of request words matched, as MiniSearch ranks), per request word that some skill uses, over the IDF of a
 * word only one skill uses, so that it reads the same at 10 skills and at 10,000.
 */
export const DEFAULT_MIN_SEARCH_SCORE = 0;

/**
 * The score from which a result is marked `confidence: "high"`; below it, `"low"` (the model is told the
 * match is weak and decides). Chosen by eval/selection on all labelled sets together: the highest threshold
 * that marks at most 3 % of every set's answerable requests low (docs/selection.md).
 */
export const DEFAULT_CONFIDENT_SCORE = 2.5;

/**
 * The score from which a user message's match becomes a suggestion note: high, so that a note is
 * rarely wrong. Chosen on the tuning split of eval/selection: the lowest score whose suggestions are
 * right at least 96.5 % of the time (docs/selection.md).
 */
export const DEFAULT_SUGGEST_SCORE = 6;

/** Options of {@link createSkillIndex}. */
export interface SkillIndexOptions {
  /** How much a match in each field counts. @default DEFAULT_FIELD_WEIGHTS */
  weights?: Partial<FieldWeights> | undefined;
  /** Best score below which a search finds nothing. @default DEFAULT_MIN_SEARCH_SCORE (0: rank always) */
  minScore?: number | undefined;
  /** Score from which a result's confidence is "high". @default DEFAULT_CONFIDENT_SCORE */
  confidentScore?: number | undefined;
  /**
   * The host's embedding function (its provider's embeddings API): skills and requests are embedded and
   * the vector ranking is fused with the lexical one (reciprocal rank fusion). Vectors are kept by the
   * digest of a skill's indexed text. @default none: lexical ranking only
   */
  embed?: EmbedTexts | undefined;
  /** Which parts of a skill are read when it is indexed. @default body and file names */
  sources?: DocumentSources | undefined;
}

/** Options of one {@link SkillIndex.search}. */
export interface SkillIndexSearchOptions {
  /** Most results. @default 10 */
  limit?: number | undefined;
  /** Overrides the index's `minScore` for this search (suggestions ask for a higher one). */
  minScore?: number | undefined;
  /** Overrides the index's field weights for this search (the evaluation's weight choice). */
  weights?: Partial<FieldWeights> | undefined;
  signal?: AbortSignal | undefined;
}

/** One skill a search found. */
export interface SkillMatch {
  name: string;
  description?: string;
  /** The lexical score (BM25 with field weights), rounded to 3 decimals; higher is better. */
  score: number;
  /** "high" from the index's `confidentScore`; "low" below it: a weak match the model should judge. */
  confidence: "high" | "low";
  /** The request's terms (after stop words and stemming) that matched, and in which fields. */
  matched: { term: string; fields: SearchField[] }[];
}

/** A search index over skills: built on the first search, kept up to date by each search's skill list. */
export interface SkillIndex {
  /**
   * Ranks `skills` for `query`, best first, leaving out those below the cut-off. The index follows
   * `skills`: skills added, changed (by their indexed text's digest) or gone since the last call are
   * added, replaced or removed; an unchanged list (the same array) costs nothing. Never throws for bad
   * input (an empty or huge request, a skill whose body cannot be read); rejects only when aborted.
   */
  search(skills: readonly Skill[], query: string, options?: SkillIndexSearchOptions): Promise<SkillMatch[]>;
  /**
   * Skills indexed, how many documents were built (a changed skill counts again), and how many are indexed by
   * their metadata only while their bodies are read in the background.
   */
  stats(): { skills: number; built: number; pending: number };
  /**
   * Starts indexing `skills` without waiting (a context calls it when it offers `search_skills`, so the index is
   * ready before the first search): the work runs a chunk per turn of the event loop. Never throws.
   */
  prepare(skills: readonly Skill[]): void;
  /** Resolves when every sync and background fill started so far is done. */
  ready(): Promise<void>;
}
