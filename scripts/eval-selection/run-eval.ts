/**
 * `pnpm eval:selection`: the labelled requests of eval/selection over the real-skill corpus (or the
 * fixture set of a fresh clone), through today's search, a plain BM25 baseline, the same BM25 library
 * with every field, and the shipped index with and without a fused embedder. Prints recall@1, recall@5,
 * MRR, body-only recall@5, the share of no-skill requests that return nothing, suggestion precision,
 * median query time and index build time. `--sweep` prints the cut-off table used to calibrate "none".
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseJson } from "../../packages/core/src/json/parse-json.js";
import { readSkillContent } from "../../packages/core/src/lazy-content.js";
import { loadSkills } from "../../packages/core/src/load-skills.js";
import { skillDocument } from "../../packages/core/src/search/skill-document.js";
import {
  DEFAULT_FIELD_WEIGHTS,
  DEFAULT_MIN_SEARCH_SCORE,
  DEFAULT_SUGGEST_SCORE,
} from "../../packages/core/src/search/skill-index.js";
import { hashingEmbedTexts } from "./hashing-embedder.js";
import { cutOff, figures } from "./metrics.js";
import type { Answers, Figures, Labelled } from "./metrics.js";
import { indexSearcher, previousSearcher, winkSearcher } from "./searchers.js";
import type { Searcher } from "./searchers.js";

const root = process.argv[2]!;
const flags = new Set(process.argv.slice(3));
const corpus = process.env["SKILLCTX_CORPUS"] ?? path.resolve(root, "../shared/corpus");
const useCorpus = existsSync(corpus) && !flags.has("--fixture");
const dataDir = path.join(root, "eval/selection");
const skillsDir = useCorpus ? corpus : path.join(dataDir, "fixture/skills");
const queriesFile = path.join(dataDir, useCorpus ? "queries.jsonl" : "fixture/queries.jsonl");

const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(7);
const loaded = await loadSkills([skillsDir]);
// SKILL.md skills only: the collections' README and LICENSE files are not skills.
const skills = loaded.skills.filter((skill) => skill.source.format === "skill-md");
const readStart = performance.now();
await Promise.all(skills.map((skill) => readSkillContent(skill).catch(() => "")));
const readMs = performance.now() - readStart;
const docs = await Promise.all(skills.map((skill) => skillDocument(skill)));
const queries = readFileSync(queriesFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => parseJson(line) as Labelled);
const missing = queries.filter((q) => q.expect !== null && !skills.some((s) => s.name === q.expect));
if (missing.length > 0) throw new Error(`labels name skills not loaded: ${missing.map((q) => q.expect).join(", ")}`);

const searchers: Searcher[] = [
  previousSearcher(),
  winkSearcher("plain BM25 (wink; name, description, body)", { name: 1, description: 1, body: 1 }),
  winkSearcher("wink-bm25, all fields and weights", { ...DEFAULT_FIELD_WEIGHTS }),
  indexSearcher("new index (skillctx)"),
  indexSearcher("new index + hashing embedder (RRF)", { embed: hashingEmbedTexts }),
];

console.log(
  `selection eval: ${skills.length} skills from ${useCorpus ? "the corpus" : "the fixture set"} (${path.relative(root, skillsDir) || skillsDir}), ` +
    `${queries.length} labelled requests; bodies read in ${readMs.toFixed(1)} ms`,
);
const splits = flags.has("--all") ? (["tune", "held-out"] as const) : (["held-out"] as const);
const rows: { label: string; split: string; f: Figures; buildMs: number }[] = [];
for (const searcher of searchers) {
  const buildStart = performance.now();
  await searcher.build(skills, docs);
  const buildMs = performance.now() - buildStart;
  const raw: Answers = { results: [], timesMs: [] };
  const shipped: Answers = { results: [], timesMs: [] };
  for (const q of queries) {
    raw.results.push(await searcher.search(q.query, false));
    const start = performance.now();
    shipped.results.push(await searcher.search(q.query, true));
    shipped.timesMs.push(performance.now() - start);
  }
  for (const split of splits) {
    const pick = (a: Answers): Answers => ({
      results: a.results.filter((_, i) => queries[i]!.split === split),
      timesMs: a.timesMs.filter((_, i) => queries[i]!.split === split),
    });
    const set = queries.filter((q) => q.split === split);
    const isIndex = searcher.label.startsWith("new index");
    rows.push({
      label: searcher.label,
      split,
      f: figures(set, pick(shipped), isIndex ? DEFAULT_SUGGEST_SCORE : Number.NEGATIVE_INFINITY),
      buildMs,
    });
  }
  if (flags.has("--sweep") && searcher.label === "new index (skillctx)") sweep(raw);
}

console.log(
  `\n${"searcher".padEnd(44)} ${"split".padEnd(8)}   R@1     R@5    MRR  body@5  none∅  sugg.prec (n)  median ms  build ms`,
);
for (const { label, split, f, buildMs } of rows) {
  console.log(
    `${label.padEnd(44)} ${split.padEnd(8)} ${pct(f.recall1)} ${pct(f.recall5)} ${f.mrr.toFixed(3)} ${pct(f.bodyRecall5)} ${pct(f.noneEmpty)} ${pct(f.suggestPrecision)} (${String(f.suggested).padStart(3)}) ${f.medianMs.toFixed(3).padStart(9)} ${buildMs.toFixed(1).padStart(9)}`,
  );
}
console.log(
  `\ncut-offs: none below ${DEFAULT_MIN_SEARCH_SCORE}, suggestions from ${DEFAULT_SUGGEST_SCORE} (new index only; the baselines return whatever matches).`,
);

// The cut-off table on the tuning split: recall kept and no-skill requests emptied, per threshold.
function sweep(raw: Answers): void {
  const tune = queries.map((q, i) => ({ q, i })).filter((x) => x.q.split === "tune");
  const set = tune.map((x) => x.q);
  console.log("\ncut-off sweep (tuning split, new index):\n  min   R@1    R@5   none∅  sugg.prec (n)");
  for (const t of [0, 1, 1.5, 2, 2.5, 3, 3.3, 3.6, 4, 4.5, 5, 5.5, 6, 7, 8]) {
    const cut = cutOff(
      tune.map((x) => raw.results[x.i]!),
      t,
    );
    const f = figures(set, { results: cut, timesMs: [] }, t);
    console.log(
      `  ${String(t).padStart(3)} ${pct(f.recall1)} ${pct(f.recall5)} ${pct(f.noneEmpty)} ${pct(f.suggestPrecision)} (${f.suggested})`,
    );
  }
}
