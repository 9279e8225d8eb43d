/**
 * skillctx against the other TypeScript skill loaders, in one run (issue 36): every figure is a ratio to
 * the naive loader (readdir + readFile + gray-matter + a catalog) and to @openai/agents-core's public
 * local skill loader (`localDirLazySkillSource(...).getIndex`, a devDependency of the bench only), each
 * loader in fresh processes on the BUILT packages (`pnpm bench` builds first), the modes alternating
 * within each iteration (order flipped every iteration) so a busy machine slows all alike.
 *
 * At 1,000 and 10,000 generated skills (~300-word bodies and a reference file each):
 * - cold: the loader's work in a fresh process after its import (skillctx: `AgentContext.create` +
 *   `ctx.catalog`, the persistent cache off; `loadSkills` + `buildCatalog` beside it);
 * - cached: `AgentContext.create` + catalog with the persistent scan cache warmed by an earlier process;
 * - warm: a second create (or getIndex) in the same process;
 * - maxRSS of each process;
 * - the floor: what any cached start that sees every change must do (list the folder, lstat each SKILL.md, read
 *   the cache file; with and without a stat of the two files a skill may add beside it), and nothing else.
 * And `skillctx list` on a 1,000-skill repository (second run: the persistent cache warm) against the
 * demo repository, whole processes.
 *
 * Work times are medians of in-process performance.now(); CPU times (user + system after the import) are
 * printed beside them, steadier on a shared machine, with the load average when the run started and ended.
 * Targets (the "Done when") are printed, never asserted. Iterations per size: PEERS_ITERATIONS (default
 * 10 at 1,000 skills and 3 at 10,000, where one iteration is about ten times as long); sizes: PEERS_SIZES
 * (default "1000,10000"). The skills are generated once into .bench-data/ (bench/generate-skills.ts) and kept.
 * Run: `pnpm bench`, or after `pnpm build` `npx vitest bench --run bench/peers.bench.ts`.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, bench, describe } from "vitest";
import { BENCH_DATA, ensureSkills } from "./generate-skills.js";
import { loadText, medianAfterWarmup } from "./samples.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CHILD = path.join(ROOT, "bench/peers-child.mjs");
const BIN = path.join(ROOT, "packages/skillctx/bin/skillctx.js");
const DEMO_REPO = path.join(ROOT, "fixtures/demo-repo");
const ITERATIONS = process.env["PEERS_ITERATIONS"] === undefined ? undefined : Number(process.env["PEERS_ITERATIONS"]);
// PEERS_SIZES=1000 runs one size (10,000 skills take about ten times as long).
// PEERS_SIZES=none runs only the `skillctx list` comparison.
const SIZES = (process.env["PEERS_SIZES"] ?? "1000,10000")
  .split(",")
  .filter((size) => size !== "none")
  .map(Number);
const iterationsAt = (size: number) => ITERATIONS ?? (size > 1_000 ? 3 : 10);
const loadAtStart = loadText();

const MODES = [
  "naive",
  "agents-core",
  "core",
  "create",
  "create-cached",
  "warm",
  "warm-agents-core",
  "floor",
  "floor-probes",
] as const;
type Mode = (typeof MODES)[number];
interface Sample {
  workMs: number;
  workCpuMs: number;
  maxRssMb: number;
  wallMs: number;
}

const scratch = mkdtempSync(path.join(tmpdir(), "skillctx-peers-"));
const cwd = path.join(scratch, "cwd");
mkdirSync(cwd);
const dirs = new Map<number, string>();
for (const size of SIZES) dirs.set(size, await ensureSkills(size));
const samples = new Map<string, Sample[]>();

function record(key: string, sample: Sample): void {
  const list = samples.get(key) ?? [];
  list.push(sample);
  samples.set(key, list);
}

function run(size: number, mode: Mode): void {
  const dir = dirs.get(size)!;
  const cacheDir = path.join(scratch, `cache-${size}`);
  const started = performance.now();
  const child = spawnSync(process.execPath, [CHILD, mode, dir, cwd, cacheDir], { encoding: "utf8", cwd: ROOT });
  const wallMs = performance.now() - started;
  if (child.status !== 0) throw new Error(`peers-child ${mode} failed: ${child.stderr}`);
  const report = JSON.parse(child.stdout) as Sample & { count: number };
  if (report.count !== size) throw new Error(`${mode}: ${report.count} skills, expected ${size}`);
  record(`${size}:${mode}`, { ...report, wallMs });
}

// The 1,000-skill repository `skillctx list` runs in: the generated skills in its .agents/skills.
const repo = path.join(BENCH_DATA, "repo-1000");
if (!existsSync(path.join(repo, ".agents/skills"))) {
  mkdirSync(path.join(repo, ".agents"), { recursive: true });
  cpSync(dirs.get(1_000) ?? (await ensureSkills(1_000)), path.join(repo, ".agents/skills"), { recursive: true });
}
// Every cache of the CLI (the scan cache, Node's compile cache under $XDG_CACHE_HOME/skillctx) in this run's folder.
const cliEnv = {
  ...process.env,
  SKILLCTX_CACHE_DIR: path.join(scratch, "cli-cache"),
  XDG_CACHE_HOME: path.join(scratch, "xdg-cache"),
  TMPDIR: scratch,
};

function list(key: "list-demo" | "list-1000", cwdOf: string, expect: RegExp): void {
  const started = performance.now();
  const child = spawnSync(process.execPath, [BIN, "list", "--cwd", cwdOf], { encoding: "utf8", env: cliEnv });
  const wallMs = performance.now() - started;
  if (child.status !== 0 || !expect.test(child.stdout)) throw new Error(`${key} failed: ${child.stderr}`);
  record(key, { workMs: 0, workCpuMs: 0, maxRssMb: 0, wallMs });
}

let flip = 0;
const optionsAt = (size: number) => ({ time: 0, iterations: iterationsAt(size), warmupIterations: 1, warmupTime: 0 });

for (const size of SIZES) {
  describe(`peers: ${size.toLocaleString("en")} skills, fresh processes`, () => {
    bench(
      MODES.join(" | "),
      () => {
        const order = flip++ % 2 === 0 ? [...MODES] : [...MODES].reverse();
        // The cached run needs a cache written by an earlier process: the warm-up iteration writes it.
        for (const mode of order) run(size, mode);
      },
      optionsAt(size),
    );
  });
}
describe("peers: skillctx list, 1,000-skill repository (second run) against the demo repository", () => {
  bench(
    "list demo | list 1,000",
    () => {
      // The count line opens with the count, then what every row shares (list-layout.ts).
      list("list-demo", DEMO_REPO, /^7 skills\b/m);
      list("list-1000", repo, /^1000 skills\b/m);
    },
    optionsAt(1_000),
  );
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  // The first sample of each (the warm-up, which also writes the caches) is dropped.
  const median = (key: string, field: keyof Sample): number =>
    medianAfterWarmup((samples.get(key) ?? []).map((s) => s[field]));
  const x = (n: number) => `${n.toFixed(2)}×`;
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  const lines = [
    "",
    `peers (${process.version}; medians of fresh processes per mode, the warm-up dropped; ratios of in-process work time, CPU-time ratios in brackets)`,
    `  at the start: ${loadAtStart}; at the end: ${loadText()}`,
  ];
  for (const size of SIZES) {
    const k = (mode: Mode) => `${size}:${mode}`;
    const ratio = (mode: Mode, base: Mode, field: keyof Sample = "workMs") =>
      median(k(mode), field) / median(k(base), field);
    const row = (label: string, mode: Mode, base: Mode = "naive") =>
      `  ${label.padEnd(44)} ${median(k(mode), "workMs").toFixed(1).padStart(8)} ms  ${x(ratio(mode, base)).padStart(7)} naive [${x(ratio(mode, base, "workCpuMs"))}]  ${x(ratio(mode, "agents-core")).padStart(7)} agents-core  maxRSS ${median(k(mode), "maxRssMb").toFixed(1)} MB`;
    lines.push(
      `${size.toLocaleString("en")} skills (${iterationsAt(size)} iterations)`,
      row("naive readFile + gray-matter + catalog", "naive"),
      row("@openai/agents-core getIndex + catalog", "agents-core"),
      row("skillctx loadSkills + buildCatalog", "core"),
      row("AgentContext.create + catalog, cold", "create"),
      row("AgentContext.create + catalog, cached", "create-cached"),
      row("warm: second create in one process", "warm"),
      row("warm: second agents-core getIndex", "warm-agents-core"),
      row("floor: lstat each SKILL.md + read the cache", "floor"),
      row("floor + stat openai.yaml, .mcp.json each", "floor-probes"),
    );
    const cold = ratio("create", "naive");
    const cached = ratio("create-cached", "naive");
    const warm = ratio("warm", "naive");
    if (size === 1_000) {
      lines.push(
        `  targets: cold ≤ 0.15× and below agents-core: ${verdict(cold <= 0.15 && median(k("create"), "workMs") < median(k("agents-core"), "workMs"))}; ` +
          `cached ≤ 0.08×: ${verdict(cached <= 0.08)}; warm ≤ 0.12× and below agents-core's warm: ${verdict(warm <= 0.12 && median(k("warm"), "workMs") < median(k("warm-agents-core"), "workMs"))}`,
      );
    } else {
      lines.push(`  targets: cold ≤ 0.15×: ${verdict(cold <= 0.15)}; cached ≤ 0.06×: ${verdict(cached <= 0.06)}`);
    }
    const rss = MODES.filter((m) => m !== "warm" && m !== "warm-agents-core" && !m.startsWith("floor")).map(
      (m) => [m, median(k(m), "maxRssMb")] as const,
    );
    const lowest = rss.reduce((a, b) => (b[1] < a[1] ? b : a));
    lines.push(
      `  lowest maxRSS: ${lowest[0]} (${lowest[1].toFixed(1)} MB); skillctx lowest: ${verdict(lowest[0] !== "naive" && lowest[0] !== "agents-core")}`,
    );
  }
  const listRatio = median("list-1000", "wallMs") / median("list-demo", "wallMs");
  lines.push(
    `skillctx list (whole processes): demo ${median("list-demo", "wallMs").toFixed(1)} ms, 1,000-skill repository ${median("list-1000", "wallMs").toFixed(1)} ms: ${x(listRatio)}; target ≤ 1.3×: ${verdict(listRatio <= 1.3)}`,
  );
  console.log(lines.join("\n"));
});
