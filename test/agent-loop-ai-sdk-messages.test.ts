/**
 * The AI SDK adapter's pieces without a model: message conversion both ways, where `prepareStep` puts
 * attached text (inside the tool result it belongs to), the tool set, and how it recognises the history
 * from one step and one run to the next.
 */
import { describe, expect, it } from "vitest";
import {
  createAiSdkLoop,
  fromAiSdkMessages,
  skillctxPrepareStep,
  toAiSdkMessages,
  toAiSdkTools,
} from "skillctx/ai-sdk";
import type { AgentContext } from "skillctx";
import { put } from "../packages/core/src/testing/temp-dir.js";
import { spyOnSteps } from "./helpers/agent-scenario.js";
import { useToolSkills } from "./helpers/tools-fixture.js";

type ModelMessage = import("ai").ModelMessage;
type ToolMessage = Extract<ModelMessage, { role: "tool" }>;
type PrepareStep = ReturnType<typeof skillctxPrepareStep>;

const DB_RULE = "Schema changes need a migration file.";
const DOCS_RULE = "Docs use sentence case.";
const suite = useToolSkills({}, async (copy) => {
  await put(copy.cwd, "db-rules.md", `---\npaths: src/db/**\n---\n${DB_RULE}\n`);
  await put(copy.cwd, "docs-rules.md", `---\npaths: docs/**\n---\n${DOCS_RULE}\n`);
});

function context(filter?: "filter"): Promise<AgentContext> {
  return suite.context({
    skills: [suite.copy.skills, `${suite.copy.cwd}/db-rules.md`, `${suite.copy.cwd}/docs-rules.md`],
    systemPrompt: "Host prompt.",
    tools: {
      ...(filter === undefined ? {} : { filter }),
      host: [
        {
          name: "Read",
          description: "Read a file",
          inputSchema: { type: "object", properties: { path: { type: "string" } } },
          execute: () => "contents",
        },
        { name: "Write", description: "Write a file", execute: () => "written" },
      ],
    },
  });
}

// prepareStep's `system` travels as the first of its `messages` (so a host `system` is not replaced): split it off.
const prepare = async (step: PrepareStep, messages: ModelMessage[], stepNumber = 0) => {
  const result = (await step({
    messages,
    steps: [],
    stepNumber,
    model: {} as never,
    experimental_context: undefined,
  }))!;
  expect(result.system).toBeUndefined();
  const [first, ...rest] = result.messages!;
  expect(first!.role).toBe("system");
  return { ...result, system: first!.content as string, messages: rest };
};

const transcript = (): ModelMessage[] => [
  { role: "system", content: "sys" },
  {
    role: "user",
    content: [
      { type: "text", text: "look" },
      { type: "image", image: "https://example.com/a.png" },
    ],
  },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Reading three files." },
      { type: "tool-call", toolCallId: "a", toolName: "Read", input: { path: "README.md" } },
      { type: "tool-call", toolCallId: "b", toolName: "Read", input: { path: "src/db/schema.ts" } },
      { type: "tool-call", toolCallId: "c", toolName: "Read", input: { path: "docs/guide.md" } },
    ],
  },
  {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: "a", toolName: "Read", output: { type: "text", value: "readme" } },
      { type: "tool-result", toolCallId: "b", toolName: "Read", output: { type: "json", value: { rows: 2 } } },
      {
        type: "tool-result",
        toolCallId: "c",
        toolName: "Read",
        output: { type: "content", value: [{ type: "text", text: "# Guide" }] },
      },
    ],
  },
];

describe("AI SDK messages", () => {
  it("converts both ways: one skillctx message per tool result, tool names restored from the calls", () => {
    const messages = transcript();
    const neutral = fromAiSdkMessages(messages);
    expect(neutral).toEqual([
      { role: "system", content: "sys" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", image: "https://example.com/a.png" },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "text", text: "Reading three files." }],
        toolCalls: [
          { id: "a", name: "Read", args: { path: "README.md" } },
          { id: "b", name: "Read", args: { path: "src/db/schema.ts" } },
          { id: "c", name: "Read", args: { path: "docs/guide.md" } },
        ],
      },
      { role: "tool", content: "readme", toolCallId: "a" },
      { role: "tool", content: '{"rows":2}', toolCallId: "b" },
      { role: "tool", content: "# Guide", toolCallId: "c" },
    ]);
    const back = toAiSdkMessages(neutral);
    expect(back.slice(0, 3)).toEqual(messages.slice(0, 3));
    expect(back.slice(3).map((m) => (m as ToolMessage).content[0])).toEqual([
      { type: "tool-result", toolCallId: "a", toolName: "Read", output: { type: "text", value: "readme" } },
      { type: "tool-result", toolCallId: "b", toolName: "Read", output: { type: "text", value: '{"rows":2}' } },
      { type: "tool-result", toolCallId: "c", toolName: "Read", output: { type: "text", value: "# Guide" } },
    ]);
  });

  it("prepareStep places each path rule inside the tool result that touched its path, in the output's own form", async () => {
    const ctx = await context();
    const step = skillctxPrepareStep(ctx);
    const messages = transcript();
    const result = await prepare(step, messages);
    expect(result.system).toContain("Host prompt.");
    expect(result.activeTools).toEqual([
      "Read",
      "Write",
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
    ]);
    const out = result.messages!;
    // Messages without attachments are the host's own objects.
    for (const i of [0, 1, 2]) expect(out[i]).toBe(messages[i]);
    const tool = out[3] as ToolMessage;
    const parts = tool.content as Array<{ output: { type: string; value: unknown } }>;
    expect(parts[0]).toBe((messages[3] as ToolMessage).content[0]);
    // A json output becomes text: its JSON, a blank line, the rule.
    expect(parts[1]!.output.type).toBe("text");
    expect(String(parts[1]!.output.value)).toMatch(
      /^\{"rows":2\}\n\n<skill name="db-rules" trigger="path" match="src\/db\/schema.ts">/,
    );
    expect(String(parts[1]!.output.value)).toContain(DB_RULE);
    // A content output gets the rule as one more text part.
    expect(parts[2]!.output.type).toBe("content");
    const content = parts[2]!.output.value as Array<{ type: string; text: string }>;
    expect(content[0]).toEqual({ type: "text", text: "# Guide" });
    expect(content[1]!.text).toMatch(/^<skill name="docs-rules" trigger="path" match="docs\/guide.md">/);
    expect(content[1]!.text).toContain(DOCS_RULE);
    // The input was not changed, and the next step gives the same bytes.
    expect(JSON.stringify(messages)).toBe(JSON.stringify(transcript()));
    const again = await prepare(step, messages, 1);
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(out));
    expect(again.messages![3]).toBe(out[3]);
  });

  it("keeps a host `system` given to generateText: sent first, then the context's system (never dropped)", async () => {
    const { generateText } = await import("ai");
    const { MockLanguageModelV3 } = await import("ai/test");
    const ctx = await context();
    const prompts: unknown[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async ({ prompt }) => {
        prompts.push(prompt);
        return {
          content: [{ type: "text", text: "ok" }],
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 0, text: 0, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    await generateText({ model, system: "Host system X.", ...createAiSdkLoop(ctx), prompt: "hello" });
    const prompt = prompts[0] as Array<{ role: string; content: unknown }>;
    expect(prompt[0]).toEqual({ role: "system", content: "Host system X." });
    expect(prompt[1]!.role).toBe("system");
    expect(String(prompt[1]!.content)).toContain("Host prompt.");
    expect(prompt[2]).toMatchObject({ role: "user" });
  });

  it("a user message gets the keyword skill as extra text parts after the host's own parts", async () => {
    const ctx = await suite.context({
      skills: [
        {
          name: "tax",
          description: "Tax words.",
          content: "A payer pays.",
          source: { kind: "inline", format: "inline", scope: "programmatic" },
          trigger: { type: "keyword", keywords: ["tax"] },
        },
      ],
    });
    const out = (await prepare(skillctxPrepareStep(ctx), [{ role: "user", content: "a tax question" }])).messages!;
    const parts = (out[0] as Extract<ModelMessage, { role: "user" }>).content as Array<{ type: string; text: string }>;
    expect(parts[0]).toEqual({ type: "text", text: "a tax question" });
    expect(parts[1]!.text).toMatch(/^<skill name="tax" trigger="keyword" match="tax">/);
  });

  it("recognises the history by position and content: copies of the known messages reach the engine as the same objects", async () => {
    const ctx = await context();
    const seen = spyOnSteps(ctx);
    const step = skillctxPrepareStep(ctx);
    const first = await prepare(step, transcript());
    // The next run: every message a copy (as after result.response.messages), plus one new message.
    const copies = structuredClone(transcript());
    copies.push({ role: "assistant", content: "done" });
    const second = await prepare(step, copies, 1);
    expect(seen[1]!.length).toBe(seen[0]!.length + 1);
    for (let i = 0; i < seen[0]!.length; i++) expect(seen[1]![i]).toBe(seen[0]![i]);
    expect(JSON.stringify(second.messages!.slice(0, 4))).toBe(JSON.stringify(first.messages));
  });

  it("notices the last known message replaced by another (a history edited at its end) and reads it again", async () => {
    const ctx = await context();
    const seen = spyOnSteps(ctx);
    const step = skillctxPrepareStep(ctx);
    const messages = transcript();
    await prepare(step, messages);
    const edited = messages.slice();
    edited[3] = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "a", toolName: "Read", output: { type: "text", value: "changed" } }],
    };
    const out = await prepare(step, edited, 1);
    for (const i of [0, 1, 2]) expect(seen[1]![i]).toBe(seen[0]![i]);
    expect(seen[1]!.slice(3)).toEqual([{ role: "tool", content: "changed", toolCallId: "a" }]);
    expect(out.messages![3]).toBe(edited[3]);
  });

  it("toAiSdkTools: each tool runs ctx.callTool and shows the model text or error text", async () => {
    const ctx = await context();
    const tools = toAiSdkTools(ctx);
    expect(Object.keys(tools)).toEqual([
      "Read",
      "Write",
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
    ]);
    const load = tools.load_skill!;
    const schema = (
      load.inputSchema as { "~standard": { jsonSchema: { input(o: unknown): Record<string, unknown> } } }
    )["~standard"];
    const json = schema.jsonSchema.input({ target: "draft-07" });
    expect(json).toEqual(ctx.listTools()[2]!.inputSchema);
    json.mutated = true;
    expect(schema.jsonSchema.input({ target: "draft-07" })).not.toHaveProperty("mutated");
    const options = { toolCallId: "x", messages: [] };
    const ok = await load.execute!({ name: "with-resources" }, options);
    expect(ok.content).toContain('<skill-loaded name="with-resources">');
    expect(await load.toModelOutput!({ toolCallId: "x", input: {}, output: ok })).toEqual({
      type: "text",
      value: ok.content,
    });
    const bad = await load.execute!({ name: 5 }, options);
    expect(await load.toModelOutput!({ toolCallId: "x", input: {}, output: bad })).toEqual({
      type: "error-text",
      value: bad.content,
    });
  });

  it("createAiSdkLoop: one tool set, the same entry objects from step to step, narrowed by allowed-tools, the host's entry kept", async () => {
    const ctx = await context("filter");
    const loop = createAiSdkLoop(ctx);
    const read = loop.tools.Read;
    const host = {
      description: "host",
      inputSchema: { "~standard": { version: 1, vendor: "x", validate: (value: unknown) => ({ value }) } },
      execute: async () => "h",
    };
    (loop.tools as Record<string, unknown>).weather = host;
    expect(Object.getPrototypeOf(loop.tools)).toBeNull();
    const messages: ModelMessage[] = [{ role: "user", content: "hi" }];
    const first = await prepare(loop.prepareStep, messages);
    expect(first).not.toHaveProperty("activeTools");
    expect(Object.keys(loop.tools)).toEqual([
      "Read",
      "Write",
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
      "weather",
    ]);
    expect(loop.tools.Read).toBe(read);
    await loop.tools.load_skill!.execute!({ name: "pdf-forms" }, { toolCallId: "l", messages: [] });
    await prepare(loop.prepareStep, messages, 1);
    // pdf-forms allows Read and run_skill_script: Write leaves the set; the host's entry stays.
    expect(Object.keys(loop.tools)).toEqual([
      "Read",
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
      "weather",
    ]);
    expect(loop.tools.Read).toBe(read);
    expect(loop.tools.weather).toBe(host);
  });
});
