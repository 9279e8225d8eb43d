/**
 * `pnpm eval:selection --misses`: each set's answerable requests whose right skill is not first with the shipped
 * weights, with what `skillctx search --explain` shows: the skill that ranked first and the expected one, their
 * scores, and per request word the fields it matched in and its share of the score (the word searched alone).
 */
import { createSkillIndex } from "../../packages/core/src/search/skill-index.js";
import { queryTerms } from "../../packages/core/src/search/query-terms.js";
import type { SkillMatch } from "../../packages/core/src/search/search-options.js";
import type { EvalSet } from "./sets.js";

/** Prints the misses of `set` (the shipped ranking), each with the top result and the expected skill explained. */
export async function explainMisses(set: EvalSet): Promise<void> {
  const index = createSkillIndex({ minScore: 0, confidentScore: 0 });
  const search = (query: string, limit: number) => index.search(set.skills, query, { minScore: 0, limit });
  console.log(`\nmisses in ${set.name}:`);
  for (const q of set.requests) {
    if (q.expect.length === 0) continue;
    const ranked = await search(q.request, 1_000);
    const rank = ranked.findIndex((m) => q.expect.includes(m.name));
    if (rank === 0) continue;
    console.log(`  ${q.id} [${q.answerIn}] ${q.request}`);
    console.log(`    want ${q.expect.join(" | ")} at ${rank < 0 ? "none" : rank + 1}; top 3: ${top(ranked)}`);
    // Each word alone: its score per skill, to show where the difference comes from.
    const alone = new Map<string, Map<string, number>>();
    for (const term of queryTerms(q.request).keys())
      alone.set(term, new Map((await search(term, 1_000)).map((m) => [m.name, m.score])));
    const shown = [ranked[0], rank > 0 ? ranked[rank] : undefined].filter((m) => m !== undefined);
    for (const m of shown) console.log(`    ${m.name} ${m.score.toFixed(2)}: ${words(m, alone)}`);
  }
}

const top = (ranked: readonly SkillMatch[]) =>
  ranked
    .slice(0, 3)
    .map((m) => `${m.name} ${m.score.toFixed(2)}`)
    .join(", ");

function words(m: SkillMatch, alone: ReadonlyMap<string, ReadonlyMap<string, number>>): string {
  return m.matched
    .map((w) => `${w.term}[${w.fields.join(",")}]=${(alone.get(w.term)?.get(m.name) ?? 0).toFixed(2)}`)
    .join(" ");
}
