/**
 * Issue 14: what the event stream and OpenTelemetry cost a step when nobody listens and no tracer
 * provider is registered (target: under 5 %).
 *
 * Baseline: the same context with its events/telemetry layer bypassed: its `ContextTelemetry` is
 * swapped for a pass-through (no step counter, no `wants` checks, no provider check, no wrappers) for
 * the baseline's samples and put back for the others, so the difference is exactly what `events/` adds
 * to `buildContext` and `callTool`. One unit of work is one step after appending a 2 KB user message
 * (200 keyword skills, none fires) plus one host tool call. The modes run interleaved on that one
 * context, their order flipping each iteration; each sample is the CPU time of 25 units; the summary
 * printed last gives medians and the median of per-iteration ratios (paired), which is the figure
 * held against the target. Set MODES=bypassed,silent to run the two that matter alone.
 *
 * For reference (not under the 5 % target): a `"*"` listener (events built, `step.usage` computed),
 * and a registered tracer provider with the SDK's in-memory exporter (spans recorded, usage computed).
 *
 * Run: pnpm bench -- bench/events.bench.ts   (or: npx vitest bench --run bench/events.bench.ts)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { context, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, bench, describe } from "vitest";
import type { SkillInit } from "@skillctx/core";
import { AgentContext } from "skillctx";
import type { Message, ToolResult } from "skillctx";
import { mulberry32 } from "./bench-data.js";

const SKILLS = 200;
const UNITS_PER_SAMPLE = 25;
const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-bench-events-"));

const random = mulberry32(11);
const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qu", "re", "ti", "da", "fu"];
const word = (n: number) =>
  Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("");

const skills: SkillInit[] = Array.from({ length: SKILLS }, (_, i) => ({
  name: `skill-${i}`,
  description: `Generated skill ${i}: does thing ${i}.`,
  content: `Body of skill ${i}.`,
  source: { kind: "inline", format: "inline", scope: "programmatic" },
  trigger: { type: "keyword", keywords: Array.from({ length: 5 }, () => word(4)) },
}));
// 3-syllable words never equal a 4-syllable keyword: nothing fires.
function userText(): string {
  let text = "";
  while (text.length < 2048) text += `${word(3)} `;
  return text.slice(0, 2048);
}
const pool: Message[] = Array.from({ length: 500 }, () => ({ role: "user", content: userText() }));
const tools = [{ name: "echo", execute: (args: unknown) => JSON.stringify(args) }];

type Mode = "bypassed" | "silent" | "listener" | "otel";
interface Subject {
  ctx: AgentContext;
  history: Message[];
  next: number;
}

// The pass-through the baseline uses instead of ContextTelemetry: the engine's own work only.
const PASS_THROUGH = {
  step: (run: (notes: undefined) => Promise<unknown>) => run(undefined),
  tool: (_info: unknown, _args: unknown, run: (callId: undefined) => Promise<ToolResult>) => run(undefined),
  activated: () => {},
  unloaded: () => {},
};

// One context serves every mode (two contexts of the same skills differ by a few % on their own, which
// would hide a 5 % effect): each sample sets the mode up on it and takes it down after.
let shared: Promise<Subject> | undefined;
async function subject(): Promise<Subject> {
  shared ??= (async () => {
    const ctx = await AgentContext.create({ cwd, skills, tools: { host: tools }, guidance: false });
    const history = pool.slice(0, 200);
    await ctx.buildContext(history);
    return { ctx, history, next: 200 };
  })();
  return shared;
}

function enter(mode: Mode, s: Subject): () => void {
  const holder = s.ctx as unknown as { telemetry: unknown };
  switch (mode) {
    case "bypassed": {
      const own = holder.telemetry;
      holder.telemetry = PASS_THROUGH;
      return () => void (holder.telemetry = own);
    }
    case "silent":
      return () => {};
    case "listener":
      return s.ctx.on("*", () => {});
    case "otel":
      trace.setGlobalTracerProvider(provider);
      return () => {
        trace.disable();
        context.disable();
        exporter.reset();
      };
  }
}

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

async function unit(s: Subject): Promise<void> {
  s.history.push(pool[s.next++ % pool.length]!);
  await s.ctx.buildContext(s.history);
  await s.ctx.callTool("echo", { n: s.next });
}

const samples = new Map<Mode, number[]>();

async function sample(mode: Mode): Promise<void> {
  const s = await subject();
  // Histories are cut back now and then so every mode measures the same range of lengths.
  if (s.history.length > 400) {
    s.history = pool.slice(0, 200);
    s.next = 200;
    await s.ctx.buildContext(s.history);
  }
  const leave = enter(mode, s);
  // CPU time of this process (user + system): steadier than wall time on a machine shared with other work.
  const started = process.cpuUsage();
  for (let i = 0; i < UNITS_PER_SAMPLE; i++) await unit(s);
  const used = process.cpuUsage(started);
  const elapsed = (used.user + used.system) / 1000 / UNITS_PER_SAMPLE;
  leave();
  const list = samples.get(mode) ?? [];
  list.push(elapsed);
  samples.set(mode, list);
}

let flip = 0;
function alternate(...modes: Mode[]): () => Promise<void> {
  return async () => {
    const order = flip++ % 2 === 0 ? modes : [...modes].reverse();
    for (const mode of order) await sample(mode);
  };
}

const OPTIONS = { time: 0, iterations: 150, warmupIterations: 10, warmupTime: 0 };

describe("events + telemetry: one step (200 keyword skills, 2 KB appended) + one host tool call", () => {
  bench(
    "bypassed | silent | listener | otel (interleaved; see the summary)",
    alternate(...((process.env.MODES?.split(",") ?? ["bypassed", "silent", "listener", "otel"]) as Mode[])),
    OPTIONS,
  );
});

// The layer alone, without the engine around it: the silent context's own ContextTelemetry against the
// pass-through, each wrapping a step and a tool call that do nothing (an already-settled promise).
async function layerAlone(): Promise<{ silentNs: number; bypassedNs: number }> {
  const ctx = (await shared)!.ctx as unknown as { telemetry: typeof PASS_THROUGH };
  const done = Promise.resolve({ content: "" });
  const info = { name: "echo", kind: "host", skill: () => undefined };
  const time = async (telemetry: typeof PASS_THROUGH): Promise<number> => {
    const rounds = 200_000;
    const started = process.cpuUsage();
    for (let i = 0; i < rounds; i++) {
      await telemetry.step(() => done);
      await telemetry.tool(info, undefined, () => done);
    }
    const used = process.cpuUsage(started);
    return ((used.user + used.system) * 1000) / rounds;
  };
  const silent = ctx.telemetry;
  let silentNs = Number.POSITIVE_INFINITY;
  let bypassedNs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    silentNs = Math.min(silentNs, await time(silent));
    bypassedNs = Math.min(bypassedNs, await time(PASS_THROUGH));
  }
  return { silentNs, bypassedNs };
}

afterAll(async () => {
  const alone = await layerAlone();
  await (await shared)?.ctx.close();
  rmSync(cwd, { recursive: true, force: true });
  // The warm-up samples are dropped (JIT, tokenizer load for the listener and otel modes).
  const median = (mode: Mode): number => {
    const values = (samples.get(mode) ?? []).slice(OPTIONS.warmupIterations).sort((a, b) => a - b);
    const mid = Math.floor(values.length / 2);
    return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
  };
  const base = median("bypassed");
  // Each iteration measured every mode once, next to each other: the median of the per-iteration ratios
  // cancels the drift a busy machine adds between iterations.
  const paired = (mode: Mode): number => {
    const a = (samples.get(mode) ?? []).slice(OPTIONS.warmupIterations);
    const b = (samples.get("bypassed") ?? []).slice(OPTIONS.warmupIterations);
    const ratios = a.map((value, i) => value / b[i]!).sort((x, y) => x - y);
    const mid = Math.floor(ratios.length / 2);
    return ratios.length % 2 === 1 ? ratios[mid]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
  };
  const us = (value: number) => `${(value * 1000).toFixed(1).padStart(7)} µs`;
  const ratio = (mode: Mode) => `${(median(mode) / base).toFixed(3)}× baseline (paired: ${paired(mode).toFixed(3)}×)`;
  const silent = paired("silent");
  console.log(
    [
      "",
      `events + telemetry (CPU time per unit, medians of ${(samples.get("bypassed")?.length ?? 0) - OPTIONS.warmupIterations} samples × ${UNITS_PER_SAMPLE} units; unit = step + tool call)`,
      `  bypassed (engine only, baseline)        ${us(base)}`,
      `  no listener, no tracer provider         ${us(median("silent"))}   ${ratio("silent")}; target < 1.05× (paired): ${silent < 1.05 ? "met" : "NOT met"}`,
      `    the layer alone (best of 5 × 200,000 step + call wrappers, engine excluded): ${alone.silentNs.toFixed(0)} ns against ${alone.bypassedNs.toFixed(0)} ns ` +
        `for the pass-through; ${(alone.silentNs - alone.bypassedNs).toFixed(0)} ns more per unit = ${(((alone.silentNs - alone.bypassedNs) / 1e6 / base) * 100).toFixed(3)} % of the baseline unit`,
      `  a "*" listener (events + step.usage)    ${us(median("listener"))}   ${ratio("listener")}`,
      `  SDK registered (spans + step.usage)     ${us(median("otel"))}   ${ratio("otel")}`,
    ].join("\n"),
  );
});
