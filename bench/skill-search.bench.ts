/**
 * Skill search (issue 26): building the index over 1,000 generated skills (bodies already read: the
 * "warm" build of a context whose first search comes after a scan), and one query at 1,000 and 10,000
 * skills, against today's baseline measured in the same run: the search_skills ranking before issue 26
 * (name and description re-split on every call) for queries, and the warm metadata scan of the same
 * skills for the build (the cost a context already pays before its first step).
 *
 * Issue 33: the first search at 20,000 skills whose bodies are still on disk (a fresh index: metadata first,
 * bodies and references in the background), against the metadata scan of the same skills in the same run (what a
 * context pays before its first step), and the index's memory per 1,000 skills (heap after a forced
 * collection, with and without the index of 10,000 skills).
 *
 * Run: `pnpm bench` (builds first), or `pnpm vitest bench --run bench/skill-search.bench.ts`.
 * Data: generated once into .bench-data/ (gitignored). A summary of medians and ratios is printed last.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, bench, describe } from "vitest";
import { createSkillCache, createSkillIndex, loadSkills, readSkillContent } from "@skillctx/core";
import type { Skill } from "@skillctx/core";
import { searchSkills as previousSearch } from "../scripts/eval-selection/previous-search.js";
import { ensureSkills } from "./generate-skills.js";

const dir1k = await ensureSkills(1_000);
const dir10k = await ensureSkills(10_000);
const dir20k = await ensureSkills(20_000);
const cache1k = createSkillCache();
const skills1k = (await loadSkills([dir1k], { cache: cache1k })).skills;
const skills10k = (await loadSkills([dir10k])).skills;
// Warm: every body read once (what a context has after its skills were used), so the build measures indexing.
await Promise.all(skills1k.map((skill) => readSkillContent(skill)));
await Promise.all(skills10k.map((skill) => readSkillContent(skill)));

const QUERIES = [
  "review the terraform plan before applying it",
  "the release notes for this version",
  "why are the queue retries failing in production",
  "check accessibility of the frontend",
  "tune the cache for the api",
  "book a flight to Lisbon",
];

// The index's memory: heap after a forced collection, before and after an index of 10,000 skills is complete.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const index1k = createSkillIndex({ sources: { files: false } });
await index1k.search(skills1k, "warm up");
const heapBefore = heap();
const index10k = createSkillIndex({ sources: { files: false } });
await index10k.search(skills10k, "warm up");
await index10k.ready();
const indexBytesPer1k = (heap() - heapBefore) / 10;
// Scanned, bodies not read: what a context has before its first search.
const skills20k = (await loadSkills([dir20k])).skills;

const samples = new Map<string, number[]>();
// Wall time, and CPU time of this process (`<label> cpu`): on a shared machine the CPU time moves less.
function timed(label: string, run: () => unknown): () => Promise<void> {
  return async () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await run();
    const used = process.cpuUsage(cpu);
    (samples.get(label) ?? samples.set(label, []).get(label)!).push(performance.now() - started);
    const cpuLabel = `${label} cpu`;
    (samples.get(cpuLabel) ?? samples.set(cpuLabel, []).get(cpuLabel)!).push((used.user + used.system) / 1000);
  };
}

let q = 0;
const nextQuery = () => QUERIES[q++ % QUERIES.length]!;
const SLOW = { time: 0, iterations: 8, warmupIterations: 1, warmupTime: 0 };

describe("skill index build, 1,000 skills", () => {
  bench(
    "createSkillIndex + first search, bodies in memory (1,000)",
    timed("build 1,000", () => createSkillIndex({ sources: { files: false } }).search(skills1k, "warm up")),
    SLOW,
  );
  bench(
    "createSkillIndex + first search, with file names (1,000)",
    timed("build+files 1,000", () => createSkillIndex().search(skills1k, "warm up")),
    SLOW,
  );
  bench(
    "baseline: warm metadata scan (1,000)",
    timed("scan 1,000", () => loadSkills([dir1k], { cache: cache1k })),
    SLOW,
  );
});

describe("first search, 20,000 skills", () => {
  bench(
    "createSkillIndex + first search, bodies on disk (20,000)",
    async () => {
      const index = createSkillIndex();
      await timed("first 20,000", () => index.search(skills20k, nextQuery()))();
      // The background fill (bodies, references) finishes outside the measured time.
      await index.ready();
    },
    { time: 0, iterations: 3, warmupIterations: 0, warmupTime: 0 },
  );
  bench(
    "baseline: metadata scan (20,000)",
    timed("scan 20,000", () => loadSkills([dir20k])),
    { time: 0, iterations: 3, warmupIterations: 0, warmupTime: 0 },
  );
});

describe("skill search query", () => {
  bench(
    "index query (1,000)",
    timed("query 1,000", () => index1k.search(skills1k, nextQuery())),
  );
  bench(
    "baseline: previous search_skills (1,000)",
    timed("previous 1,000", () => previousSearch(skills1k, nextQuery())),
  );
  bench(
    "index query (10,000)",
    timed("query 10,000", () => index10k.search(skills10k, nextQuery())),
  );
  bench(
    "baseline: previous search_skills (10,000)",
    timed("previous 10,000", () => previousSearch(skills10k as Skill[], nextQuery())),
    SLOW,
  );
});

afterAll(() => {
  const median = (label: string) => {
    const values = [...(samples.get(label) ?? [])].sort((a, b) => a - b);
    return values.length === 0 ? Number.NaN : values[values.length >> 1]!;
  };
  const ms = (label: string) => `${median(label).toFixed(3)} ms`;
  console.log(
    [
      "[skill-search] medians:",
      `  build 1,000 (bodies in memory): ${ms("build 1,000")} (CPU ${ms("build 1,000 cpu")}); with file names: ${ms("build+files 1,000")}; warm scan (baseline): ${ms("scan 1,000")} (build/scan ${(median("build 1,000") / median("scan 1,000")).toFixed(2)}x)`,
      `  query 1,000: ${ms("query 1,000")} (CPU ${ms("query 1,000 cpu")}) vs previous ${ms("previous 1,000")} (${(median("previous 1,000") / median("query 1,000")).toFixed(1)}x faster)`,
      `  query 10,000: ${ms("query 10,000")} (CPU ${ms("query 10,000 cpu")}) vs previous ${ms("previous 10,000")} (${(median("previous 10,000") / median("query 10,000")).toFixed(1)}x faster)`,
      `  first search 20,000 (bodies on disk, fresh index): ${ms("first 20,000")} (CPU ${ms("first 20,000 cpu")}); scan of the same 20,000 (baseline): ${ms("scan 20,000")} (first search/scan ${(median("first 20,000") / median("scan 20,000")).toFixed(2)}x)`,
      `  index memory per 1,000 skills (10,000 indexed, heap after gc): ${(indexBytesPer1k / 1024 / 1024).toFixed(2)} MiB`,
      `  node ${process.version}`,
    ].join("\n"),
  );
});
