/**
 * `pnpm eval:selection`: every labelled set of eval/selection (sets.ts), leave-one-set-out. For each held-out
 * set, skillctx's tuned choices (field weights, the confidence / "none" threshold) are chosen on the other sets
 * only and reported on the held-out one, beside the plain BM25 floor (MiniSearch and wink over name,
 * description and body) in the same run. Then the shipped defaults are chosen the same way on all sets together.
 * Prints per set R@1, R@5, MRR, body-only and reference-only R@5, the share of no-skill requests answered with
 * nothing (below the threshold) and of answerable ones, median query time and index build time.
 * `--quick`: the shipped weights only (no weight grid); `--misses`: each set's requests whose expected skill is
 * not first with the shipped weights.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { readSkillContent } from "../../packages/core/src/lazy-content.js";
import {
  DEFAULT_CONFIDENT_SCORE,
  DEFAULT_FIELD_WEIGHTS,
  DEFAULT_SUGGEST_SCORE,
} from "../../packages/core/src/search/search-options.js";
import type { FieldWeights } from "../../packages/core/src/search/search-options.js";
import { explainMisses } from "./explain-misses.js";
import { figures, median } from "./metrics.js";
import type { Figures } from "./metrics.js";
import { miniSearchFloor, skillctxSearcher, winkFloor } from "./searchers.js";
import type { Ranked, Searcher } from "./searchers.js";
import { loadSets } from "./sets.js";
import type { EvalSet } from "./sets.js";

const root = process.argv[2]!;
const flags = new Set(process.argv.slice(3));
const corpus = process.env["SKILLCTX_CORPUS"] ?? path.resolve(root, "../shared/corpus");

// The choices tuned by leave-one-out: a small grid of field weights (when_to_use and keywords weigh as the
// description, file names 0.5), and the threshold under which a best score counts as "nothing".
function weightGrid(): FieldWeights[] {
  if (flags.has("--quick")) return [{ ...DEFAULT_FIELD_WEIGHTS }];
  const grid: FieldWeights[] = [];
  for (const name of [1, 1.5, 3])
    for (const description of [1, 2])
      for (const headings of [0.5, 1])
        for (const body of [1, 1.5, 2])
          for (const references of [0.3, 0.6, 1])
            grid.push({
              name,
              description,
              whenToUse: description,
              keywords: description,
              headings,
              body,
              references,
              files: 0.5,
            });
  return grid;
}
const THRESHOLDS = Array.from({ length: 41 }, (_, i) => i * 0.25);
// The most answerable requests a threshold may leave with nothing, on every set it is chosen on.
const MAX_ANSWERABLE_EMPTY = 0.03;

interface Run {
  results: Ranked[][];
  timesMs: number[];
  buildMs: number;
}

async function run(searcher: Searcher, set: EvalSet, weights?: FieldWeights): Promise<Run> {
  const start = performance.now();
  await searcher.build(set.skills);
  const buildMs = performance.now() - start;
  const results: Ranked[][] = [];
  const timesMs: number[] = [];
  for (const q of set.requests) {
    const t = performance.now();
    results.push(await searcher.search(q.request, weights));
    timesMs.push(performance.now() - t);
  }
  return { results, timesMs, buildMs };
}

const sets = await loadSets(root, corpus);
const grid = weightGrid();
console.log(`selection eval: ${sets.length} sets, ${grid.length} weight choices, node ${process.version}`);
const perSet = new Map<string, { floors: { label: string; run: Run }[]; grid: Run[]; skillctxBuildMs: number }>();
for (const set of sets) {
  const none = set.requests.filter((q) => q.expect.length === 0).length;
  console.log(
    `  ${set.name}: ${set.skills.length} skills, ${set.requests.length} requests (${none} no-skill)` +
      (set.unlabelled.length > 0
        ? `, ${set.unlabelled.length} left out (label names no loaded skill: ${set.unlabelled.slice(0, 5).join(", ")})`
        : "") +
      (set.shadowed.length > 0 ? `; not loaded, another skill has the name: ${set.shadowed.join(", ")}` : ""),
  );
  await Promise.all(set.skills.map((skill) => readSkillContent(skill).catch(() => "")));
  const floors = [];
  for (const searcher of [miniSearchFloor(), winkFloor()])
    floors.push({ label: searcher.label, run: await run(searcher, set) });
  const searcher = skillctxSearcher();
  const buildStart = performance.now();
  await searcher.build(set.skills);
  const skillctxBuildMs = performance.now() - buildStart;
  const runs: Run[] = [];
  for (const weights of grid) runs.push(await run({ ...searcher, build: async () => undefined }, set, weights));
  perSet.set(set.name, { floors, grid: runs, skillctxBuildMs });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const fig = (set: EvalSet, r: Run, threshold: number) => figures(set.requests, r.results, threshold);

// The weights with the best mean MRR over `on`, and the highest threshold that leaves at most 3 % of the
// answerable requests of every set in `on` with nothing.
function choose(on: EvalSet[]): { w: number; threshold: number } {
  let w = 0;
  let best = -1;
  grid.forEach((_, i) => {
    const score = mean(on.map((s) => fig(s, perSet.get(s.name)!.grid[i]!, 0).mrr));
    if (score > best + 1e-12) {
      best = score;
      w = i;
    }
  });
  let threshold = 0;
  for (const t of THRESHOLDS) {
    if (on.every((s) => !(fig(s, perSet.get(s.name)!.grid[w]!, t).answerableEmpty > MAX_ANSWERABLE_EMPTY)))
      threshold = t;
  }
  return { w, threshold };
}

const pct = (x: number) => (Number.isNaN(x) ? "      -" : `${(100 * x).toFixed(1)}%`.padStart(7));
const header = `${"searcher".padEnd(44)}    R@1     R@5    MRR  body@5   ref@5  none∅   ans∅  median ms  build ms`;
const line = (label: string, f: Figures, r: Run, buildMs: number) =>
  `${label.padEnd(44)} ${pct(f.recall1)} ${pct(f.recall5)} ${f.mrr.toFixed(3)} ${pct(f.bodyRecall5)} ${pct(f.referenceRecall5)} ${pct(f.noneEmpty)} ${pct(f.answerableEmpty)} ${median(r.timesMs).toFixed(3).padStart(9)} ${buildMs.toFixed(1).padStart(9)}`;
const describe = (w: FieldWeights) =>
  `name ${w.name}, description ${w.description}, headings ${w.headings}, body ${w.body}, references ${w.references}`;

console.log(
  "\nleave-one-set-out: skillctx's weights and threshold chosen on the other sets, reported on the held-out one",
);
console.log("(none∅ / ans∅: no-skill / answerable requests whose best score is under the threshold: answered with");
console.log(" nothing under a cut-off, marked low confidence when ranking always; the floors have no threshold)");
for (const held of sets) {
  const others = sets.filter((s) => s !== held);
  const data = perSet.get(held.name)!;
  console.log(`\nheld out: ${held.name}\n${header}`);
  for (const floor of data.floors)
    console.log(line(floor.label, fig(held, floor.run, 0), floor.run, floor.run.buildMs));
  if (others.length === 0) continue;
  const { w, threshold } = choose(others);
  console.log(
    line(`skillctx (threshold ${threshold})`, fig(held, data.grid[w]!, threshold), data.grid[w]!, data.skillctxBuildMs),
  );
  console.log(`  chosen on ${others.map((s) => s.name).join(" + ")}: ${describe(grid[w]!)}`);
}

const shipped = choose(sets);
console.log(
  `\nchosen on all sets together (the shipped defaults): ${describe(grid[shipped.w]!)}; threshold ${shipped.threshold}`,
);
console.log(`shipped now: ${describe(DEFAULT_FIELD_WEIGHTS)}; confidence threshold ${DEFAULT_CONFIDENT_SCORE}`);
// The shipped defaults on each set (in-sample: they were chosen on all sets), and suggestion precision: of the
// requests whose best match reaches the suggestion score, the share where it is a right skill.
const shippedIndex = grid.findIndex((w) => describe(w) === describe(DEFAULT_FIELD_WEIGHTS));
if (shippedIndex >= 0)
  for (const set of sets) {
    const r = perSet.get(set.name)!.grid[shippedIndex]!;
    const f = fig(set, r, DEFAULT_CONFIDENT_SCORE);
    const suggested = set.requests.filter((_, i) => (r.results[i]![0]?.score ?? 0) >= DEFAULT_SUGGEST_SCORE);
    const right = set.requests.filter(
      (q, i) => (r.results[i]![0]?.score ?? 0) >= DEFAULT_SUGGEST_SCORE && q.expect.includes(r.results[i]![0]!.name),
    );
    console.log(
      `  ${set.name}: R@1 ${pct(f.recall1)}, R@5 ${pct(f.recall5)}, none low ${pct(f.noneEmpty)}, answerable low ${pct(f.answerableEmpty)}, ` +
        `suggestions from ${DEFAULT_SUGGEST_SCORE}: ${pct(right.length / Math.max(1, suggested.length))} right (${suggested.length})`,
    );
  }

if (flags.has("--misses")) for (const set of sets) await explainMisses(set);
