import MiniSearch from "minisearch";
import winkBm25 from "wink-bm25-text-search";
import { readSkillContent } from "../../packages/core/src/lazy-content.js";
import { createSkillIndex } from "../../packages/core/src/search/skill-index.js";
import type { FieldWeights } from "../../packages/core/src/search/search-options.js";
import type { Skill } from "../../packages/core/src/skill.js";

/** One ranked answer: skill names best first with their scores (no cut-off applied). */
export interface Ranked {
  name: string;
  score: number;
  /** skillctx only: every requested word it matched is in text the skill keeps in passing (body, references). */
  inPassingOnly?: boolean;
}

/** A ranking under evaluation, over one set's skills. */
export interface Searcher {
  label: string;
  /** Builds the index (timed as "build"). */
  build(skills: readonly Skill[]): Promise<void>;
  /** Up to 10 results, best first, no cut-off; `weights` only for skillctx. */
  search(query: string, weights?: Partial<FieldWeights>): Promise<Ranked[]>;
}

async function plainFields(skill: Skill): Promise<{ name: string; description: string; body: string }> {
  const body = await readSkillContent(skill).catch(() => "");
  return { name: skill.name, description: skill.description ?? "", body };
}

/** The floor: MiniSearch as it ships (its tokenizer, BM25 defaults, equal weights) over name, description, body. */
export function miniSearchFloor(): Searcher {
  let engine: MiniSearch | undefined;
  return {
    label: "floor: MiniSearch (name, description, body)",
    async build(skills) {
      engine = new MiniSearch({ fields: ["name", "description", "body"], idField: "name" });
      const seen = new Set<string>();
      for (const skill of skills) {
        if (seen.has(skill.name)) continue;
        seen.add(skill.name);
        engine.add(await plainFields(skill));
      }
    },
    async search(query) {
      return engine!
        .search(query)
        .slice(0, 10)
        .map((r) => ({ name: String(r.id), score: r.score }));
    },
  };
}

/** The floor again: wink-bm25-text-search (lower-cased words, no stemming, equal weights) over name, description, body. */
export function winkFloor(): Searcher {
  let engine: ReturnType<typeof winkBm25> | undefined;
  let names: string[] = [];
  const prep = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return {
    label: "floor: wink-bm25 (name, description, body)",
    async build(skills) {
      engine = winkBm25();
      engine.defineConfig({ fldWeights: { name: 1, description: 1, body: 1 }, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
      engine.definePrepTasks([prep]);
      names = [];
      for (const skill of skills) {
        if (names.includes(skill.name)) continue;
        engine.addDoc(await plainFields(skill), names.length);
        names.push(skill.name);
      }
      engine.consolidate();
    },
    async search(query) {
      if (prep(query).length === 0) return [];
      try {
        return (engine!.search(query, 10) as [number, number][]).map(([id, score]) => ({ name: names[id]!, score }));
      } catch {
        return [];
      }
    },
  };
}

/** skillctx's index, ranking only (no cut-off); weights per search for the leave-one-out choice. */
export function skillctxSearcher(): Searcher {
  // confidentScore 0: `confidence` then says only whether the skill says a requested word of itself.
  const index = createSkillIndex({ minScore: 0, confidentScore: 0 });
  let list: readonly Skill[] = [];
  return {
    label: "skillctx",
    async build(skills) {
      list = skills;
      await index.search(list, "warm up the index");
    },
    async search(query, weights) {
      const found = await index.search(list, query, { minScore: 0, limit: 10, weights });
      return found.map((m) => ({ name: m.name, score: m.score, inPassingOnly: m.confidence === "low" }));
    },
  };
}
