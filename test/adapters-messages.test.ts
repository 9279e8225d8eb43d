import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentContext } from "skillctx";
import { fromAiSdkMessages, skillctxPrepareStep, toAiSdkMessages, toAiSdkTools } from "skillctx/ai-sdk";
import { fromOpenAIMessages, runOpenAIToolCalls, toOpenAIChatRequest, toOpenAIMessages, toOpenAIResponsesTools, toOpenAITools } from "skillctx/openai";
import type { OpenAIChatMessage } from "skillctx/openai";
import { fromAgentItems, skillctxInputFilter } from "skillctx/openai-agents";
import { runAnthropicToolUses, toAnthropicTools } from "skillctx/anthropic";
import { copyToolSkills } from "./helpers/tools-fixture.js";
import type { SkillsCopy } from "./helpers/tools-fixture.js";
import { writeFile, mkdir } from "node:fs/promises";

type ModelMessage = import("ai").ModelMessage;

let copy: SkillsCopy;
const contexts: AgentContext[] = [];
beforeEach(async () => {
  copy = await copyToolSkills();
  await writeFile(path.join(copy.cwd, "db-rules.md"), "---\npaths: src/db/**\n---\nSchema changes need a migration file.\n");
  await mkdir(path.join(copy.cwd, "src/db"), { recursive: true });
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
  await copy.dispose();
});

async function context(): Promise<AgentContext> {
  const ctx = await AgentContext.create({
    cwd: copy.cwd,
    skills: [copy.skills, path.join(copy.cwd, "db-rules.md")],
    guidance: false,
    systemPrompt: "Host prompt.",
    tools: [
      { name: "Read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } }, execute: () => "contents" },
      { name: "Write", description: "Write a file", execute: () => "written" },
    ],
  });
  contexts.push(ctx);
  return ctx;
}

const ATTACHED = "Schema changes need a migration file.";

describe("AI SDK", () => {
  const transcript: ModelMessage[] = [
    { role: "system", content: "sys" },
    { role: "user", content: [{ type: "text", text: "look" }, { type: "image", image: "https://example.com/a.png" }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Reading two files." },
        { type: "tool-call", toolCallId: "a", toolName: "Read", input: { path: "README.md" } },
        { type: "tool-call", toolCallId: "b", toolName: "Read", input: { path: "src/db/schema.ts" } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "a", toolName: "Read", output: { type: "text", value: "readme" } },
        { type: "tool-result", toolCallId: "b", toolName: "Read", output: { type: "json", value: { rows: 2 } } },
      ],
    },
  ];

  it("converts messages both ways: one skillctx message per tool result, tool names restored from the calls", () => {
    const neutral = fromAiSdkMessages(transcript);
    expect(neutral).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "look" }, { type: "image", image: "https://example.com/a.png" }] },
      {
        role: "assistant",
        content: [{ type: "text", text: "Reading two files." }],
        toolCalls: [
          { id: "a", name: "Read", args: { path: "README.md" } },
          { id: "b", name: "Read", args: { path: "src/db/schema.ts" } },
        ],
      },
      { role: "tool", content: "readme", toolCallId: "a" },
      { role: "tool", content: '{"rows":2}', toolCallId: "b" },
    ]);
    const back = toAiSdkMessages(neutral);
    expect(back.slice(0, 3)).toEqual(transcript.slice(0, 3));
    expect(back.slice(3)).toEqual([
      { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "Read", output: { type: "text", value: "readme" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "b", toolName: "Read", output: { type: "text", value: '{"rows":2}' } }] },
    ]);
  });

  it("prepareStep attaches a path rule to the tool result that touched the path, and leaves the rest as it was", async () => {
    const ctx = await context();
    const prepare = skillctxPrepareStep(ctx);
    const result = (await prepare({ messages: transcript, steps: [], stepNumber: 0, model: {} as never, experimental_context: undefined }))!;
    expect(result.system).toContain("Host prompt.");
    expect(result.activeTools).toEqual(["Read", "Write", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"]);
    const out = result.messages!;
    expect(out.slice(0, 3)).toEqual(transcript.slice(0, 3));
    expect(out[0]).toBe(transcript[0]);
    const tool = out[3] as Extract<ModelMessage, { role: "tool" }>;
    expect(tool.content[0]).toBe((transcript[3] as typeof tool).content[0]);
    const touched = tool.content[1] as { output: { type: string; value: string } };
    expect(touched.output.type).toBe("text");
    expect(touched.output.value.startsWith('{"rows":2}\n\n<skill name="db-rules" trigger="path" match="src/db/schema.ts">')).toBe(true);
    expect(touched.output.value).toContain(ATTACHED);
    // The next step reproduces the same bytes.
    const again = (await prepare({ messages: transcript, steps: [], stepNumber: 1, model: {} as never, experimental_context: undefined }))!;
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(out));
  });

  it("toAiSdkTools: each tool runs ctx.callTool and shows the model text or error text", async () => {
    const ctx = await context();
    const tools = toAiSdkTools(ctx);
    expect(Object.keys(tools)).toEqual(["Read", "Write", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"]);
    const load = tools.load_skill!;
    const schema = (load.inputSchema as { "~standard": { jsonSchema: { input(o: unknown): Record<string, unknown> } } })["~standard"];
    const json = schema.jsonSchema.input({ target: "draft-07" });
    expect(json).toEqual((await ctx.buildContext([])).tools[2]!.inputSchema);
    json.mutated = true;
    expect(schema.jsonSchema.input({ target: "draft-07" })).not.toHaveProperty("mutated");
    const options = { toolCallId: "x", messages: [] };
    const ok = await load.execute!({ name: "with-resources" }, options);
    expect(ok.content).toContain('<skill-loaded name="with-resources">');
    expect(await load.toModelOutput!({ toolCallId: "x", input: {}, output: ok })).toEqual({ type: "text", value: ok.content });
    const bad = await load.execute!({ name: 5 }, options);
    expect(await load.toModelOutput!({ toolCallId: "x", input: {}, output: bad })).toEqual({ type: "error-text", value: bad.content });
  });
});

describe("OpenAI", () => {
  it("writes Chat Completions and Responses function tools", async () => {
    const ctx = await context();
    const tools = (await ctx.buildContext([])).tools;
    expect(toOpenAITools(tools)[0]).toEqual({
      type: "function",
      function: { name: "Read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } },
    });
    expect(toOpenAIResponsesTools(tools)[2]).toEqual({
      type: "function",
      name: "load_skill",
      description: tools[2]!.description,
      parameters: tools[2]!.inputSchema,
      strict: false,
    });
  });

  it("converts chat messages both ways", () => {
    const chat: OpenAIChatMessage[] = [
      { role: "developer", content: "dev" },
      { role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: "https://x/y.png" } }] },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "Read", arguments: '{"path":"a"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "text of a" },
      { role: "assistant", content: "done" },
    ];
    const neutral = fromOpenAIMessages(chat);
    expect(neutral).toEqual([
      { role: "system", content: "dev" },
      { role: "user", content: [{ type: "text", text: "hi" }, { type: "image_url", image_url: { url: "https://x/y.png" } }] },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "Read", args: { path: "a" } }] },
      { role: "tool", content: "text of a", toolCallId: "c1" },
      { role: "assistant", content: "done" },
    ]);
    expect(toOpenAIMessages(neutral)).toEqual([{ role: "system", content: "dev" }, ...chat.slice(1)]);
  });

  it("drives a chat loop: request per step, tool calls answered through the context", async () => {
    const ctx = await context();
    const history: OpenAIChatMessage[] = [{ role: "user", content: "Fill the PDF form" }];
    const first = toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages(history)));
    expect(first.messages[0]).toEqual({ role: "system", content: expect.stringContaining("Host prompt.") });
    expect(first.tools!.map((t) => t.function.name)).toEqual(["Read", "Write", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"]);
    const reply: OpenAIChatMessage = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "c1", type: "function", function: { name: "load_skill", arguments: '{"name":"pdf-forms"}' } },
        { id: "c2", type: "function", function: { name: "read_skill_resource", arguments: '{"name": "pdf-forms", "path"' } },
      ],
    };
    history.push(reply, ...(await runOpenAIToolCalls(ctx, reply.tool_calls!)));
    expect(history[2]).toEqual({ role: "tool", tool_call_id: "c1", content: expect.stringMatching(/^<skill-loaded name="pdf-forms">/) });
    expect(history[3]).toEqual({ role: "tool", tool_call_id: "c2", content: "Error: Invalid arguments for read_skill_resource: arguments must be a JSON object" });
    const second = toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages(history)));
    expect(second.tools!.map((t) => t.function.name)).toEqual(["Read", "load_skill", "read_skill_resource", "run_skill_script", "unload_skill"]);
    expect(second.messages.slice(1)).toEqual(history);
  });
});

describe("Anthropic", () => {
  it("writes Messages API tools and answers tool_use blocks", async () => {
    const ctx = await context();
    const tools = (await ctx.buildContext([])).tools;
    expect(toAnthropicTools(tools)[2]).toEqual({ name: "load_skill", description: tools[2]!.description, input_schema: tools[2]!.inputSchema });
    const results = await runAnthropicToolUses(ctx, [
      { type: "tool_use", id: "t1", name: "load_skill", input: { name: "with-resources" } },
      { type: "tool_use", id: "t2", name: "Bash", input: {} },
    ]);
    expect(results[0]).toEqual({ type: "tool_result", tool_use_id: "t1", content: expect.stringContaining("<skill-loaded") });
    expect(results[1]).toEqual({
      type: "tool_result",
      tool_use_id: "t2",
      content: 'Unknown tool "Bash". Available tools: Read, Write, load_skill, read_skill_resource, run_skill_script, unload_skill.',
      is_error: true,
    });
  });
});

describe("OpenAI Agents input filter", () => {
  it("reads items as messages and attaches a path rule to the function result that touched the path", async () => {
    const ctx = await context();
    const items = [
      { role: "user", content: "check the schema" },
      { type: "function_call", callId: "f1", name: "Read", arguments: '{"path":"src/db/schema.ts"}', status: "completed" },
      { type: "function_call_result", callId: "f1", name: "Read", status: "completed", output: { type: "text", text: "export const schema = {}" } },
    ] as never[];
    expect(fromAgentItems(items)).toEqual([
      { role: "user", content: "check the schema" },
      { role: "assistant", content: "", toolCalls: [{ id: "f1", name: "Read", args: { path: "src/db/schema.ts" } }] },
      { role: "tool", content: "export const schema = {}", toolCallId: "f1" },
    ]);
    const filter = skillctxInputFilter(ctx);
    const out = await filter({ modelData: { input: items, instructions: "ignored" }, agent: {} as never, context: undefined });
    expect(out.instructions).toContain("Host prompt.");
    expect(out.input.slice(0, 2)).toEqual(items.slice(0, 2));
    const result = out.input[2] as unknown as { output: { type: string; text: string } };
    expect(result.output.type).toBe("text");
    expect(result.output.text.startsWith("export const schema = {}\n\n<skill name=\"db-rules\" trigger=\"path\"")).toBe(true);
    expect(result.output.text).toContain(ATTACHED);
  });
});
