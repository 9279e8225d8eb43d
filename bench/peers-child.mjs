// One loader in a fresh Node process, for the peers bench (bench/peers.bench.ts, issue 36); prints one JSON line.
// Usage: node bench/peers-child.mjs MODE SKILLS_DIR CWD [CACHE_DIR]
//   naive            fs/promises readdir + readFile of every SKILL.md + gray-matter, then a catalog
//   agents-core      @openai/agents-core's public local skill loader (localDirLazySkillSource(...).getIndex), then a catalog
//   core             @skillctx/core loadSkills + buildCatalog, no persistent cache
//   create           skillctx AgentContext.create + ctx.catalog, the persistent cache off
//   create-cached    the same with the persistent cache in CACHE_DIR (warmed by an earlier process)
//   warm             two creates in one process (persistent cache off); the second is measured
//   warm-agents-core two getIndex calls in one process; the second is measured
//   floor            what any cached start that sees every change must do, and nothing else: list SKILLS_DIR,
//                    lstat each SKILL.md, read the files in CACHE_DIR (no parsing)
//   floor-probes     the same, plus a stat of each skill's agents/openai.yaml and .mcp.json (files a start must see appear)
// Fields: count, importMs, workMs (performance.now() inside the process), workCpuMs (CPU time after the import,
// user + system), maxRssMb (process.resourceUsage().maxRSS, the whole process).
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { cpuMs, round } from "./child-clock.mjs";
import { naiveAsync, naiveCatalog } from "./naive-loader.mjs";

const [mode, dirArg, cwd, cacheDir] = process.argv.slice(2);
const dir = resolve(dirArg);
const require = createRequire(import.meta.url);
const started = performance.now();
let imported = started;
let importCpu = cpuMs();
let count = 0;
let work = started;
let workCpu = importCpu;
const mark = () => {
  imported = performance.now();
  importCpu = cpuMs();
};

if (mode === "naive") {
  const matter = require("gray-matter");
  mark();
  count = naiveCatalog(await naiveAsync(matter, dir));
} else if (mode === "agents-core" || mode === "warm-agents-core") {
  const { localDirLazySkillSource } = await import("@openai/agents-core/sandbox/local");
  mark();
  const index = () => localDirLazySkillSource({ src: dir, baseDir: dirname(dir) }).getIndex({ extraPathGrants: [] });
  if (mode === "warm-agents-core") {
    index();
    mark();
  }
  count = naiveCatalog(index());
} else if (mode === "core") {
  const { buildCatalog, createSkillCache, loadSkills } = await import("@skillctx/core");
  mark();
  const { skills } = await loadSkills([dir], { cache: createSkillCache() });
  count = buildCatalog(skills).included.length;
} else if (mode === "create" || mode === "create-cached" || mode === "warm") {
  const { AgentContext } = await import("skillctx");
  mark();
  const sources = { persistentCache: mode === "create-cached" ? { dir: cacheDir } : false };
  const create = async () => {
    const ctx = await AgentContext.create({ cwd, skills: [dir], sources });
    const n = ctx.catalog?.included.length ?? 0;
    await ctx.close();
    return n;
  };
  if (mode === "warm") {
    await create();
    mark();
  }
  count = await create();
} else if (mode === "floor" || mode === "floor-probes") {
  const { lstatSync, readdirSync, readFileSync, statSync } = await import("node:fs");
  mark();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const skillDir = `${dir}/${entry.name}`;
    if (lstatSync(`${skillDir}/SKILL.md`, { throwIfNoEntry: false }) !== undefined) count++;
    if (mode === "floor-probes") {
      statSync(`${skillDir}/agents/openai.yaml`, { throwIfNoEntry: false });
      statSync(`${skillDir}/.mcp.json`, { throwIfNoEntry: false });
    }
  }
  let names = [];
  try {
    names = readdirSync(cacheDir);
  } catch {
    // The warm-up iteration may run before the cached mode has written the cache; its sample is dropped.
  }
  for (const name of names) readFileSync(`${cacheDir}/${name}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
work = performance.now();
workCpu = cpuMs();
const report = {
  mode,
  count,
  importMs: round(imported - started),
  workMs: round(work - imported),
  workCpuMs: round(workCpu - importCpu),
  maxRssMb: round(process.resourceUsage().maxRSS / 1024),
};
process.stdout.write(`${JSON.stringify(report)}\n`);
