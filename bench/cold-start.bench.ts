/**
 * Cold start (issue 11): what an agent or a CLI pays in a fresh Node process, against a naive loader
 * measured in the same run. Every sample spawns `node bench/cold-start-child.mjs MODE` on the BUILT
 * packages (`pnpm bench` builds first) and takes the wall time of the whole child; baseline and subject
 * alternate within each iteration (the order flips every iteration), so a busy machine slows both alike.
 *
 * - import: `import("skillctx")` against the naive loader's import (gray-matter); `node -e` with nothing
 *   imported is measured too, so the wall times can be read as "start-up + import".
 * - import + scan + catalog over 1,000 generated skills (empty cache): `AgentContext.create` + `ctx.catalog`
 *   against the naive loader (fs/promises readdir + readFile of every SKILL.md + gray-matter + a catalog).
 *   Target: at most 0.6× of the naive loader.
 * - empty-cache scan: `loadSkills` with a new cache against the naive loader written with readdirSync +
 *   readFileSync, the time of the scan alone inside each process (imports excluded). Target: below 1×.
 *
 * - the CLI and a bare import against `node -e 0` (issues 27 and 32), each a whole fresh process: `skillctx --help`
 *   (target ≤ 1.4×), `skillctx list` on fixtures/demo-repo, the README's demo repository (≤ 3×; Node's compile
 *   cache, which the bin turns on, in a folder of this run, written by the first, dropped sample; the same
 *   without it is reported too, as what a first run pays), and
 *   `node --input-type=module -e 'await import("skillctx")'` (≤ 1.7×). These spawn node directly (no child
 *   script), so the baseline is node's own start-up. Run on the node that runs the bench (process.execPath).
 *
 * Targets are printed with the figures, never asserted (no timing assertions; a busy machine is no bug).
 * Run: `pnpm bench`, or `npx vitest bench --run bench/cold-start.bench.ts` after `pnpm build`.
 * Data: generated once into .bench-data/ (gitignored); the agent's cwd is an empty folder outside any repository.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";
import { ensureSkills } from "./generate-skills.js";
import { loadText, medianAfterWarmup } from "./samples.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = path.join(ROOT, "bench/cold-start-child.mjs");
const BUILT = ["skillctx", "core", "compat", "mcp-bridge", "render", "process"].map((pkg) =>
  path.join(ROOT, "packages", pkg, "dist/index.js"),
);

const skillsDir = await ensureSkills(1_000);
const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-cold-start-"));

/** What one child reports (cold-start-child.mjs), plus the wall time the parent measured. */
interface Sample {
  wallMs: number;
  importMs: number;
  workMs: number;
  /** CPU time of the whole child (user + system, every thread), and its part after the import. */
  cpuMs: number;
  workCpuMs: number;
  count: number;
}

type ChildMode = "empty" | "import" | "import-naive" | "full" | "naive" | "scan" | "naive-sync";
/** Processes spawned as they are, not through cold-start-child.mjs: only their wall time is measured. */
type DirectMode = "node-e" | "cli-help" | "cli-list" | "cli-list-uncached" | "import-e";
type Mode = ChildMode | DirectMode;

const BIN = path.join(ROOT, "packages/skillctx/bin/skillctx.js");
const DEMO_REPO = path.join(ROOT, "fixtures/demo-repo");
const DIRECT: Record<DirectMode, { args: string[]; expect: RegExp; env?: Record<string, string> }> = {
  "node-e": { args: ["-e", "0"], expect: /^$/ },
  "cli-help": { args: [BIN, "--help"], expect: /skillctx/ },
  // The bin turns on Node's compile cache (Node 22.1+), kept in a folder of this run (TMPDIR below): the first
  // (dropped) sample writes it, as a user's first run does.
  "cli-list": { args: [BIN, "list", "--cwd", DEMO_REPO], expect: /^7 skills\b/m },
  // What a first run pays (no compile cache; Node's own switch), reported beside the target.
  "cli-list-uncached": {
    args: [BIN, "list", "--cwd", DEMO_REPO],
    expect: /^7 skills\b/m,
    env: { NODE_DISABLE_COMPILE_CACHE: "1" },
  },
  "import-e": { args: ["--input-type=module", "-e", 'await import("skillctx")'], expect: /^$/ },
};
const EXPECTED: Record<ChildMode, number> = {
  empty: 0,
  import: 0,
  "import-naive": 0,
  full: 1_000,
  naive: 1_000,
  scan: 1_000,
  "naive-sync": 1_000,
};
const samples = new Map<Mode, Sample[]>();

function run(mode: Mode): void {
  if (mode in DIRECT) {
    runDirect(mode as DirectMode);
    return;
  }
  const missing = BUILT.find((file) => !existsSync(file));
  if (missing !== undefined) throw new Error(`${missing} is missing: run \`pnpm build\` first (pnpm bench does)`);
  const started = performance.now();
  const child = spawnSync(process.execPath, [CHILD, mode, skillsDir, cwd], {
    encoding: "utf8",
    cwd: ROOT,
    // Any cache a child keeps goes to this run's folder, never the user's.
    env: { ...process.env, SKILLCTX_CACHE_DIR: cacheHome },
  });
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`cold-start-child ${mode} failed: ${child.stderr}`);
  const report = JSON.parse(child.stdout) as {
    count: number;
    importMs: number;
    workMs: number;
    cpuMs: number;
    workCpuMs: number;
  };
  // A run that did not find every skill measured nothing.
  if (report.count !== EXPECTED[mode as ChildMode])
    throw new Error(`${mode}: found ${report.count} skills, expected ${EXPECTED[mode as ChildMode]}`);
  const list = samples.get(mode) ?? [];
  list.push({
    wallMs,
    importMs: report.importMs,
    workMs: report.workMs,
    cpuMs: report.cpuMs,
    workCpuMs: report.workCpuMs,
    count: report.count,
  });
  samples.set(mode, list);
}

const cacheHome = mkdtempSync(path.join(tmpdir(), "skillctx-cold-start-cache-"));

function runDirect(mode: DirectMode): void {
  const { args, expect, env } = DIRECT[mode];
  const started = performance.now();
  const child = spawnSync(process.execPath, args, {
    encoding: "utf8",
    cwd: ROOT,
    // The bin keeps Node's compile cache under $XDG_CACHE_HOME/skillctx, the scan cache in SKILLCTX_CACHE_DIR: both
    // in this run's folder, never the user's.
    env: { ...process.env, TMPDIR: cacheHome, XDG_CACHE_HOME: cacheHome, SKILLCTX_CACHE_DIR: cacheHome, ...env },
  });
  const wallMs = performance.now() - started;
  if (child.status !== 0 || !expect.test(child.stdout))
    throw new Error(`${mode} failed (status ${child.status}): ${child.stderr}${child.stdout.slice(-500)}`);
  const list = samples.get(mode) ?? [];
  list.push({ wallMs, importMs: 0, workMs: 0, cpuMs: 0, workCpuMs: 0, count: 0 });
  samples.set(mode, list);
}

// Each iteration runs every mode once; the order flips between iterations.
let flip = 0;
function alternate(...modes: Mode[]): () => void {
  return () => {
    const order = flip++ % 2 === 0 ? modes : [...modes].reverse();
    for (const mode of order) run(mode);
  };
}

// 20 iterations: on a shared 2-vCPU machine the median of 10 moved the full ratio by about ±0.05 between runs.
const OPTIONS = { time: 0, iterations: 20, warmupIterations: 1, warmupTime: 0 };

// One group per comparison: each bench time is the sum of its children, so vitest's own cross-bench
// summary would compare unlike things; the figures that matter are printed at the end.
describe("cold start: import (fresh node processes, built dist)", () => {
  bench("node -e 0 | gray-matter | skillctx", alternate("empty", "import-naive", "import"), OPTIONS);
});
describe("cold start: import + scan + catalog, 1,000 skills", () => {
  bench("naive loader | skillctx", alternate("naive", "full"), OPTIONS);
});
describe("cold start: the CLI and a bare import against node -e 0 (fresh processes)", () => {
  bench(
    "node -e 0 | skillctx --help | skillctx list (demo repo) | import(skillctx)",
    alternate("node-e", "cli-help", "cli-list", "cli-list-uncached", "import-e"),
    OPTIONS,
  );
});
describe("cold start: empty-cache scan, 1,000 skills", () => {
  bench("readFileSync loader | loadSkills", alternate("naive-sync", "scan"), OPTIONS);
});

afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(cacheHome, { recursive: true, force: true });
  // Warm-up iterations record samples too; the first of each mode (cold disk cache) is dropped.
  const median = (mode: Mode, field: keyof Sample): number =>
    medianAfterWarmup((samples.get(mode) ?? []).map((s) => s[field]));
  const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  const startup = median("empty", "wallMs");
  const importIn = median("import", "importMs");
  const fullRatio = median("full", "wallMs") / median("naive", "wallMs");
  const scanRatio = median("scan", "workMs") / median("naive-sync", "workMs");
  const lines = [
    "",
    `cold start (${process.version}, ${loadText()}; medians of ${(samples.get("full")?.length ?? 1) - 1} fresh processes per mode; wall = whole child process, in-process = performance.now() inside it)`,
    `  node -e 0                          wall ${ms(startup)}`,
    `  import gray-matter (naive)         wall ${ms(median("import-naive", "wallMs"))}   in-process ${ms(median("import-naive", "importMs"))}`,
    `  import("skillctx")                 wall ${ms(median("import", "wallMs"))}   in-process ${ms(importIn)}   ` +
      `${(importIn / median("import-naive", "importMs")).toFixed(2)}× gray-matter; target ≤ 80 ms: ${verdict(importIn <= 80)}`,
    `  naive: readdir + readFile + gray-matter + catalog   wall ${ms(median("naive", "wallMs"))}   (import ${ms(median("naive", "importMs"))}, scan + catalog ${ms(median("naive", "workMs"))})`,
    `  skillctx: import + create + ctx.catalog             wall ${ms(median("full", "wallMs"))}   (import ${ms(median("full", "importMs"))}, create + catalog ${ms(median("full", "workMs"))})`,
    `    ratio ${fullRatio.toFixed(2)}× the naive loader; target ≤ 0.6×: ${verdict(fullRatio <= 0.6)}`,
    `  readdirSync + readFileSync + gray-matter scan       in-process ${ms(median("naive-sync", "workMs"))}`,
    `  loadSkills, empty cache                             in-process ${ms(median("scan", "workMs"))}`,
    `    ratio ${scanRatio.toFixed(2)}× the readFileSync loader; target < 1×: ${verdict(scanRatio < 1)}`,
    "  against node -e 0 (whole processes, spawned directly):",
    `    node -e 0                                         wall ${ms(median("node-e", "wallMs"))}`,
    ...(
      [
        ["skillctx --help", "cli-help", 1.4],
        ["skillctx list (fixtures/demo-repo, 7 skills; compile cache)", "cli-list", 3],
        ["node -e 'await import(\"skillctx\")'", "import-e", 1.7],
      ] as const
    ).map(([label, mode, target]) => {
      const ratio = median(mode, "wallMs") / median("node-e", "wallMs");
      return `    ${label.padEnd(58)}wall ${ms(median(mode, "wallMs"))}   ${ratio.toFixed(2)}×; target ≤ ${target}×: ${verdict(ratio <= target)}`;
    }),
    `    ${"skillctx list, no code cache (a first run)".padEnd(58)}wall ${ms(median("cli-list-uncached", "wallMs"))}   ${(median("cli-list-uncached", "wallMs") / median("node-e", "wallMs")).toFixed(2)}×`,
    "  CPU time (user + system, all threads; steadier than wall time on a busy machine):",
    `    node -e 0 ${ms(median("empty", "cpuMs"))}; gray-matter import ${ms(median("import-naive", "cpuMs"))}; skillctx import ${ms(median("import", "cpuMs"))}`,
    `    naive loader ${ms(median("naive", "cpuMs"))}; skillctx import + create + catalog ${ms(median("full", "cpuMs"))}: ` +
      `${(median("full", "cpuMs") / median("naive", "cpuMs")).toFixed(2)}×`,
    `    readFileSync scan ${ms(median("naive-sync", "workCpuMs"))}; loadSkills ${ms(median("scan", "workCpuMs"))}: ` +
      `${(median("scan", "workCpuMs") / median("naive-sync", "workCpuMs")).toFixed(2)}×`,
  ];
  console.log(lines.join("\n"));
});
