/**
 * Issue 12: the per-step cost of the AI SDK adapter (`prepareStep` of `createAiSdkLoop`) and of the
 * OpenAI Agents JS input filter against `buildContext` alone, at 200 and 2,000 messages of history.
 * Each step appends one tool call and its result, as a step of an agent run does. The Agents runner
 * hands the filter a fresh copy of every item each turn: those copies are made before the step (the
 * runner's cost, not the adapter's), so the filter pays for recognising them, not for making them.
 * Target: each adapter within 1.5× of `buildContext`, and flat in history length. The three run step by
 * step in turn, so a busy machine slows them alike.
 *
 * Run: pnpm vitest bench --run bench/adapters-ai-sdk-agents.bench.ts (prints medians and ratios at the end)
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";
import { createAiSdkLoop } from "skillctx/ai-sdk";
import { createOpenAIAgentsLoop } from "skillctx/openai-agents";
import {
  benchContext,
  buildContextSession,
  conversation,
  FIRST_MESSAGE,
  interleavedBench,
  reportMedians,
  STEP_OPTIONS,
  STEPS,
  TOOL_RESULT,
  warmUp,
} from "./adapter-steps.js";
import type { Session } from "./adapter-steps.js";

type ModelMessage = import("ai").ModelMessage;
type AgentInputItem = import("@openai/agents").AgentInputItem;
const requireFromSkillctx = createRequire(fileURLToPath(new URL("../packages/skillctx/package.json", import.meta.url)));
const agents = requireFromSkillctx("@openai/agents") as typeof import("@openai/agents");

// The k-th tool turn in each framework's form.
const aiSdkTurn = (k: number): ModelMessage[] => [
  {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: `c${k}`, toolName: "Read", input: { path: `notes/${k}.md` } }],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: `c${k}`, toolName: "Read", output: { type: "text", value: TOOL_RESULT } },
    ],
  },
];
const agentsTurn = (k: number): AgentInputItem[] =>
  [
    {
      type: "function_call",
      callId: `c${k}`,
      name: "Read",
      arguments: JSON.stringify({ path: `notes/${k}.md` }),
      status: "completed",
    },
    {
      type: "function_call_result",
      callId: `c${k}`,
      name: "Read",
      status: "completed",
      output: { type: "text", text: TOOL_RESULT },
    },
  ] as AgentInputItem[];

function aiSdkSession(length: number): () => Promise<Session> {
  return async () => {
    const ctx = await benchContext();
    const { prepareStep } = createAiSdkLoop(ctx);
    const messages = conversation<ModelMessage>({ role: "user", content: FIRST_MESSAGE }, aiSdkTurn, length);
    const call = () =>
      prepareStep({ messages, steps: [], stepNumber: 0, model: {} as never, experimental_context: undefined });
    await call();
    let k = length;
    return {
      step: () => {
        messages.push(...aiSdkTurn(k++));
        return call();
      },
    };
  };
}

function agentsSession(length: number): () => Promise<Session> {
  return async () => {
    const ctx = await benchContext();
    const { callModelInputFilter, tools } = createOpenAIAgentsLoop(ctx, { tool: agents.tool });
    const agent = { tools } as never;
    const items = conversation<AgentInputItem>(
      { role: "user", content: FIRST_MESSAGE } as AgentInputItem,
      agentsTurn,
      length,
    );
    // The runner's copies, one per turn, made ahead (the runner's own cost).
    const copies: AgentInputItem[][] = [];
    for (let k = 0; k <= STEP_OPTIONS.warmupIterations + STEPS; k++) {
      copies.push(structuredClone(items));
      items.push(...agentsTurn(length + k));
    }
    let turn = 0;
    const call = (input: AgentInputItem[]) =>
      callModelInputFilter({ modelData: { input, instructions: "x" }, agent, context: undefined });
    await call(copies[turn++]!);
    return {
      step: () => {
        const input = copies[turn++];
        if (input === undefined) throw new Error("the benchmark ran more steps than it prepared copies for");
        return call(input);
      },
    };
  };
}

const BASELINE = "buildContext alone";
const AI_SDK = "AI SDK prepareStep";
const AGENTS = "Agents JS input filter, fresh copies";

await warmUp([buildContextSession(200), aiSdkSession(200), agentsSession(200)]);
for (const length of [200, 2_000]) {
  describe(`one step after appending a tool call and its result, ${length.toLocaleString("en")} messages of history`, () => {
    interleavedBench(length, [
      [BASELINE, buildContextSession(length)],
      [AI_SDK, aiSdkSession(length)],
      [AGENTS, agentsSession(length)],
    ]);
  });
}
reportMedians(BASELINE, [AI_SDK, AGENTS]);
