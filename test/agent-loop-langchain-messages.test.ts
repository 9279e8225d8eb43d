/**
 * The LangChain.js converters and tools for a loop of the host's own: messages both ways (tool calls,
 * tool results and attached text included), the tools as LangChain tools, and running an AIMessage's
 * tool calls through the context.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { HostTool, Message } from "skillctx";
import {
  skillctxMiddleware,
  fromLangChainMessages,
  runLangChainToolCalls,
  toLangChainMessages,
  toLangChainTools,
} from "skillctx/langchain";
import { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { useEngineFixture } from "./helpers/engine-fixture.js";

const fixture = useEngineFixture();

const RULES = "---\npaths: src/db/**\n---\nSchema changes need a migration file.\n";
const TAX = "---\ntriggers: [tax form]\n---\nA tax form has a payer and a payee.\n";
const read: HostTool = {
  name: "read_file",
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  execute: async (args) => `contents of ${(args as { path: string }).path}`,
};

async function context() {
  const repo = await fixture.repo({
    ".openhands/microagents/db-rules.md": RULES,
    ".openhands/microagents/tax.md": TAX,
  });
  return fixture.context({ cwd: repo.dir, tools: { host: [read] } });
}

describe("skillctxMiddleware and the agent's own systemPrompt", () => {
  it("keeps createAgent's systemPrompt first, then the context's system after a blank line", async () => {
    const repo = await fixture.repo({ ".openhands/microagents/tax.md": TAX });
    const ctx = await fixture.context({ cwd: repo.dir, systemPrompt: "Context prompt." });
    const middleware = skillctxMiddleware(ctx);
    const seen: string[] = [];
    const messages = [new HumanMessage("hello")];
    const request = {
      messages,
      tools: middleware.tools,
      systemMessage: new SystemMessage("Agent prompt."),
      systemPrompt: "Agent prompt.",
      state: { messages },
      runtime: {},
    };
    await middleware.wrapModelCall!(
      request as never,
      (async (r: { systemMessage: SystemMessage }) => {
        seen.push(r.systemMessage.text);
        return new AIMessage("ok");
      }) as never,
    );
    expect(seen[0]).toMatch(/^Agent prompt\.\n\nContext prompt\./);
  });
});

describe("fromLangChainMessages", () => {
  it("maps each message to one skillctx message, with tool calls, tool call ids and content blocks", () => {
    const image = { type: "image", url: "https://example.test/a.png" };
    const out = fromLangChainMessages([
      new SystemMessage("Be brief."),
      new HumanMessage({ content: [{ type: "text", text: "Look at this" }, image] }),
      new AIMessage({
        content: "Reading.",
        tool_calls: [{ id: "c1", name: "read_file", args: { path: "src/db/schema.ts" }, type: "tool_call" }],
      }),
      new ToolMessage({ content: "export const schema = {};", tool_call_id: "c1", name: "read_file" }),
      new ChatMessage({ content: "From a generic user", role: "user" }),
    ]);
    expect(out).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "Look at this" }, image] },
      {
        role: "assistant",
        content: "Reading.",
        toolCalls: [{ id: "c1", name: "read_file", args: { path: "src/db/schema.ts" } }],
      },
      { role: "tool", content: "export const schema = {};", toolCallId: "c1" },
      { role: "user", content: "From a generic user" },
    ]);
  });
});

describe("toLangChainMessages", () => {
  it("puts a step's attachments as extra text content of their message, inside the ToolMessage for a tool result", async () => {
    const ctx = await context();
    const history = fromLangChainMessages([
      new HumanMessage("Fill the tax form"),
      new AIMessage({
        content: "",
        tool_calls: [{ id: "c1", name: "read_file", args: { path: "src/db/schema.ts" }, type: "tool_call" }],
      }),
      new ToolMessage({ content: "export const schema = {};", tool_call_id: "c1" }),
    ]);
    const step = await ctx.buildContext(history);
    expect(step.attachments.map((a) => a.messageIndex)).toEqual([0, 2]);
    const [human, ai, tool] = toLangChainMessages(step.messages);

    expect(human).toBeInstanceOf(HumanMessage);
    expect(human!.content).toEqual([
      { type: "text", text: "Fill the tax form" },
      { type: "text", text: step.attachments[0]!.text },
    ]);
    expect(ai).toBeInstanceOf(AIMessage);
    expect((ai as AIMessage).tool_calls).toEqual([
      { id: "c1", name: "read_file", args: { path: "src/db/schema.ts" }, type: "tool_call" },
    ]);
    expect(tool).toBeInstanceOf(ToolMessage);
    const toolMessage = tool as ToolMessage;
    expect(toolMessage.tool_call_id).toBe("c1");
    expect(toolMessage.name).toBe("read_file");
    expect(toolMessage.content).toEqual([
      { type: "text", text: "export const schema = {};" },
      { type: "text", text: step.attachments[1]!.text },
    ]);
    expect(step.attachments[1]!.text).toContain("Schema changes need a migration file.");
  });

  it("round-trips messages without attachments", () => {
    const messages: Message[] = [
      { role: "system", content: "S" },
      { role: "user", content: "U" },
      { role: "assistant", content: "A", toolCalls: [{ id: "t1", name: "read_file", args: { path: "x" } }] },
      { role: "tool", content: "R", toolCallId: "t1" },
      { role: "assistant", content: "done" },
    ];
    expect(fromLangChainMessages(toLangChainMessages(messages))).toEqual(messages);
  });
});

describe("toLangChainTools and runLangChainToolCalls", () => {
  it("gives each tool its JSON Schema as the model sees it, and answers a tool call with a ToolMessage", async () => {
    const ctx = await context();
    const tools = toLangChainTools(ctx);
    expect(tools.map((tool) => tool.name)).toEqual(ctx.listTools({ all: true }).map((tool) => tool.name));
    const readTool = tools.find((tool) => tool.name === "read_file")!;
    expect(convertToOpenAITool(readTool).function).toEqual({
      name: "read_file",
      description: "Read a file",
      parameters: read.inputSchema,
    });
    const viaCall = await readTool.invoke({ id: "c9", name: "read_file", args: { path: "a.txt" }, type: "tool_call" });
    expect(viaCall).toBeInstanceOf(ToolMessage);
    expect(viaCall).toMatchObject({
      tool_call_id: "c9",
      name: "read_file",
      status: "success",
      content: "contents of a.txt",
    });
    expect(await readTool.invoke({ path: "b.txt" })).toBe("contents of b.txt");
  });

  it("runs an AIMessage's tool calls in order, with error ToolMessages for bad ones", async () => {
    const ctx = await context();
    const results = await runLangChainToolCalls(ctx, [
      { id: "c1", name: "read_file", args: { path: path.join("src", "a.ts") } },
      { id: "c2", name: "no_such_tool", args: {} },
      { id: "c3", name: "load_skill", args: { name: 42 } },
    ]);
    expect(results.map((m) => [m.tool_call_id, m.name, m.status])).toEqual([
      ["c1", "read_file", "success"],
      ["c2", "no_such_tool", "error"],
      ["c3", "load_skill", "error"],
    ]);
    expect(results[0]!.content).toBe("contents of src/a.ts");
    expect(results[1]!.content).toMatch(/^Unknown tool "no_such_tool"\. Available tools: read_file, load_skill/);
    expect(results[2]!.content).toMatch(/^Invalid arguments for load_skill: name:/);
  });
});
