import winkBm25 from "wink-bm25-text-search";
import { createSkillIndex, libraries } from "../../packages/core/src/search/skill-index.js";
import type { SkillIndexOptions } from "../../packages/core/src/search/skill-index.js";
import type { SkillDocument } from "../../packages/core/src/search/skill-document.js";
import { searchTerm, searchTerms, splitWords } from "../../packages/core/src/search/tokenize.js";
import type { Stem } from "../../packages/core/src/search/tokenize.js";
import type { Skill } from "../../packages/core/src/skill.js";
import { searchSkills as previousSearch } from "./previous-search.js";

/** One ranked answer: skill names best first with their scores (no cut-off applied). */
export interface Ranked {
  name: string;
  score: number;
}

/** A ranking under evaluation. */
export interface Searcher {
  label: string;
  /** Builds the index (timed as "build"). */
  build(skills: readonly Skill[], docs: readonly SkillDocument[]): Promise<void>;
  /** Up to 10 results, best first, with no cut-off unless `final` (the shipped behaviour, cut-off included). */
  search(query: string, final: boolean): Promise<Ranked[]>;
}

/** Today's search_skills ranking: name and description, no stop words, no cut-off. */
export function previousSearcher(): Searcher {
  let list: readonly Skill[] = [];
  return {
    label: "previous search_skills",
    async build(skills) {
      list = skills;
    },
    async search(query) {
      return previousSearch(list, query, { limit: 10 });
    },
  };
}

/**
 * wink-bm25-text-search over the given fields, with the index's tokenizer (stop words, Porter stems).
 * `fields` with equal weights is the plain BM25 baseline (name, description, body).
 */
export function winkSearcher(label: string, weights: Record<string, number>): Searcher {
  let engine: ReturnType<typeof winkBm25> | undefined;
  let names: string[] = [];
  let stemmer: Stem = (word) => word;
  // Every occurrence counts (BM25's term frequency), stop words out, Porter stems: the index's own tokenizer.
  const prep = (text: string) => splitWords(text).flatMap((word) => searchTerm(word, stemmer) ?? []);
  return {
    label,
    async build(_skills, docs) {
      stemmer = (await libraries()).stem;
      engine = winkBm25();
      engine.defineConfig({ fldWeights: weights, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
      engine.definePrepTasks([prep]);
      docs.forEach((doc, i) => {
        const fields: Record<string, string> = {};
        for (const key of Object.keys(weights)) fields[key] = (doc as unknown as Record<string, string>)[key] ?? "";
        engine!.addDoc(fields, i);
      });
      engine.consolidate();
      names = docs.map((d) => d.id);
    },
    async search(query) {
      if (searchTerms(query, stemmer).length === 0) return [];
      return (engine!.search(query, 10) as [number, number][]).map(([id, score]) => ({ name: names[id]!, score }));
    },
  };
}

/** The shipped index (MiniSearch), optionally with a host embedding function fused in. */
export function indexSearcher(label: string, options: SkillIndexOptions = {}): Searcher {
  const index = createSkillIndex(options);
  let list: readonly Skill[] = [];
  return {
    label,
    async build(skills) {
      list = skills;
      await index.search(list, "warm up the index");
    },
    async search(query, final) {
      const found = await index.search(list, query, final ? {} : { minScore: 0 });
      return found.map((m) => ({ name: m.name, score: m.score }));
    },
  };
}
