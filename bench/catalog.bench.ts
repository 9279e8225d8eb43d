/**
 * Catalog cost (issue 7): rendering for 1,000 and 10,000 skills, and token counting at 1,000 skills
 * with and without a budget. Descriptions are the real ones of ../shared/corpus (246 skills, median
 * 322 characters), cycled under unique names.
 *
 * Run: `pnpm vitest bench --run bench/catalog.bench.ts`
 */
import { buildCatalog, countTokens, renderCatalog } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import { bench, describe } from "vitest";
import { corpusDescriptions } from "./bench-data.js";

const descriptions = corpusDescriptions();

const makeSkills = (count: number, salt = ""): Skill[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `skill-${String(i).padStart(5, "0")}`,
    description: `${salt}${descriptions[i % descriptions.length]!}`,
    content: "",
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: i % 10 === 0 ? { type: "keyword", keywords: [`kw${i}`] } : { type: "on-demand" },
    metadata: {},
  }));

const skills1k = makeSkills(1000);
const skills10k = makeSkills(10_000);
// Fresh descriptions for each cold run, so no memoized piece count can be reused.
let coldRun = 0;
const coldSets = Array.from({ length: 40 }, (_, run) => makeSkills(1000, `(v${run}) `));

const full = buildCatalog(skills1k);
const fullTokens = full.tokens;
const budgets = [Math.floor(fullTokens * 0.75), Math.floor(fullTokens * 0.3), 8000, 2000];
console.log(
  `[catalog] 1,000 skills, no budget: ${full.text.length} chars, ${fullTokens} tokens (o200k_base), countTokens(text) = ${countTokens(full.text)}`,
);
for (const budgetTokens of budgets) {
  const result = buildCatalog(skills1k, { budgetTokens });
  console.log(
    `[catalog] 1,000 skills, budget ${budgetTokens}: level ${result.level}, ${result.tokens} tokens, ` +
      `${result.included.length} listed, ${result.omitted.length} omitted (countTokens(text) = ${countTokens(result.text)})`,
  );
}
console.log(`[catalog] 10,000 skills, no budget: ${buildCatalog(skills10k).tokens} tokens`);

describe("render the catalog text (no budget)", () => {
  bench("1,000 skills, xml", () => {
    renderCatalog(skills1k);
  });
  bench("1,000 skills, markdown", () => {
    renderCatalog(skills1k, { format: "markdown" });
  });
  bench("10,000 skills, xml", () => {
    renderCatalog(skills10k);
  });
});

describe("catalog with its token count, 1,000 skills", () => {
  bench("no budget, tokens read (piece counts memoized)", () => {
    void buildCatalog(skills1k).tokens;
  });
  bench(`budget ${budgets[1]} → short descriptions (memoized)`, () => {
    buildCatalog(skills1k, { budgetTokens: budgets[1]! });
  });
  bench("budget 2000 → partial (memoized)", () => {
    buildCatalog(skills1k, { budgetTokens: 2000 });
  });
  bench(
    `budget ${budgets[1]}, cold: every description new`,
    () => {
      buildCatalog(coldSets[coldRun++ % coldSets.length]!, { budgetTokens: budgets[1]! });
    },
    { time: 0, iterations: 30, warmupTime: 0, warmupIterations: 0 },
  );
  bench(
    "countTokens(full text) alone, for comparison",
    () => {
      countTokens(full.text);
    },
    { time: 1000 },
  );
});
