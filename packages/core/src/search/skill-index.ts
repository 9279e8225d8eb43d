/**
 * The skill search index: BM25 with field weights over an inverted index of our own (term-index.ts), following
 * the skill list it is given (skills added, changed, gone), built in the background for large sets, optionally
 * fused with a host's embeddings. What it is asked and answers is search-options.ts.
 */
import { saysItself } from "./confidence.js";
import { compareCodePoints } from "../code-point-order.js";
import { MAX_SEARCH_QUERY_CHARS } from "../limits.js";
import type { Skill } from "../skill.js";
import { headUtf16 } from "../text/cut-text.js";
import { fuseRankings, vectorRanking } from "./fusion.js";
import { cachedTerm, queryTerms } from "./query-terms.js";
import { DEFAULT_CONFIDENT_SCORE, DEFAULT_FIELD_WEIGHTS, DEFAULT_MIN_SEARCH_SCORE } from "./search-options.js";
import type {
  FieldWeights,
  SkillIndex,
  SkillIndexOptions,
  SkillIndexSearchOptions,
  SkillMatch,
} from "./search-options.js";
import { embeddingText, metadataDocument, SEARCH_FIELDS, skillDocument } from "./skill-document.js";
import { TermIndex } from "./term-index.js";
import type { TermMatch } from "./term-index.js";
import type { SearchField, SkillDocument } from "./skill-document.js";
import { createUniqueWords } from "./tokenize.js";

/** A search index over skills (BM25 over an inverted index of our own, stop words, plurals folded): see {@link SkillIndex}. */
export function createSkillIndex(options: SkillIndexOptions = {}): SkillIndex {
  return new LexicalSkillIndex(options);
}

const RRF_DEPTH = 50;
const RUNNER_UP_SHARE = 0.25;
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
    const terms = queryTerms(query);
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
    // Stryker disable next-line ArrayDeclaration: a result's queryTerms are read for its score, which fusion has fixed at 0 here
    return fused.map((id) => byId.get(id) ?? { id, score: 0, queryTerms: [], match: {} });
  }

  private sync(skills: readonly Skill[], signal: AbortSignal | undefined): Promise<void> {
    const next = this.syncing.then(() => this.apply(skills, signal));
    // A failed (aborted) sync leaves the index as it was; the next search syncs again.
    this.syncing = next.catch(() => undefined);
    return next;
  }

  private async apply(skills: readonly Skill[], signal: AbortSignal | undefined): Promise<void> {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut; syncing the same list again finds no changed skill
    if (skills === this.synced && this.index !== undefined) return;
    this.index ??= new TermIndex<SearchField>({
      fields: SEARCH_FIELDS,
      // Each word counts once per field: repeating a word earns nothing, and a field stuffed with many
      // words is long, which length normalisation weighs down (the defence against a skill that lists
      // every word to win every search: test/adversarial/skill-search.test.ts).
      tokenize: createUniqueWords(),
      processTerm: cachedTerm,
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
      // Stryker disable next-line EqualityOperator: one more turn of the loop puts an empty chunk
      for (let i = 0; i < changed.length; i += METADATA_CHUNK) {
        // Stryker disable next-line all: when the event loop runs between chunks changes no result
        if (i > 0) await nextTurn();
        signal?.throwIfAborted();
        // Stryker disable next-line MethodExpression: putting every changed skill at each chunk puts the same documents
        for (const skill of changed.slice(i, i + METADATA_CHUNK)) this.put(skill, metadataDocument(skill), false);
      }
      this.synced = skills;
      this.filling = this.fill(changed);
      return;
    }
    const docs: SkillDocument[] = [];
    // Stryker disable next-line EqualityOperator: one more turn of the loop reads an empty chunk
    for (let i = 0; i < changed.length; i += BODY_CHUNK)
      docs.push(
        // Stryker disable next-line MethodExpression: reading every changed skill at each chunk leaves the first ones' documents in place
        ...(await Promise.all(changed.slice(i, i + BODY_CHUNK).map((s) => skillDocument(s, this.options.sources)))),
      );
    signal?.throwIfAborted();
    this.removeUnwanted(wanted);
    changed.forEach((skill, i) => this.put(skill, docs[i]!, true));
    this.synced = skills;
  }

  // The bodies and references of skills indexed by their metadata, a chunk at a time, in the background.
  private async fill(skills: readonly Skill[]): Promise<void> {
    // Stryker disable next-line EqualityOperator: one more turn of the loop fills an empty chunk
    for (let i = 0; i < skills.length; i += BODY_CHUNK) {
      await nextTurn();
      // Stryker disable next-line MethodExpression,ConditionalExpression: a wider chunk only reads more; the check below puts only current skills
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

// Stryker disable next-line BlockStatement: yielding to the event loop changes when, not what, the index holds
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

// What a score is divided by: the request's words that some skill uses (a word no skill uses says nothing
// about which skill fits, and a request is not worse for it), and the IDF of a word only one skill uses
// (BM25's largest: ln(1 + (N - 0.5) / 1.5)), so that a score means the same at 10 skills and at 10,000.
function scaleOf(found: readonly Match[], skills: number): number {
  const known = new Set<string>();
  for (const result of found) for (const term of result.queryTerms) known.add(term);
  return Math.max(1, known.size) * Math.log(1 + Math.max(1, skills - 0.5) / 1.5);
}
