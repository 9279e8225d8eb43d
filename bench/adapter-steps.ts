/**
 * What the adapter benchmarks share: a context with 60 skills, a conversation of tool turns in skillctx's
 * form, and a step benchmark that reports each kind's median step and its ratio to `buildContext` alone.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, bench } from "vitest";
import type { SkillInit } from "@skillctx/core";
import { AgentContext } from "skillctx";
import type { Message } from "skillctx";

const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-bench-adapters-"));
const inline = { kind: "inline", format: "inline", scope: "programmatic" } as const;
// 50 keyword skills (one fires on the first user message, so every step carries an attachment) and 10 path rules.
const skills: SkillInit[] = [
  ...Array.from(
    { length: 50 },
    (_, i): SkillInit => ({
      name: `keyword-${i}`,
      description: `Keyword skill ${i}`,
      content: `Body of keyword skill ${i}. `.repeat(20),
      source: inline,
      trigger: { type: "keyword", keywords: [`topic${i}`, `subject${i}`] },
    }),
  ),
  ...Array.from(
    { length: 10 },
    (_, i): SkillInit => ({
      name: `rule-${i}`,
      description: `Path rule ${i}`,
      content: `Rule ${i} for src/area${i}.`,
      source: inline,
      trigger: { type: "path", globs: [`src/area${i}/**`] },
    }),
  ),
];
const tools = [
  {
    name: "Read",
    description: "Read a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    execute: () => "text",
  },
];

/** A context over the 60 skills and a `Read` host tool. */
export const benchContext = (): Promise<AgentContext> =>
  AgentContext.create({ cwd, skills, tools: { host: tools }, guidance: false, systemPrompt: "Host prompt." });

/** The first user message (it fires one keyword skill) and the text of every tool result. */
export const FIRST_MESSAGE = "Please look into topic3 and summarise the notes folder.";
export const TOOL_RESULT = "A line of notes. ".repeat(30);

/** The k-th tool turn (a Read call of `notes/k.md` and its result) as skillctx messages. */
export const neutralTurn = (k: number): Message[] => [
  { role: "assistant", content: "", toolCalls: [{ id: `c${k}`, name: "Read", args: { path: `notes/${k}.md` } }] },
  { role: "tool", content: TOOL_RESULT, toolCallId: `c${k}` },
];

/** A conversation of about `length` items: `first`, then tool turns. */
export function conversation<T>(first: T, turn: (k: number) => T[], length: number): T[] {
  const out = [first];
  for (let k = 0; out.length < length; k++) out.push(...turn(k));
  return out;
}

/** Measured steps per benchmark, after 10 warm-up steps. */
export const STEPS = 300;
export const STEP_OPTIONS = { iterations: STEPS, time: 0, warmupIterations: 10, warmupTime: 0 };

/** One benchmark's session: made again before the warm-up and before the measured run (tinybench `setup`). */
export interface Session {
  step(): unknown;
}

/** A session that appends one tool turn and runs `buildContext` on skillctx messages: the baseline. */
export function buildContextSession(length: number): () => Promise<Session> {
  return async () => {
    const ctx = await benchContext();
    const messages = conversation<Message>({ role: "user", content: FIRST_MESSAGE }, neutralTurn, length);
    await ctx.buildContext(messages);
    let k = length;
    return {
      step: () => {
        messages.push(...neutralTurn(k++));
        return ctx.buildContext(messages);
      },
    };
  };
}

// Median step time of each kind's measured run, for the ratios printed at the end (the means of a few
// hundred sub-millisecond steps are dominated by the odd garbage-collection pause).
const medians = new Map<string, number>();

/**
 * One benchmark that makes a step of each session in turn (the baseline first), so that the load of a
 * shared machine weighs on every kind alike; each kind's median step, named `${kind} (${length})`, goes in
 * the report of {@link reportMedians}.
 */
export function interleavedBench(
  length: number,
  makes: ReadonlyArray<readonly [kind: string, make: () => Promise<Session>]>,
): void {
  let sessions: Session[] = [];
  let samples: number[][] = [];
  bench(
    `one step of each, in turn (${makes.map(([kind]) => kind).join(" / ")})`,
    async () => {
      for (let i = 0; i < sessions.length; i++) {
        const started = performance.now();
        await sessions[i]!.step();
        samples[i]!.push(performance.now() - started);
      }
    },
    {
      ...STEP_OPTIONS,
      setup: async () => {
        sessions = [];
        for (const [, make] of makes) sessions.push(await make());
        samples = makes.map(() => []);
      },
      teardown: (_task, mode) => {
        if (mode === "run") makes.forEach(([kind], i) => medians.set(`${kind} (${length})`, median(samples[i]!)));
      },
    },
  );
}

/** Runs each session's steps once before anything is measured, so the first group does not pay for compiling. */
export async function warmUp(makes: Array<() => Promise<Session>>): Promise<void> {
  for (const make of makes) {
    const session = await make();
    for (let i = 0; i < STEP_OPTIONS.warmupIterations + STEPS; i++) await session.step();
  }
}

/** Prints, after the file's benchmarks, each median step and its ratio to `baseline` at the same length, and 2,000 against 200. */
export function reportMedians(
  baseline: string,
  kinds: readonly string[],
  lengths: readonly number[] = [200, 2_000],
): void {
  afterAll(() => {
    const lines = ["", `[bench] median step (ms) and ratio to ${baseline} at the same length:`];
    for (const length of lengths) {
      const base = medians.get(`${baseline} (${length})`) ?? Number.NaN;
      for (const kind of [baseline, ...kinds]) {
        const value = medians.get(`${kind} (${length})`) ?? Number.NaN;
        lines.push(`  ${`${kind} (${length})`.padEnd(48)} ${value.toFixed(3)} ms  ${(value / base).toFixed(2)}×`);
      }
    }
    const [short, long] = [lengths[0]!, lengths[lengths.length - 1]!];
    for (const kind of [baseline, ...kinds]) {
      const flat = (medians.get(`${kind} (${long})`) ?? Number.NaN) / (medians.get(`${kind} (${short})`) ?? Number.NaN);
      lines.push(`  ${kind}: ${long.toLocaleString("en")} vs ${short} messages ${flat.toFixed(2)}×`);
    }
    console.log(lines.join("\n"));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
