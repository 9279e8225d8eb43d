/**
 * Real AI SDK agent loops (`generateText`, `streamText`, `ToolLoopAgent`) with `createAiSdkLoop(ctx)`,
 * driven by the SDK's own mock language model: what the model received on each request is asserted.
 */
import { describe, expect, it } from "vitest";
import { createAiSdkLoop } from "skillctx/ai-sdk";
import type { ContextStep } from "skillctx";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import {
  ALL_TOOLS,
  HOST_PROMPT,
  KEYWORD_TEXT,
  NOTES_TOOLS,
  PATH_RULE_TEXT,
  RESUMED_RUN,
  RESUMED_USER_TEXT,
  RUN,
  SCHEMA_TEXT,
  SERVER,
  USER_TEXT,
  useScenario,
} from "./helpers/agent-scenario.js";
import type { Turn } from "./helpers/agent-scenario.js";

/** allowed-tools narrowing the listed tools (`tools.filter: "filter"`; the default, "refuse", keeps them). */
const FILTER = { tools: { filter: "filter" } } as const;

type AiModule = typeof import("ai");
const ai = skillctxDependency<AiModule>("ai");
const { MockLanguageModelV3, convertArrayToReadableStream } = skillctxDependency<typeof import("ai/test")>("ai/test");
type ModelMessage = import("ai").ModelMessage;
type ToolSet = import("ai").ToolSet;

type CallOptions = Parameters<InstanceType<typeof MockLanguageModelV3>["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<InstanceType<typeof MockLanguageModelV3>["doGenerate"]>>;
type Prompt = CallOptions["prompt"];
type StreamPart =
  Awaited<ReturnType<InstanceType<typeof MockLanguageModelV3>["doStream"]>>["stream"] extends ReadableStream<infer P>
    ? P
    : never;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function content(turn: Turn, id: string): GenerateResult["content"] {
  return "text" in turn
    ? [{ type: "text", text: turn.text }]
    : [{ type: "tool-call", toolCallId: id, toolName: turn.call, input: JSON.stringify(turn.input) }];
}
const finish = (turn: Turn): GenerateResult["finishReason"] =>
  "text" in turn ? { unified: "stop", raw: "stop" } : { unified: "tool-calls", raw: "tool_calls" };

/** A scripted model (generate and stream): answers each call with the next turn and keeps what it was sent. */
function scriptedModel(script: Turn[], prefix = "c") {
  const calls: CallOptions[] = [];
  const next = (options: CallOptions): Turn => {
    calls.push(options);
    const turn = script[calls.length - 1];
    if (turn === undefined) throw new Error(`the script has no answer for call ${calls.length}`);
    return turn;
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const turn = next(options);
      return { content: content(turn, `${prefix}${calls.length}`), finishReason: finish(turn), usage, warnings: [] };
    },
    doStream: async (options) => {
      const turn = next(options);
      const parts = content(turn, `${prefix}${calls.length}`).flatMap((part): StreamPart[] =>
        part.type === "text"
          ? [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: part.text },
              { type: "text-end", id: "t" },
            ]
          : [part as StreamPart],
      );
      return {
        stream: convertArrayToReadableStream<StreamPart>([
          { type: "stream-start", warnings: [] },
          ...parts,
          { type: "finish", finishReason: finish(turn), usage },
        ]),
      };
    },
  });
  return { model, calls };
}

const toolNames = (options: CallOptions) => (options.tools ?? []).map((tool) => tool.name);
const system = (options: CallOptions) => options.prompt[0]!;
function lastToolResult(options: CallOptions): { toolName: string; output: { type: string; value?: unknown } } {
  const last = options.prompt.at(-1)!;
  expect(last.role).toBe("tool");
  return (last.content as Array<{ toolName: string; output: { type: string; value?: unknown } }>).at(-1)!;
}
const userTexts = (prompt: Prompt, index: number) =>
  (prompt[index]!.content as Array<{ type: string; text: string }>).map((p) => p.text);

/** Each request's serialised prompt begins with the previous one's: the prefix never changes. */
function expectStablePrefixes(calls: CallOptions[]): void {
  for (let k = 1; k < calls.length; k++) {
    const before = calls[k - 1]!.prompt;
    expect(JSON.stringify(calls[k]!.prompt.slice(0, before.length))).toBe(JSON.stringify(before));
  }
}

const scenario = useScenario();

describe("generateText with createAiSdkLoop", () => {
  it("keyword and path attachments, load_skill whose MCP tool is called in the same run, allowed-tools refusal, then a resumed context", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log, FILTER);
    const steps: ContextStep[] = [];
    const { model, calls } = scriptedModel(RUN);
    const messages: ModelMessage[] = [{ role: "user", content: USER_TEXT }];
    const result = await ai.generateText({
      model,
      ...createAiSdkLoop(ctx, { onStep: (step) => steps.push(step) }),
      stopWhen: ai.stepCountIs(10),
      messages,
    });

    expect(result.text).toBe("Done: noted.");
    expect(result.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([
      ["Read"],
      ["load_skill"],
      ["mcp__notes__echo"],
      ["Write"],
      [],
    ]);
    expect(calls).toHaveLength(5);

    // system: the context's, the same bytes on every request, with the catalog and without skill bodies.
    for (const call of calls) expect(system(call)).toEqual(system(calls[0]!));
    expect(system(calls[0]!).content).toContain(HOST_PROMPT);
    expect(system(calls[0]!).content).toContain("<name>notes</name>");
    expect(system(calls[0]!).content).not.toContain(KEYWORD_TEXT);

    // The keyword skill is attached to the user message, on every request.
    for (const call of calls) {
      const texts = userTexts(call.prompt, 1);
      expect(texts[0]).toBe(USER_TEXT);
      expect(texts[1]).toMatch(/^<skill name="tax-terms" trigger="keyword" match="tax form">/);
      expect(texts[1]).toContain(KEYWORD_TEXT);
    }

    // Request 2: the path rule is inside the Read result that touched src/db/schema.ts.
    const read = lastToolResult(calls[1]!);
    expect(read.toolName).toBe("Read");
    expect(read.output.type).toBe("text");
    expect(String(read.output.value)).toMatch(
      new RegExp(`^${escape(SCHEMA_TEXT)}\\n\\n<skill name="db-rules" trigger="path" match="src/db/schema.ts">`),
    );
    expect(String(read.output.value)).toContain(PATH_RULE_TEXT);

    // Request 3: load_skill answered with the body; the notes server's tool is offered in the same run,
    // with the tools narrowed to the skill's allowed-tools (Write is gone).
    expect(String(lastToolResult(calls[2]!).output.value)).toMatch(/^<skill-loaded name="notes">/);
    expect(calls.map(toolNames)).toEqual([ALL_TOOLS, ALL_TOOLS, NOTES_TOOLS, NOTES_TOOLS, NOTES_TOOLS]);
    expect(calls[2]!.tools!.find((tool) => tool.name === "mcp__notes__echo")).toMatchObject({
      type: "function",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    });

    // Request 4: the MCP tool ran. Request 5: Write, not offered, never ran; the model was told.
    expect(lastToolResult(calls[3]!)).toMatchObject({
      toolName: "mcp__notes__echo",
      output: { type: "text", value: "remember Ada" },
    });
    const refused = lastToolResult(calls[4]!);
    expect(refused).toMatchObject({ toolName: "Write", output: { type: "error-text" } });
    expect(String(refused.output.value)).toContain("Write");
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);

    expect(steps.map((step) => step.activated)).toEqual([
      [{ skill: "tax-terms", trigger: "keyword", match: "tax form", messageIndex: 0 }],
      [{ skill: "db-rules", trigger: "path", match: "src/db/schema.ts", messageIndex: 2 }],
      [{ skill: "notes", trigger: "load" }],
      [],
      [],
    ]);
    expect(steps[1]!.attachments.map((a) => a.messageIndex)).toEqual([0, 2]);
    expectStablePrefixes(calls);

    // Resume: the state goes to a new context; the next run sends the same prefix bytes, fires nothing
    // again, and the loaded skill's server is started again, so its tool is offered and runs.
    const saved = ctx.state;
    await ctx.close();
    const resumed = await scenario.context(log, { ...FILTER, conversation: { state: saved } });
    const resumedSteps: ContextStep[] = [];
    const second = scriptedModel(RESUMED_RUN, "r");
    messages.push(...result.response.messages, { role: "user", content: RESUMED_USER_TEXT });
    const again = await ai.generateText({
      model: second.model,
      ...createAiSdkLoop(resumed, { onStep: (step) => resumedSteps.push(step) }),
      stopWhen: ai.stepCountIs(5),
      messages,
    });
    expect(again.text).toBe("Echoed.");
    const first = second.calls[0]!;
    expect(system(first)).toEqual(system(calls[0]!));
    const previous = calls.at(-1)!.prompt;
    expect(JSON.stringify(first.prompt.slice(0, previous.length))).toBe(JSON.stringify(previous));
    expect(first.prompt.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: RESUMED_USER_TEXT }] });
    expect(second.calls.map(toolNames)).toEqual([NOTES_TOOLS, NOTES_TOOLS]);
    expect(lastToolResult(second.calls[1]!)).toMatchObject({
      toolName: "mcp__notes__echo",
      output: { type: "text", value: "again" },
    });
    expect(resumedSteps.map((step) => step.activated)).toEqual([[], []]);
  });

  it("offers the tools of an MCP server that a keyword starts in the step where it fires", async () => {
    const ctx = await scenario.context([], {
      skills: [
        {
          name: "calc",
          description: "Arithmetic through the calc server.",
          content: "Use mcp__calc__add for sums.",
          source: { kind: "inline", format: "inline", scope: "programmatic" },
          trigger: { type: "keyword", keywords: ["calculate"] },
          mcpServers: { mcpServers: { calc: { command: "node", args: [SERVER, "--name", "calc"] } } },
        },
      ],
    });
    const { model, calls } = scriptedModel([{ call: "mcp__calc__add", input: { a: 2, b: 3 } }, { text: "5" }]);
    const result = await ai.generateText({
      model,
      ...createAiSdkLoop(ctx),
      stopWhen: ai.stepCountIs(5),
      prompt: "please calculate 2 + 3",
    });
    expect(result.text).toBe("5");
    expect(toolNames(calls[0]!)).toContain("mcp__calc__add");
    expect(userTexts(calls[0]!.prompt, 1)[1]).toContain("Use mcp__calc__add for sums.");
    expect(lastToolResult(calls[1]!)).toMatchObject({
      toolName: "mcp__calc__add",
      output: { type: "text", value: "5" },
    });
  });

  it('by default (tools.filter "refuse"), keeps the tool list byte-stable until a server adds tools, and answers with skillctx\'s refusal', async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log);
    const { model, calls } = scriptedModel(RUN);
    await ai.generateText({ model, ...createAiSdkLoop(ctx), stopWhen: ai.stepCountIs(10), prompt: USER_TEXT });
    const lists = calls.map((call) => JSON.stringify(call.tools));
    expect(toolNames(calls[2]!)).toContain("mcp__notes__echo");
    expect(lists[1]).toBe(lists[0]);
    for (const list of lists.slice(3)) expect(list).toBe(lists[2]);
    expect(lastToolResult(calls[4]!).output).toEqual({
      type: "error-text",
      value:
        'The tool "Write" is not allowed while the skill "notes" is active (its allowed-tools: Read, mcp__notes__echo). ' +
        'Use an allowed tool, or call unload_skill { "name": "notes" } to restore every tool.',
    });
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);
  });

  it("leaves a tool the host added to the set alone: offered on every step, even while a skill narrows the others", async () => {
    const ctx = await scenario.context([], FILTER);
    const loop = createAiSdkLoop(ctx);
    const weather: string[] = [];
    (loop.tools as ToolSet).weather = ai.tool({
      description: "The weather",
      inputSchema: ai.jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }),
      execute: async ({ city }) => (weather.push(city), "sunny"),
    });
    const { model, calls } = scriptedModel([
      { call: "load_skill", input: { name: "notes" } },
      { call: "weather", input: { city: "Oslo" } },
      { text: "ok" },
    ]);
    await ai.generateText({ model, ...loop, stopWhen: ai.stepCountIs(5), prompt: "hi" });
    // skillctx's tools first, in the context's order, then the host's.
    expect(calls.map(toolNames)).toEqual([
      [...ALL_TOOLS, "weather"],
      [...NOTES_TOOLS, "weather"],
      [...NOTES_TOOLS, "weather"],
    ]);
    expect(weather).toEqual(["Oslo"]);
  });
});

describe("streamText and ToolLoopAgent with createAiSdkLoop", () => {
  it("streamText: the MCP tool of a skill loaded mid-run is offered and called in the same stream", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log, FILTER);
    const { model, calls } = scriptedModel(RUN);
    const stream = ai.streamText({ model, ...createAiSdkLoop(ctx), stopWhen: ai.stepCountIs(10), prompt: USER_TEXT });
    expect(await stream.text).toBe("Done: noted.");
    expect(calls.map(toolNames)).toEqual([ALL_TOOLS, ALL_TOOLS, NOTES_TOOLS, NOTES_TOOLS, NOTES_TOOLS]);
    expect(String(lastToolResult(calls[1]!).output.value)).toContain(PATH_RULE_TEXT);
    expect(lastToolResult(calls[3]!)).toMatchObject({
      toolName: "mcp__notes__echo",
      output: { type: "text", value: "remember Ada" },
    });
    expect(lastToolResult(calls[4]!).output.type).toBe("error-text");
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);
    expectStablePrefixes(calls);
  });

  it("ToolLoopAgent: the loop's tools and prepareStep as agent settings", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log, FILTER);
    const { model, calls } = scriptedModel(RUN);
    const agent = new ai.ToolLoopAgent({ model, ...createAiSdkLoop(ctx), stopWhen: ai.stepCountIs(10) });
    const result = await agent.generate({ prompt: USER_TEXT });
    expect(result.text).toBe("Done: noted.");
    expect(calls.map(toolNames)).toEqual([ALL_TOOLS, ALL_TOOLS, NOTES_TOOLS, NOTES_TOOLS, NOTES_TOOLS]);
    expect(lastToolResult(calls[3]!).output).toEqual({ type: "text", value: "remember Ada" });
  });
});

describe("unload_skill mid-run", () => {
  it("withdraws the skill's MCP tool from the set and restores every tool in the next step", async () => {
    const ctx = await scenario.context([], FILTER);
    const loop = createAiSdkLoop(ctx);
    const { model, calls } = scriptedModel([
      { call: "load_skill", input: { name: "notes" } },
      { call: "unload_skill", input: { name: "notes" } },
      { call: "mcp__notes__echo", input: { text: "late" } },
      { text: "ok" },
    ]);
    await ai.generateText({ model, ...loop, stopWhen: ai.stepCountIs(6), prompt: "hi" });
    expect(calls.map(toolNames)).toEqual([ALL_TOOLS, NOTES_TOOLS, ALL_TOOLS, ALL_TOOLS]);
    expect(Object.keys(loop.tools)).toEqual(ALL_TOOLS);
    expect(lastToolResult(calls[3]!)).toMatchObject({ toolName: "mcp__notes__echo", output: { type: "error-text" } });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
