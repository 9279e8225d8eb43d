import { saysItself } from "./confidence.js";
import { compareCodePoints } from "../code-point-order.js";
import { MAX_SEARCH_QUERY_CHARS } from "../limits.js";
import type { Skill } from "../skill.js";
import { headUtf16 } from "../text/cut-text.js";
import { fuseRankings, vectorRanking } from "./fusion.js";
import type { EmbedTexts } from "./fusion.js";
import { metadataDocument, SEARCH_FIELDS, skillDocument } from "./skill-document.js";
import { TermIndex } from "./term-index.js";
import type { TermMatch } from "./term-index.js";
import type { DocumentSources, SearchField, SkillDocument } from "./skill-document.js";
import { createUniqueWords, searchTerm, singular, splitWords } from "./tokenize.js";
import type { Stem } from "./tokenize.js";

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

/** A search index over skills (BM25 over an inverted index of our own, stop words, plurals folded): see {@link SkillIndex}. */
export function createSkillIndex(options: SkillIndexOptions = {}): SkillIndex {
  return new LexicalSkillIndex(options);
}

/** The terms of a request as the index sees them (stop words out, plurals folded), for display. */
export async function requestTerms(query: string): Promise<string[]> {
  const { stem } = await libraries();
  return [...queryTerms(String(query), stem).keys()];
}

// --------------------------------------------------------------------------------------------------

// Most distinct terms of one request searched: a request longer than a paragraph says no more.
const MAX_QUERY_TERMS = 64;
const RRF_DEPTH = 50;
const RUNNER_UP_SHARE = 0.25;
// How much a part of an identifier the request names whole counts (queryTerms).
const PART_BOOST = 0.3;
// BM25 parameters: k as usual; b = 1, full length normalisation (a field stuffed with words is long, and
// weighs that much less); d (BM25+'s floor for any match) 0, so that a match on a common word adds almost
// nothing and a request of common words stays below the cut-off. Chosen on eval/selection (docs/selection.md).
const BM25 = { k: 1.2, b: 1, d: 0 };

type Match = TermMatch<SearchField>;

interface Indexed {
  skill: Skill;
  doc: SkillDocument;
  /** Body and references indexed too (false: metadata only, the background fill not there yet). */
  full: boolean;
}

class LexicalSkillIndex implements SkillIndex {
  private index: TermIndex<SearchField> | undefined;
  private readonly docs = new Map<string, Indexed>();
  private synced: readonly Skill[] | undefined;
  private syncing: Promise<void> = Promise.resolve();
  private built = 0;
  private filling: Promise<void> = Promise.resolve();
  private readonly vectors = new Map<string, readonly number[]>();
  private readonly weights: FieldWeights;

  constructor(private readonly options: SkillIndexOptions) {
    this.weights = { ...DEFAULT_FIELD_WEIGHTS, ...options.weights };
  }

  stats(): { skills: number; built: number; pending: number } {
    let pending = 0;
    for (const indexed of this.docs.values()) if (!indexed.full) pending++;
    return { skills: this.docs.size, built: this.built, pending };
  }

  prepare(skills: readonly Skill[]): void {
    void this.sync(skills, undefined).catch(() => undefined);
  }

  async ready(): Promise<void> {
    await this.syncing;
    await this.filling;
  }

  async search(skills: readonly Skill[], query: string, options: SkillIndexSearchOptions = {}): Promise<SkillMatch[]> {
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    const { stem } = await libraries();
    const terms = queryTerms(query, stem);
    if (terms.size === 0 || limit === 0) return [];
    await this.sync(skills, options.signal);
    const weights = options.weights === undefined ? this.weights : { ...this.weights, ...options.weights };
    const found = this.index!.search([...terms.keys()], weights, terms);
    // A result's score is times its number of matched terms (as MiniSearch ranks): two terms matched beat one twice.
    const scale = scaleOf(found, this.docs.size);
    for (const result of found) result.score /= scale;
    const minScore = options.minScore ?? this.options.minScore ?? DEFAULT_MIN_SEARCH_SCORE;
    let ranked: Match[] = found;
    if (this.options.embed !== undefined) ranked = await this.fuse(found, query, options.signal);
    if (ranked.length === 0 || (found[0]?.score ?? 0) < minScore) return [];
    return (
      ranked
        // Once the best passes, the rest need only a share of the cut-off: the top five stay useful.
        .filter((result) => result.score >= minScore * RUNNER_UP_SHARE || this.options.embed !== undefined)
        .slice(0, limit)
        .map((result) => this.match(result, this.options.confidentScore ?? DEFAULT_CONFIDENT_SCORE))
    );
  }

  private match(result: Match, confidentScore: number): SkillMatch {
    const indexed = this.docs.get(String(result.id))!;
    const matched = Object.entries(result.match)
      .map(([term, fields]) => ({ term, fields: [...fields].sort(compareCodePoints) }))
      .sort((a, b) => compareCodePoints(a.term, b.term));
    const description = indexed.skill.description;
    return {
      name: indexed.skill.name,
      ...(description !== undefined && { description }),
      score: Math.round(result.score * 1000) / 1000,
      confidence: result.score >= confidentScore && saysItself(matched) ? "high" : "low",
      matched,
    };
  }

  // Reciprocal rank fusion of the lexical ranking and the embedding ranking; each result keeps its lexical score.
  private async fuse(found: Match[], query: string, signal: AbortSignal | undefined): Promise<Match[]> {
    const embed = this.options.embed!;
    const missing = [...this.docs.values()].filter((d) => !this.vectors.has(d.doc.digest));
    const texts = [headUtf16(String(query), MAX_SEARCH_QUERY_CHARS), ...missing.map((d) => embeddingText(d.doc))];
    const vectors = await embed(texts, { signal });
    missing.forEach((d, i) => {
      const vector = vectors[i + 1];
      if (Array.isArray(vector)) this.vectors.set(d.doc.digest, vector);
    });
    const queryVector = vectors[0];
    if (!Array.isArray(queryVector)) return found;
    const byId = new Map(found.map((r) => [String(r.id), r]));
    const semantic = vectorRanking(
      queryVector,
      [...this.docs.values()].map((d) => ({ id: d.doc.id, vector: this.vectors.get(d.doc.digest) })),
    ).slice(0, RRF_DEPTH);
    const fused = fuseRankings([found.slice(0, RRF_DEPTH).map((r) => String(r.id)), semantic]);
    return fused.map((id) => byId.get(id) ?? { id, score: 0, queryTerms: [], match: {} });
  }

  private sync(skills: readonly Skill[], signal: AbortSignal | undefined): Promise<void> {
    const next = this.syncing.then(() => this.apply(skills, signal));
    // A failed (aborted) sync leaves the index as it was; the next search syncs again.
    this.syncing = next.catch(() => undefined);
    return next;
  }

  private async apply(skills: readonly Skill[], signal: AbortSignal | undefined): Promise<void> {
    if (skills === this.synced && this.index !== undefined) return;
    const { stem } = await libraries();
    this.index ??= new TermIndex<SearchField>({
      fields: SEARCH_FIELDS,
      // Each word counts once per field: repeating a word earns nothing, and a field stuffed with many
      // words is long, which length normalisation weighs down (the defence against a skill that lists
      // every word to win every search: test/adversarial/skill-search.test.ts).
      tokenize: createUniqueWords(),
      processTerm: (word) => cachedTerm(word, stem),
      bm25: BM25,
    });
    const wanted = new Map<string, Skill>();
    for (const skill of Array.isArray(skills) ? skills : []) {
      if (typeof skill?.name === "string" && !wanted.has(skill.name)) wanted.set(skill.name, skill);
    }
    const changed = [...wanted.values()].filter((skill) => this.docs.get(skill.name)?.skill !== skill);
    if (changed.length >= BACKGROUND_FROM) {
      // Many new skills (a first search over thousands): their metadata now, a chunk at a time (the event loop
      // runs between chunks), their bodies and references in the background; until then a search ranks them by
      // what their metadata says.
      this.removeUnwanted(wanted);
      for (let i = 0; i < changed.length; i += METADATA_CHUNK) {
        if (i > 0) await nextTurn();
        signal?.throwIfAborted();
        for (const skill of changed.slice(i, i + METADATA_CHUNK)) this.put(skill, metadataDocument(skill), false);
      }
      this.synced = skills;
      this.filling = this.fill(changed);
      return;
    }
    const docs: SkillDocument[] = [];
    for (let i = 0; i < changed.length; i += BODY_CHUNK)
      docs.push(
        ...(await Promise.all(changed.slice(i, i + BODY_CHUNK).map((s) => skillDocument(s, this.options.sources)))),
      );
    signal?.throwIfAborted();
    this.removeUnwanted(wanted);
    changed.forEach((skill, i) => this.put(skill, docs[i]!, true));
    this.synced = skills;
  }

  // The bodies and references of skills indexed by their metadata, a chunk at a time, in the background.
  private async fill(skills: readonly Skill[]): Promise<void> {
    for (let i = 0; i < skills.length; i += BODY_CHUNK) {
      await nextTurn();
      const chunk = skills.slice(i, i + BODY_CHUNK).filter((skill) => this.docs.get(skill.name)?.skill === skill);
      const docs = await Promise.all(
        chunk.map((skill) => skillDocument(skill, this.options.sources).catch(() => undefined)),
      );
      chunk.forEach((skill, j) => {
        const doc = docs[j];
        // A skill replaced or removed meanwhile was indexed again by that sync.
        if (doc !== undefined && this.docs.get(skill.name)?.skill === skill) this.put(skill, doc, true);
      });
    }
  }

  private removeUnwanted(wanted: ReadonlyMap<string, Skill>): void {
    for (const [name, indexed] of this.docs) {
      if (wanted.has(name)) continue;
      this.index!.remove(name, indexed.doc);
      this.docs.delete(name);
    }
  }

  private put(skill: Skill, doc: SkillDocument, full: boolean): void {
    const before = this.docs.get(skill.name);
    if (before !== undefined && before.doc.digest === doc.digest) {
      before.skill = skill;
      before.full = full;
      return;
    }
    if (before !== undefined) this.index!.remove(skill.name, before.doc);
    this.index!.add(skill.name, doc);
    this.built++;
    this.docs.set(skill.name, { skill, doc, full });
  }
}

// From this many new skills in one sync, a search does not wait for their bodies (a first search at 20,000
// skills reads 20,000 files): metadata first, the rest in the background. Chunks keep each turn of the event
// loop short (about 10 ms of indexing).
const BACKGROUND_FROM = 2_000;
const METADATA_CHUNK = 500;
const BODY_CHUNK = 64;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// Stemming every word of every body is most of the build: a skill set's vocabulary is small, so each word
// is processed once (bounded: the cache is dropped when full).
const termCache = new Map<string, string | null>();
const MAX_CACHED_TERMS = 200_000;

function cachedTerm(word: string, stem: Stem): string | null {
  let term = termCache.get(word);
  if (term === undefined) {
    if (termCache.size >= MAX_CACHED_TERMS) termCache.clear();
    term = searchTerm(word, stem) ?? null;
    termCache.set(word, term);
  }
  return term;
}

// What a score is divided by: the request's words that some skill uses (a word no skill uses says nothing
// about which skill fits, and a request is not worse for it), and the IDF of a word only one skill uses
// (BM25's largest: ln(1 + (N - 0.5) / 1.5)), so that a score means the same at 10 skills and at 10,000.
function scaleOf(found: readonly Match[], skills: number): number {
  const known = new Set<string>();
  for (const result of found) for (const term of result.queryTerms) known.add(term);
  return Math.max(1, known.size) * Math.log(1 + Math.max(1, skills - 0.5) / 1.5);
}

// The terms of a request, each with its weight: 1, or PART_BOOST for the parts of a camel-case identifier the
// request names whole ("OrderRepo" → orderrepo 1, order and repo PART_BOOST), so that a skill that has the
// identifier outranks one that has only its parts ("…-github-repos").
function queryTerms(query: string, stem: Stem): Map<string, number> {
  const terms = new Map<string, number>();
  const add = (word: string, boost: number) => {
    const term = searchTerm(word, stem);
    if (term !== undefined && (terms.get(term) ?? 0) < boost) terms.set(term, boost);
  };
  const text = headUtf16(typeof query === "string" ? query : "", MAX_SEARCH_QUERY_CHARS);
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

// What a skill's vector is made of: what it is for, not its whole body.
function embeddingText(doc: SkillDocument): string {
  return [doc.name, doc.description, doc.whenToUse, doc.keywords, doc.headings].filter((t) => t !== "").join("\n");
}

/** What the index folds words with: {@link singular}, our own (no stemming library to load). */
export interface Libraries {
  stem: Stem;
}

const LIBRARIES: Promise<Libraries> = Promise.resolve({ stem: singular });

export function libraries(): Promise<Libraries> {
  return LIBRARIES;
}
