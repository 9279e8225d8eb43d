// One scan of a folder of skills in a fresh Node process; prints a JSON line with the figures.
// Usage: node --expose-gc bench/scan-fresh.mjs DIR [--baseline | --read-bodies]
//   (default)      @skillctx/core's built loadSkills (packages/core/dist), metadata only
//   --baseline     the naive loader: recursive readdir + readFileSync of every SKILL.md + gray-matter
//   --read-bodies  loadSkills, then the heap again after reading every skill's content
import { createRequire } from "node:module";
import { naiveSync } from "./naive-loader.mjs";

const started = performance.now();
const [dir, mode] = process.argv.slice(2);
if (dir === undefined) throw new Error("usage: scan-fresh.mjs DIR [--baseline | --read-bodies]");

const heapMB = () => {
  globalThis.gc?.();
  return Math.round((process.memoryUsage().heapUsed / 1024 / 1024) * 10) / 10;
};

let count;
let keep;
if (mode === "--baseline") {
  const skills = naiveSync(createRequire(import.meta.url)("gray-matter"), dir);
  count = skills.length;
  keep = skills;
} else {
  const { loadSkills } = await import("../packages/core/dist/index.js");
  const result = await loadSkills([dir]);
  count = result.skills.length;
  keep = result;
}
const ms = performance.now() - started;
const cpu = process.cpuUsage();
const report = { count, ms: Math.round(ms), cpuMs: Math.round((cpu.user + cpu.system) / 1000), heapMB: heapMB() };
if (mode === "--read-bodies") {
  let bytes = 0;
  for (const skill of keep.skills) bytes += skill.content.length;
  report.bodyMB = Math.round((bytes / 1024 / 1024) * 10) / 10;
  report.heapWithBodiesMB = heapMB();
}
process.stdout.write(`${JSON.stringify(report)}\n`);
