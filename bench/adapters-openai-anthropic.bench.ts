/**
 * Issue 12: the per-step cost of the OpenAI (Chat Completions, Responses) and Anthropic adapters against
 * `buildContext` alone, at 200 and 2,000 messages of history. Each step appends one 2 KB user message to
 * a tool-using conversation, then: the baseline runs `buildContext` on skillctx messages; each adapter
 * runs `from*` on its own history, `buildContext`, and its request builder (breakpoints included for
 * Anthropic). Target: within 1.5× of `buildContext`, and flat in history length (the adapters convert
 * only what is new: the converted prefix is reused by position).
 *
 * Run: `pnpm vitest bench --run bench/adapters-openai-anthropic.bench.ts`
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bench, describe } from "vitest";
import type { SkillInit } from "@skillctx/core";
import { AgentContext } from "skillctx";
import type { Message } from "skillctx";
import { fromOpenAIInput, fromOpenAIMessages, toOpenAIChatRequest, toOpenAIResponsesRequest } from "skillctx/openai";
import type { OpenAIChatMessage, OpenAIResponsesItem } from "skillctx/openai";
import { fromAnthropicMessages, toAnthropicRequest } from "skillctx/anthropic";

type AnthropicMessage = Parameters<typeof fromAnthropicMessages>[0][number];

const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-bench-adapters-"));
const inline = { kind: "inline", format: "inline", scope: "programmatic" } as const;
// 200 keyword skills and a path rule: a step scans the new message as a real one would.
const skills: SkillInit[] = [
  ...Array.from(
    { length: 200 },
    (_, i): SkillInit => ({
      name: `skill-${i}`,
      description: `Generated skill ${i}`,
      content: `Body of skill ${i}.`,
      source: inline,
      trigger: { type: "keyword", keywords: [`kwd${i}alpha`, `kwd${i}beta`] },
    }),
  ),
  {
    name: "db-rules",
    description: "Database rules",
    content: "Schema changes need a migration.",
    source: inline,
    trigger: { type: "path", globs: ["src/db/**"] },
  },
];
const tools = [
  {
    name: "Read",
    description: "Read a file",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    execute: () => "text",
  },
];

let seed = 11;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po"];
const prose = (bytes: number) => {
  let text = "";
  while (text.length < bytes)
    text += `${Array.from({ length: 3 }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join("")} `;
  return text.slice(0, bytes);
};
const pool = Array.from({ length: 1_000 }, () => prose(2048));
let next = 0;
const newText = () => pool[next++ % pool.length]!;

// One exchange of a tool-using conversation is three messages: a user turn, a tool call, its result.
const exchanges = (messages: number) => Math.ceil(messages / 3);

function chatHistory(messages: number): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = [];
  for (let i = 0; i < exchanges(messages); i++) {
    out.push({ role: "user", content: prose(600) });
    out.push({
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: `c${i}`,
          type: "function",
          function: { name: "Read", arguments: JSON.stringify({ path: `src/db/f${i}.ts` }) },
        },
      ],
    });
    out.push({ role: "tool", tool_call_id: `c${i}`, content: prose(1000) });
  }
  return out.slice(0, messages);
}

function responsesHistory(messages: number): OpenAIResponsesItem[] {
  const out: OpenAIResponsesItem[] = [];
  for (let i = 0; i < exchanges(messages); i++) {
    out.push({ role: "user", content: prose(600) });
    out.push({
      type: "function_call",
      call_id: `c${i}`,
      name: "Read",
      arguments: JSON.stringify({ path: `src/db/f${i}.ts` }),
    });
    out.push({ type: "function_call_output", call_id: `c${i}`, output: prose(1000) });
  }
  return out.slice(0, messages);
}

function anthropicHistory(messages: number): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (let i = 0; i < exchanges(messages); i++) {
    out.push({ role: "user", content: prose(600) });
    out.push({
      role: "assistant",
      content: [{ type: "tool_use", id: `c${i}`, name: "Read", input: { path: `src/db/f${i}.ts` } }],
    });
    out.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `c${i}`, content: prose(1000) }] });
  }
  return out.slice(0, messages);
}

const context = () =>
  AgentContext.create({
    cwd,
    skills,
    guidance: false,
    systemPrompt: "You are a coding agent.",
    tools: { host: tools },
  });

/** One conversation per bench, already stepped once at its full length. */
async function prepared<H>(
  history: H[],
  step: (ctx: AgentContext, history: H[]) => Promise<unknown>,
): Promise<{ ctx: AgentContext; history: H[] }> {
  const ctx = await context();
  await step(ctx, history);
  return { ctx, history };
}

const baselineStep = (ctx: AgentContext, history: Message[]) => ctx.buildContext(history);
const chatStep = async (ctx: AgentContext, history: OpenAIChatMessage[]) =>
  toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages(history)));
const responsesStep = async (ctx: AgentContext, history: OpenAIResponsesItem[]) =>
  toOpenAIResponsesRequest(await ctx.buildContext(fromOpenAIInput(history)));
const anthropicStep = async (ctx: AgentContext, history: AnthropicMessage[]) =>
  toAnthropicRequest(await ctx.buildContext(fromAnthropicMessages(history)));

const STEPS = { iterations: 300, time: 0, warmupIterations: 20, warmupTime: 0 };

// Means of a few hundred steps are dominated by garbage-collection pauses; the printed figures are the
// medians of 400 steps on fresh conversations, each variant measured in turn after a warm-up.
async function medianMicros<H>(
  history: H[],
  step: (ctx: AgentContext, history: H[]) => Promise<unknown>,
  append: (history: H[]) => void,
): Promise<number> {
  const { ctx } = await prepared(history, step);
  const times: number[] = [];
  for (let i = 0; i < 450; i++) {
    append(history);
    const started = performance.now();
    await step(ctx, history);
    if (i >= 50) times.push(performance.now() - started);
  }
  await ctx.close();
  times.sort((a, b) => a - b);
  return times[times.length >> 1]! * 1000;
}
for (const length of [200, 2_000]) {
  const base = await medianMicros(fromOpenAIMessages(chatHistory(length)), baselineStep, (h) =>
    h.push({ role: "user", content: newText() }),
  );
  const chat = await medianMicros(chatHistory(length), chatStep, (h) => h.push({ role: "user", content: newText() }));
  const responses = await medianMicros(responsesHistory(length), responsesStep, (h) =>
    h.push({ role: "user", content: newText() }),
  );
  const anthropic = await medianMicros(anthropicHistory(length), anthropicStep, (h) =>
    h.push({ role: "user", content: newText() }),
  );
  const ratio = (x: number) => `${x.toFixed(1)} µs (${(x / base).toFixed(2)}×)`;
  console.log(
    `[adapters-openai-anthropic] ${length.toLocaleString("en")} messages, median step: buildContext ${base.toFixed(1)} µs; ` +
      `chat ${ratio(chat)}; responses ${ratio(responses)}; anthropic ${ratio(anthropic)}`,
  );
}

for (const length of [200, 2_000]) {
  const baseline = await prepared(fromOpenAIMessages(chatHistory(length)), baselineStep);
  const chat = await prepared(chatHistory(length), chatStep);
  const responses = await prepared(responsesHistory(length), responsesStep);
  const anthropic = await prepared(anthropicHistory(length), anthropicStep);

  describe(`one step after appending a 2 KB user message, ${length.toLocaleString("en")} messages of history`, () => {
    bench(
      "buildContext alone (skillctx messages)",
      async () => {
        baseline.history.push({ role: "user", content: newText() });
        await baselineStep(baseline.ctx, baseline.history);
      },
      STEPS,
    );
    bench(
      "OpenAI chat: fromOpenAIMessages + buildContext + toOpenAIChatRequest",
      async () => {
        chat.history.push({ role: "user", content: newText() });
        await chatStep(chat.ctx, chat.history);
      },
      STEPS,
    );
    bench(
      "OpenAI responses: fromOpenAIInput + buildContext + toOpenAIResponsesRequest",
      async () => {
        responses.history.push({ role: "user", content: newText() });
        await responsesStep(responses.ctx, responses.history);
      },
      STEPS,
    );
    bench(
      "Anthropic: fromAnthropicMessages + buildContext + toAnthropicRequest",
      async () => {
        anthropic.history.push({ role: "user", content: newText() });
        await anthropicStep(anthropic.ctx, anthropic.history);
      },
      STEPS,
    );
  });
}
