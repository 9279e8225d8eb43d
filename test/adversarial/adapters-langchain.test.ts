/**
 * Hostile model output through the LangChain.js adapter: a real `createAgent` with `skillctxMiddleware`,
 * and a scripted model (`fakeModel`) that calls tools that do not exist, sends malformed and huge
 * arguments, thousands of calls at once, and arguments nested past what JSON.stringify can walk. Each
 * attack runs in a fresh process (runIsolated) with the bound stated in the test's name.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const HELPER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../helpers/langchain.ts");

// Shared by the scripts: a context with a host tool that records its calls, and an agent whose model
// answers with the given AIMessages (each with tool calls), then with "done".
const PRELUDE = `
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
import { skillctxMiddleware } from "skillctx/langchain";
import { lc } from ${JSON.stringify(HELPER)};
const { AIMessage, HumanMessage } = lc.messages;
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-langchain-"));
const calls = [];
const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: [{ name: "notes", description: "Keeps notes.", content: "Notes body.", source: { kind: "inline", format: "inline", scope: "programmatic" }, trigger: { type: "on-demand" } }], tools: { host: [{ name: "Read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } },
    execute: async (args) => { calls.push(typeof args.path === "string" ? args.path.length : typeof args.path); return "file text"; } }] } });
const toolCalls = (list, turn) => list.map(([name, args], i) => ({ id: "t" + turn + "-" + i, name, args, type: "tool_call" }));
async function runAgent(turns) {
  const model = lc.testing.fakeModel();
  turns.forEach((list, i) => model.respond(new AIMessage({ id: "turn-" + i, content: "", tool_calls: toolCalls(list, i) })));
  model.respond(new AIMessage({ id: "final", content: "done" }));
  const agent = lc.langchain.createAgent({ model, middleware: [skillctxMiddleware(ctx)] });
  try {
    const result = await agent.invoke({ messages: [new HumanMessage("go")] });
    const last = model.calls.at(-1).messages;
    const tools = last.filter((m) => m.type === "tool");
    return { final: result.messages.at(-1).content, modelCalls: model.calls.length, tools: tools.map((m) => ({ id: m.tool_call_id, status: m.status, length: String(m.content).length, text: String(m.content).slice(0, 160) })) };
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
`;

interface Outcome {
  final: string;
  modelCalls: number;
  tools: { id: string; status: string; length: number; text: string }[];
  calls: (number | string)[];
}

describe("adversarial: hostile tool calls through the LangChain.js middleware", () => {
  it("answers unknown tool names and malformed arguments with error ToolMessages, and the run goes on (< 20 s, < 600 MB)", async () => {
    const result = await runIsolated<Outcome>(
      `${PRELUDE}
export default async () => {
  const unknown = ["no_such_tool", "", "__proto__", "constructor", "x".repeat(100000), "Read\\u0000", "mcp__ghost__tool"];
  const malformed = [["Read", "not json {"], ["Read", [1, 2]], ["Read", 42], ["Read", { path: 42 }], ["load_skill", { name: 42 }], ["load_skill", "{}"]];
  const many = Array.from({ length: 500 }, (_, i) => ["made_up_" + i, { i }]);
  const outcome = await runAgent([[...unknown.map((name) => [name, {}]), ...malformed], many]);
  return { ...outcome, calls };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 600 });
    expect(value.final).toBe("done");
    expect(value.modelCalls).toBe(3);
    // Every call has its answer, in order, and only the well-formed Read reached the host's tool.
    expect(value.tools.map((t) => t.id)).toEqual([
      ...Array.from({ length: 13 }, (_, i) => `t0-${i}`),
      ...Array.from({ length: 500 }, (_, i) => `t1-${i}`),
    ]);
    const [unknown, malformed, many] = [value.tools.slice(0, 7), value.tools.slice(7, 13), value.tools.slice(13)];
    for (const t of unknown) expect(t.status).toBe("error");
    expect(unknown[0]!.text).toMatch(/^Unknown tool "no_such_tool"\. Available tools: Read, load_skill, /);
    expect(unknown[1]!.text).toBe("The tool name must be a non-empty string.");
    expect(unknown[4]!.length).toBeLessThan(100_000 + 500);
    expect(malformed.map((t) => t.status)).toEqual(["error", "success", "success", "success", "error", "error"]);
    expect(malformed[0]!.text).toBe("Invalid arguments for Read: arguments must be a JSON object");
    expect(malformed[4]!.text).toMatch(/^Invalid arguments for load_skill: name:/);
    expect(value.calls).toEqual(["undefined", "undefined", "number"]);
    expect(many.every((t) => t.status === "error" && t.text.startsWith('Unknown tool "made_up_'))).toBe(true);
  }, 70_000);

  it("runs an 8 MiB argument, a 1 MiB skill name and 2,000 calls in one message (< 30 s, < 900 MB)", async () => {
    const result = await runIsolated<Outcome>(
      `${PRELUDE}
export default async () => {
  const huge = "a".repeat(8 * 1024 * 1024);
  const first = [["Read", { path: huge }], ["load_skill", { name: "x".repeat(1024 * 1024) }]];
  const wide = Array.from({ length: 2000 }, (_, i) => ["Read", { path: "file-" + i + ".txt" }]);
  const outcome = await runAgent([first, wide]);
  return { ...outcome, tools: [...outcome.tools.slice(0, 3), outcome.tools.at(-1)], count: outcome.tools.length, calls: [calls[0], calls.length] };
};`,
      { timeoutMs: 90_000, maxOldSpaceMb: 2048 },
    );
    const value = expectBounded(result, { ms: 30_000, mb: 900 }) as Outcome & { count: number };
    expect(value.final).toBe("done");
    expect(value.count).toBe(2 + 2000);
    expect(value.calls).toEqual([8 * 1024 * 1024, 2001]);
    expect(value.tools[0]).toMatchObject({ id: "t0-0", status: "success", text: "file text" });
    expect(value.tools[1]).toMatchObject({ id: "t0-1", status: "error" });
    // The refusal quotes the name it was given (so it costs what the model sent), no more.
    expect(value.tools[1]!.length).toBeLessThan(1024 * 1024 + 200);
    expect(value.tools[3]).toMatchObject({ id: "t1-1999", status: "success", text: "file text" });
  }, 100_000);

  it("runs arguments nested 2,000 deep, and reads arguments nested 100,000 deep as a note instead of overflowing the stack (< 20 s)", async () => {
    // LangGraph's own state handling overflows the stack at about 5,000 levels, before the middleware
    // runs; the second half therefore calls the middleware's wrapModelCall as createAgent would.
    const result = await runIsolated<{ final: string; calls: unknown[]; outcome: string; sent: number }>(
      `${PRELUDE}
const nest = (depth) => { let value = {}; for (let i = 0; i < depth; i++) value = { a: value }; return value; };
export default async () => {
  const ctxDeep = await AgentContext.create({ cwd: dir, guidance: false });
  const middleware = skillctxMiddleware(ctxDeep);
  const messages = [new HumanMessage("go"), new AIMessage({ content: "", tool_calls: [{ id: "d1", name: "Read", args: nest(100000), type: "tool_call" }] })];
  let outcome, sent = -1;
  try {
    const answer = await middleware.wrapModelCall({ messages, tools: middleware.tools, systemMessage: undefined, systemPrompt: "", state: { messages }, runtime: {} },
      async (request) => { sent = request.messages.length; return new AIMessage("x"); });
    outcome = answer.content;
  } catch (error) {
    outcome = "threw " + (error?.code ?? error?.name) + ": " + String(error?.message).slice(0, 200);
  }
  await ctxDeep.close();
  const { final } = await runAgent([[["Read", nest(2000)]]]);
  return { final, calls, outcome, sent };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 600 });
    expect(value.final).toBe("done");
    expect(value.calls).toEqual(["undefined"]);
    expect(value.outcome).toBe("x");
    expect(value.sent).toBe(2);
  }, 70_000);
});
