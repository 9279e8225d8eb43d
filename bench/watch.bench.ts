/**
 * Issue 15: what `watch: true` costs a step when nothing changes. Two contexts over the same 200 skill
 * folders on disk (`.agents/skills/<name>/SKILL.md`, keyword triggers that never fire), one with
 * `watch: true` (chokidar running, `catalogUpdates: "append"`), one without. One unit of work is one
 * step after appending a 2 KB user message. The two run interleaved, their order flipping each
 * iteration; the summary printed last compares the medians of the same run (ratio watch / no watch).
 *
 * Run: npx vitest bench --run bench/watch.bench.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, bench, describe } from "vitest";
import { AgentContext } from "skillctx";
import type { Message } from "skillctx";

const SKILLS = 200;
const UNITS_PER_SAMPLE = 50;
const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-bench-watch-"));
for (let i = 0; i < SKILLS; i++) {
  const dir = path.join(cwd, ".agents/skills", `skill-${i}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "SKILL.md"),
    `---\nname: skill-${i}\ndescription: Generated skill ${i}.\nkeywords: [kwq${i}zz]\n---\nBody of skill ${i}.\n`,
  );
}
const userText = (k: number) => `message ${k} `.repeat(200).slice(0, 2048);

type Mode = "no-watch" | "watch";
const contexts = new Map<Mode, Promise<{ ctx: AgentContext; history: Message[] }>>();
const samples: Record<Mode, number[]> = { "no-watch": [], watch: [] };

function subject(mode: Mode) {
  let made = contexts.get(mode);
  if (made === undefined) {
    made = (async () => {
      const ctx = await AgentContext.create({
        cwd,
        guidance: false,
        ...(mode === "watch" && { sources: { watch: true } }),
      });
      const history: Message[] = [{ role: "user", content: userText(0) }];
      await ctx.buildContext(history);
      return { ctx, history };
    })();
    contexts.set(mode, made);
  }
  return made;
}

async function sample(mode: Mode): Promise<void> {
  const { ctx, history } = await subject(mode);
  const started = performance.now();
  for (let i = 0; i < UNITS_PER_SAMPLE; i++) {
    history.push({ role: "assistant", content: "ok" }, { role: "user", content: userText(history.length) });
    await ctx.buildContext(history);
  }
  samples[mode].push((performance.now() - started) / UNITS_PER_SAMPLE);
}

let flip = false;
async function both(): Promise<void> {
  flip = !flip;
  for (const mode of (flip ? ["watch", "no-watch"] : ["no-watch", "watch"]) as Mode[]) await sample(mode);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

describe("a step with watch: true against without (200 skills on disk, no changes)", () => {
  bench("interleaved: one step of each", both, { iterations: 100, time: 0, warmupIterations: 5, warmupTime: 0 });
});

afterAll(async () => {
  const base = median(samples["no-watch"]);
  const watched = median(samples.watch);
  console.log(
    `\nwatch.bench: max sample ${Math.max(...samples.watch).toFixed(3)} / ${Math.max(...samples["no-watch"]).toFixed(3)} ms; median step ${watched.toFixed(3)} ms with watch, ${base.toFixed(3)} ms without; ratio ${(watched / base).toFixed(3)} (${samples.watch.length} samples × ${UNITS_PER_SAMPLE} steps each)`,
  );
  for (const made of contexts.values()) await (await made).ctx.close();
  rmSync(cwd, { recursive: true, force: true });
});
