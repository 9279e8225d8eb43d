/**
 * Programmatic skills in a real AI SDK loop (`generateText` + `createAiSdkLoop`), driven by the SDK's
 * scripted model: a skill's tools appear in the request after `load_skill` and are gone after
 * `unload_skill`; a stateful skill's deltas arrive as events, and its state survives a resume byte for byte.
 */
import { describe, expect, it } from "vitest";
import { createAiSdkLoop } from "skillctx/ai-sdk";
import { AgentContext, defineSkill } from "skillctx";
import type { SkillctxEvent, SkillStateHandle } from "skillctx";
import { useEngineFixture } from "./helpers/engine-fixture.js";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import { z } from "./helpers/zod.js";

const ai = skillctxDependency<typeof import("ai")>("ai");
const { MockLanguageModelV3 } = skillctxDependency<typeof import("ai/test")>("ai/test");
type ModelMessage = import("ai").ModelMessage;
type CallOptions = Parameters<InstanceType<typeof MockLanguageModelV3>["doGenerate"]>[0];
type Turn = { call: string; input: unknown } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A scripted model: answers each call with the next turn and keeps what it was sent. */
function scriptedModel(script: Turn[], prefix: string) {
  const calls: CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options);
      const turn = script[calls.length - 1];
      if (turn === undefined) throw new Error(`the script has no answer for call ${calls.length}`);
      const id = `${prefix}${calls.length}`;
      return "text" in turn
        ? {
            content: [{ type: "text", text: turn.text }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: "tool-call", toolCallId: id, toolName: turn.call, input: JSON.stringify(turn.input) }],
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          };
    },
  });
  return { model, calls };
}

const toolNames = (options: CallOptions) => (options.tools ?? []).map((tool) => tool.name);
function lastToolResult(options: CallOptions): { toolName: string; output: { type: string; value?: unknown } } {
  const last = options.prompt.at(-1)!;
  expect(last.role).toBe("tool");
  return (last.content as Array<{ toolName: string; output: { type: string; value?: unknown } }>).at(-1)!;
}

// run_skill_script is offered only when a skill has scripts that may run (none here).
const SKILL_TOOLS = ["load_skill", "read_skill_resource", "unload_skill"];
const fixture = useEngineFixture();

const calc = defineSkill({
  name: "calc",
  description: "Arithmetic. Use for sums.",
  instructions: "Call add for sums.",
  tools: {
    add: {
      description: "Adds a and b",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
    },
  },
});

type Cart = { items: { sku: string; qty: number }[] };
const cart = defineSkill({
  name: "cart",
  description: "A shopping cart. Use to add items.",
  instructions: "Call add_item for each item.",
  state: {
    schema: z.object({ items: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })) }),
    initial: { items: [] },
  },
  tools: {
    add_item: {
      description: "Adds an item to the cart",
      inputSchema: z.object({ sku: z.string(), qty: z.number().int() }),
      execute: ({ sku, qty }: { sku: string; qty: number }, { state }: { state: SkillStateHandle<Cart> }) => {
        state.update((c) => ({ items: [...c.items, { sku, qty }] }));
        return `added ${qty} ${sku}`;
      },
    },
  },
});

describe("generateText with a programmatic skill", () => {
  it("offers the skill's tools only after load_skill and withdraws them after unload_skill", async () => {
    const repo = await fixture.repo();
    const ctx = await fixture.context({ cwd: repo.dir, skills: [calc] });
    const { model, calls } = scriptedModel(
      [
        { call: "add", input: { a: 1, b: 1 } },
        { call: "load_skill", input: { name: "calc" } },
        { call: "add", input: { a: 2, b: 3 } },
        { call: "unload_skill", input: { name: "calc" } },
        { text: "The sum is 5." },
      ],
      "c",
    );
    const result = await ai.generateText({
      model,
      ...createAiSdkLoop(ctx),
      stopWhen: ai.stepCountIs(10),
      prompt: "add 2 and 3",
    });
    expect(result.text).toBe("The sum is 5.");
    expect(calls.map(toolNames)).toEqual([
      SKILL_TOOLS,
      SKILL_TOOLS,
      [...SKILL_TOOLS, "add"],
      [...SKILL_TOOLS, "add"],
      SKILL_TOOLS,
    ]);
    // Called before the load: not in the request's tools, so the SDK answers with an error the model reads.
    expect(lastToolResult(calls[1]!)).toMatchObject({ toolName: "add", output: { type: "error-text" } });
    expect(calls[2]!.tools!.find((tool) => tool.name === "add")).toMatchObject({
      type: "function",
      description: "Adds a and b",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    });
    expect(lastToolResult(calls[3]!).output).toEqual({ type: "text", value: '{"sum":5}' });
  });

  it("a stateful skill: deltas arrive as events, only text reaches the model, and the state survives a resume byte for byte", async () => {
    const repo = await fixture.repo();
    const events: SkillctxEvent[] = [];
    const ctx = await fixture.context({
      cwd: repo.dir,
      skills: [cart],
      telemetry: { onEvent: (event) => events.push(event) },
    });
    const first = scriptedModel(
      [
        { call: "load_skill", input: { name: "cart" } },
        { call: "add_item", input: { sku: "apple", qty: 2 } },
        { call: "add_item", input: { sku: "pear", qty: 0 } },
        { call: "add_item", input: { sku: "pear", qty: 1 } },
        { text: "Added." },
      ],
      "a",
    );
    const messages: ModelMessage[] = [{ role: "user", content: "add apples and a pear" }];
    const result = await ai.generateText({
      model: first.model,
      ...createAiSdkLoop(ctx),
      stopWhen: ai.stepCountIs(10),
      messages,
    });
    expect(result.text).toBe("Added.");
    expect(lastToolResult(first.calls[2]!).output).toEqual({ type: "text", value: "added 2 apple" });
    // qty 0 fails the state schema: an error the model reads, the state unchanged, no delta.
    expect(lastToolResult(first.calls[3]!).output.type).toBe("error-text");
    expect(String(lastToolResult(first.calls[3]!).output.value)).toContain('the new state of "cart" is rejected');
    expect(events.filter((e) => e.type === "state.delta")).toEqual([
      {
        type: "state.delta",
        namespace: "cart",
        skill: "cart",
        patch: [{ op: "add", path: "/items/0", value: { sku: "apple", qty: 2 } }],
      },
      {
        type: "state.delta",
        namespace: "cart",
        skill: "cart",
        patch: [{ op: "add", path: "/items/1", value: { sku: "pear", qty: 1 } }],
      },
    ]);
    // The SDK's step results carry skillctx's result with its metadata, for the host.
    const stepResult = result.steps[1]!.toolResults[0]!.output as { metadata?: unknown };
    expect(stepResult.metadata).toEqual({
      stateDelta: { namespace: "cart", patch: [{ op: "add", path: "/items/0", value: { sku: "apple", qty: 2 } }] },
    });

    const before = JSON.stringify(ctx.state);
    expect(ctx.state.skillStates).toEqual({
      cart: {
        items: [
          { sku: "apple", qty: 2 },
          { sku: "pear", qty: 1 },
        ],
      },
    });
    await ctx.close();
    const resumed = await AgentContext.create({
      cwd: repo.dir,
      guidance: false,
      skills: [cart],
      conversation: {
        state: JSON.parse(before),
      },
    });
    try {
      expect(JSON.stringify(resumed.state)).toBe(before);
      // The loaded skill is still active: its tool is offered from the first request of the next run.
      messages.push(...result.response.messages, { role: "user", content: "one more plum" });
      const second = scriptedModel([{ call: "add_item", input: { sku: "plum", qty: 1 } }, { text: "Done." }], "r");
      await ai.generateText({
        model: second.model,
        ...createAiSdkLoop(resumed),
        stopWhen: ai.stepCountIs(5),
        messages,
      });
      expect(second.calls.map(toolNames)).toEqual([
        [...SKILL_TOOLS, "add_item"],
        [...SKILL_TOOLS, "add_item"],
      ]);
      expect(resumed.skillState("cart")).toEqual({
        items: [
          { sku: "apple", qty: 2 },
          { sku: "pear", qty: 1 },
          { sku: "plum", qty: 1 },
        ],
      });
    } finally {
      await resumed.close();
    }
  });
});
