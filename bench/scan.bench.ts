/**
 * Metadata scan of generated skills: skillctx's loadSkills against a naive loader.
 *
 * Baseline (the issue's): recursive readdir + readFileSync of every SKILL.md + gray-matter on the
 * whole file. gray-matter caches results by file content when called without options, which would
 * flatter a repeated baseline; every call here passes a fresh `{}` options object, so nothing is cached.
 *
 * - warm: loadSkills with a cache filled by an earlier scan (files unchanged: one stat each);
 * - cold: loadSkills with a new, empty cache each run (every head read and parsed);
 * - fresh process: `node bench/scan-fresh.mjs` importing the BUILT packages/core/dist, wall time of
 *   the whole process (start, import, scan, exit) against the same script running the baseline.
 *
 * Run: `pnpm bench` (builds first), or `pnpm vitest bench --run bench/scan.bench.ts` after `pnpm build`.
 * Data: generated once into .bench-data/ (gitignored). A summary of medians and ratios is printed last.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import matter from "gray-matter";
import { afterAll, bench, describe } from "vitest";
import { createSkillCache, loadSkills } from "@skillctx/core";
import { ensureSkills } from "./generate-skills.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FRESH_SCRIPT = path.join(ROOT, "bench/scan-fresh.mjs");
const CORE_DIST = path.join(ROOT, "packages/core/dist/index.js");

const dir1k = await ensureSkills(1_000);
const dir10k = await ensureSkills(10_000);

/** The naive loader of the issue. Keeps what it parsed, bodies included, as such loaders do. */
export function naiveScan(root: string): { name: unknown; description: unknown; content: string }[] {
  const skills: { name: unknown; description: unknown; content: string }[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "SKILL.md") {
        const parsed = matter(readFileSync(full, "utf8"), {});
        skills.push({ name: parsed.data.name, description: parsed.data.description, content: parsed.content });
      }
    }
  };
  walk(root);
  return skills;
}

// Samples recorded by the benches themselves, for the medians in the summary.
const samples = new Map<string, number[]>();
function timed<T>(label: string, run: () => T): () => Promise<void> {
  return async () => {
    const started = performance.now();
    const result = await run();
    const took = performance.now() - started;
    check(label, result);
    (samples.get(label) ?? samples.set(label, []).get(label)!).push(took);
  };
}

// Every run must find every skill, or its time means nothing.
function check(label: string, result: unknown): void {
  const count = Array.isArray(result) ? result.length : (result as { skills: unknown[] }).skills.length;
  const expected = label.includes("10,000") ? 10_000 : 1_000;
  if (count !== expected) throw new Error(`${label}: found ${count} skills, expected ${expected}`);
}

const warm1k = createSkillCache();
const warm10k = createSkillCache();
await loadSkills([dir1k], { cache: warm1k });
await loadSkills([dir10k], { cache: warm10k });

const SLOW = { time: 0, iterations: 5, warmupIterations: 1, warmupTime: 0 };
const FRESH = { time: 0, iterations: 5, warmupIterations: 1, warmupTime: 0 };

describe("scan 1,000 skills", () => {
  bench(
    "skillctx loadSkills, warm cache (1,000)",
    timed("skillctx warm 1,000", () => loadSkills([dir1k], { cache: warm1k })),
  );
  bench(
    "skillctx loadSkills, empty cache (1,000)",
    timed("skillctx cold 1,000", () => loadSkills([dir1k], { cache: createSkillCache() })),
  );
  bench(
    "baseline readdir + readFileSync + gray-matter (1,000)",
    timed("baseline 1,000", () => naiveScan(dir1k)),
  );
});

describe("scan 10,000 skills", () => {
  bench(
    "skillctx loadSkills, warm cache (10,000)",
    timed("skillctx warm 10,000", () => loadSkills([dir10k], { cache: warm10k })),
    SLOW,
  );
  bench(
    "skillctx loadSkills, empty cache (10,000)",
    timed("skillctx cold 10,000", () => loadSkills([dir10k], { cache: createSkillCache() })),
    SLOW,
  );
  bench(
    "baseline readdir + readFileSync + gray-matter (10,000)",
    timed("baseline 10,000", () => naiveScan(dir10k)),
    SLOW,
  );
});

describe("scan 10,000 skills in a fresh node process (built dist)", () => {
  bench("node scan-fresh.mjs: skillctx (10,000)", () => fresh("skillctx fresh process 10,000", []), FRESH);
  bench("node scan-fresh.mjs --baseline (10,000)", () => fresh("baseline fresh process 10,000", ["--baseline"]), FRESH);
});

// Wall time of a whole `node` process: start, import, scan, exit.
const freshReports = new Map<string, { ms: number; cpuMs: number; heapMB: number }[]>();
function fresh(label: string, extra: string[]): void {
  if (!existsSync(CORE_DIST)) throw new Error(`${CORE_DIST} is missing: run \`pnpm build\` first (pnpm bench does)`);
  const started = performance.now();
  const run = spawnSync(process.execPath, ["--expose-gc", FRESH_SCRIPT, dir10k, ...extra], { encoding: "utf8" });
  const took = performance.now() - started;
  if (run.status !== 0) throw new Error(`${label} failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as { count: number; ms: number; cpuMs: number; heapMB: number };
  if (report.count !== 10_000) throw new Error(`${label}: found ${report.count} skills`);
  (samples.get(label) ?? samples.set(label, []).get(label)!).push(took);
  (freshReports.get(label) ?? freshReports.set(label, []).get(label)!).push(report);
}

afterAll(() => {
  const median = (label: string) => {
    const values = [...(samples.get(label) ?? [])].sort((a, b) => a - b);
    if (values.length === 0) return Number.NaN;
    const mid = Math.floor(values.length / 2);
    return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
  };
  const rows: [string, string, string][] = [
    ["skillctx warm 1,000", "baseline 1,000", "target ≤ 0.3×"],
    ["skillctx cold 1,000", "baseline 1,000", ""],
    ["skillctx warm 10,000", "baseline 10,000", ""],
    ["skillctx cold 10,000", "baseline 10,000", ""],
    ["skillctx fresh process 10,000", "baseline fresh process 10,000", "target < 1,000 ms wall"],
  ];
  const lines = ["", "scan summary (medians of the recorded runs; ratio = skillctx / baseline)"];
  for (const [ours, theirs, target] of rows) {
    const a = median(ours);
    const b = median(theirs);
    lines.push(
      `  ${ours.padEnd(30)} ${a.toFixed(1).padStart(8)} ms   ${theirs.padEnd(30)} ${b.toFixed(1).padStart(8)} ms   ${(a / b).toFixed(2)}×  ${target}`,
    );
  }
  const mid = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  for (const [label, reports] of freshReports) {
    lines.push(
      `  ${label}: median in-process ${mid(reports.map((r) => r.ms))} ms, process CPU (user+sys) ${mid(reports.map((r) => r.cpuMs))} ms, ` +
        `heap after scan + GC ${mid(reports.map((r) => r.heapMB))} MB`,
    );
  }
  // Bodies are not retained: the heap of a scan, then of the same process after reading every body.
  const bodies = spawnSync(process.execPath, ["--expose-gc", FRESH_SCRIPT, dir10k, "--read-bodies"], {
    encoding: "utf8",
  });
  if (bodies.status === 0) {
    const report = JSON.parse(bodies.stdout) as { heapMB: number; heapWithBodiesMB: number; bodyMB: number };
    lines.push(
      `  bodies: heap after scan ${report.heapMB} MB; after reading all ${report.bodyMB} MB of bodies ${report.heapWithBodiesMB} MB`,
    );
  }
  console.log(lines.join("\n"));
});
