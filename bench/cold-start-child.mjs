// One cold start in a fresh Node process; prints one JSON line with what it measured.
// Usage: node bench/cold-start-child.mjs MODE [SKILLS_DIR CWD]
//   empty         nothing (node's start-up)
//   import        import("skillctx") (the built root entry) and nothing else
//   import-naive  the naive loader's import: gray-matter
//   full          import("skillctx") + AgentContext.create over SKILLS_DIR (empty cache) + ctx.catalog
//   scan          import("@skillctx/core") + loadSkills over SKILLS_DIR with an empty cache
//   naive         the naive loader: fs/promises readdir + readFile of every SKILL.md + gray-matter, then a catalog
//   naive-sync    the same loader with readdirSync + readFileSync
// Fields: count (skills found), importMs (the import alone), workMs (scan, or scan + catalog), ms (both),
// all measured with performance.now() inside the process; cpuMs, the CPU time of the whole process (user +
// system, all threads, start-up included), and workCpuMs, its part after the import: steadier than wall
// time on a busy machine. The parent measures the wall time of the process.
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { cpuMs as cpuNow, round } from "./child-clock.mjs";
import { naiveAsync, naiveCatalog, naiveSync } from "./naive-loader.mjs";

const started = performance.now();
const [mode, dirArg = ".", cwd] = process.argv.slice(2);
const dir = resolve(dirArg);
const require = createRequire(import.meta.url);

let count = 0;
let imported = started;
let importCpuMs = cpuMs();
if (mode === "empty") {
  // Node's own start-up, for reading the other wall times.
} else if (mode === "import") {
  await import("skillctx");
  imported = performance.now();
  importCpuMs = cpuMs();
} else if (mode === "import-naive") {
  require("gray-matter");
  imported = performance.now();
  importCpuMs = cpuMs();
} else if (mode === "full") {
  const { AgentContext } = await import("skillctx");
  imported = performance.now();
  importCpuMs = cpuMs();
  // Empty cache: the persistent scan cache off (it would otherwise live in the user's cache folder).
  const ctx = await AgentContext.create({ cwd, skills: [dir], sources: { persistentCache: false } });
  const catalog = ctx.catalog;
  if (catalog.text.length === 0) throw new Error("empty catalog");
  count = catalog.included.length;
  await ctx.close();
} else if (mode === "scan") {
  const { createSkillCache, loadSkills } = await import("@skillctx/core");
  imported = performance.now();
  importCpuMs = cpuMs();
  count = (await loadSkills([dir], { cache: createSkillCache() })).skills.length;
} else if (mode === "naive" || mode === "naive-sync") {
  const matter = require("gray-matter");
  imported = performance.now();
  importCpuMs = cpuMs();
  count = naiveCatalog(mode === "naive" ? await naiveAsync(matter, dir) : naiveSync(matter, dir));
} else {
  throw new Error(`unknown mode ${mode}`);
}
const ended = performance.now();
const report = {
  mode,
  count,
  importMs: round(imported - started),
  workMs: round(ended - imported),
  ms: round(ended - started),
  cpuMs: cpuMs(),
  workCpuMs: round(cpuMs() - importCpuMs),
};
process.stdout.write(`${JSON.stringify(report)}\n`);

// CPU time of the process so far (user + system, every thread), in ms, rounded.
function cpuMs() {
  return round(cpuNow());
}
