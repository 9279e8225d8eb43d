/**
 * Guidance discovery (issue 5): `loadGuidance` on a generated git repository of 50,000 files with
 * 40 nested guidance files, against the `git ls-files` listing it is built on, alone, on the same
 * repository. Target: at most 1.5× of `git ls-files`. Before the benches, the same two calls are
 * timed alternately and their medians printed (robust against load that drifts between benches).
 *
 * Run: `pnpm vitest bench --run bench/guidance.bench.ts`
 */
import { execFile } from "node:child_process";
import { loadGuidance } from "@skillctx/compat";
import { bench, describe } from "vitest";
import { NESTED_GUIDANCE, ensureGuidanceRepo } from "./generate-guidance-repo.js";

const repo = await ensureGuidanceRepo();

// Sanity check before timing: every nested guidance file is found.
const check = await loadGuidance(repo);
const nested = check.skills.filter((s) => s.trigger.type === "path").length;
if (nested !== NESTED_GUIDANCE) throw new Error(`expected ${NESTED_GUIDANCE} nested guidance skills, found ${nested}`);

const gitLsFiles = (args: string[]) =>
  new Promise<number>((resolve, reject) => {
    execFile("git", args, { cwd: repo, maxBuffer: 256 * 1024 * 1024 }, (error, stdout) =>
      error === null ? resolve(stdout.split("\0").length) : reject(error),
    );
  });

// On a busy machine the load drifts between the two benches below (each runs all its samples in
// turn), so the ratio is also measured with the two calls alternating, and printed first.
const PAIRS = 15;
const ours: number[] = [];
const baseline: number[] = [];
for (let i = 0; i < PAIRS; i++) {
  let start = performance.now();
  await loadGuidance(repo);
  ours.push(performance.now() - start);
  start = performance.now();
  await gitLsFiles(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  baseline.push(performance.now() - start);
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
console.log(
  `interleaved medians over ${PAIRS} pairs: loadGuidance ${median(ours).toFixed(1)} ms, git ls-files ${median(baseline).toFixed(1)} ms, ` +
    `ratio ${(median(ours) / median(baseline)).toFixed(2)}× (target ≤ 1.5×)`,
);

const options = { time: 6000, warmupIterations: 3 };

describe("guidance discovery, 50,000-file git repository, 40 nested guidance files", () => {
  bench(
    "loadGuidance(repo) — discovery, reading, imports, skills",
    async () => {
      await loadGuidance(repo);
    },
    options,
  );

  bench(
    "git ls-files -z --cached --others --exclude-standard (baseline)",
    async () => {
      await gitLsFiles(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
    },
    options,
  );
});

describe("reference: reading the index only (no untracked files, no .gitignore)", () => {
  bench(
    "git ls-files -z",
    async () => {
      await gitLsFiles(["ls-files", "-z"]);
    },
    { time: 1500, warmupIterations: 3 },
  );
});
