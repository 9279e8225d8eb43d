/**
 * Adversarial tests of the OpenAI and Anthropic adapters: hostile tool calls from the model (arguments
 * that are not JSON, huge or deeply nested arguments, unknown call kinds, repeated ids, entries that are
 * not calls), hostile histories, and a provider that answers the official client with malformed JSON or
 * with JSON of the wrong shape. The host must never crash: every answer is an error result or a typed
 * `SkillctxError`, and the context keeps working. Each attack runs in a fresh process (runIsolated).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// Shared by the scripts: a context with a Read host tool that counts its runs, the official clients, the
// fake provider, and a helper that names what a call threw.
const PRELUDE = `
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
import { fromOpenAIMessages, toOpenAIChatRequest, runOpenAIToolCalls, fromOpenAIInput, toOpenAIResponsesRequest, runOpenAIResponsesCalls } from "skillctx/openai";
import { fromAnthropicMessages, toAnthropicRequest, runAnthropicToolUses } from "skillctx/anthropic";
import { startFakeProvider } from ${JSON.stringify(path.join(ROOT, "test/helpers/fake-provider.ts"))};
const requireFromSkillctx = createRequire(${JSON.stringify(path.join(ROOT, "packages/skillctx/package.json"))});
const OpenAI = requireFromSkillctx("openai").default;
const Anthropic = requireFromSkillctx("@anthropic-ai/sdk").default;
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-adapters-"));
const runs = [];
const ctx = await AgentContext.create({ cwd: dir, guidance: false, tools: { host: [{ name: "Read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } }, execute: (args) => (runs.push(args), "read " + JSON.stringify(args).length + " bytes") }] }, skills: [{ name: "db-rules", description: "d", content: "Migrations first.", source: { kind: "inline", format: "inline", scope: "programmatic" }, trigger: { type: "path", paths: ["src/db/**"] } }] });
async function outcome(run) {
  try { await run(); return "(resolved)"; } catch (error) { return error?.code ?? ("raw " + (error?.name ?? typeof error) + ": " + error?.message); }
}
async function done(value) { await ctx.close(); rmSync(dir, { recursive: true, force: true }); return value; }
const HUGE = JSON.stringify({ path: "src/db/x.ts", blob: "x".repeat(8 * 1024 * 1024) });
const DEEP = "[".repeat(200000) + "]".repeat(200000);
`;

describe("adversarial: hostile tool calls from the model", () => {
  it("Chat Completions: bad JSON, 8 MB and 200,000-deep arguments, unknown kinds, repeated ids each get an answer; the next request is built (< 15 s, < 1 GB)", async () => {
    const result = await runIsolated<{
      answers: string[];
      ids: string[];
      runs: number;
      request: number;
      tail: string;
      bad: string[];
    }>(
      `${PRELUDE}
export default async () => {
  const tool_calls = [
    { id: "a", type: "function", function: { name: "Read", arguments: '{"path": "src/db/' } },
    { id: "b", type: "function", function: { name: "Read", arguments: HUGE } },
    { id: "c", type: "function", function: { name: "Read", arguments: DEEP } },
    { id: "d", type: "custom", custom: { name: "grammar", input: "x" } },
    { id: "e", type: "mystery" },
    { id: "f", type: "function", function: { name: 42, arguments: {} } },
    { id: "g", type: "function", function: { name: "Read", arguments: '{"path":"src/db/a.ts"}' } },
    { id: "g", type: "function", function: { name: "Read", arguments: '{"path":"src/db/b.ts"}' } },
    { id: "h", type: "function", function: { name: "NoSuchTool", arguments: "{}" } },
  ];
  const answers = await runOpenAIToolCalls(ctx, tool_calls);
  const history = [{ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls }, ...answers];
  const request = toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages(history)));
  const bad = [
    await outcome(() => runOpenAIToolCalls(ctx, "tool_calls")),
    await outcome(() => runOpenAIToolCalls(ctx, [null])),
    await outcome(() => runOpenAIToolCalls(ctx, [{ type: "function", function: { name: "Read", arguments: "{}" } }])),
  ];
  return done({
    answers: answers.map((a) => a.content.slice(0, 200)),
    ids: answers.map((a) => a.tool_call_id),
    runs: runs.length,
    request: request.messages.length,
    tail: JSON.stringify(request.messages.at(-1)).slice(0, 200),
    bad,
  });
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 15_000, mb: 1024 }, "chat tool calls");
    expect(value.ids).toEqual(["a", "b", "c", "d", "e", "f", "g", "g", "h"]);
    expect(value.answers[0]).toMatch(/^Error: Invalid arguments for Read: arguments must be a JSON/);
    expect(value.answers[1]).toMatch(/^read \d+ bytes$/);
    // The 200,000-deep array parses and reaches the host tool, whose own JSON.stringify fails: an error result.
    expect(value.answers[2]).toMatch(/^Error: Read failed: /);
    expect(value.answers[3]).toBe(
      'Error: skillctx runs function tool calls only; this call (type "custom") was not run.',
    );
    expect(value.answers[4]).toBe(
      'Error: skillctx runs function tool calls only; this call (type "mystery") was not run.',
    );
    expect(value.answers[5]).toBe("Error: this function call names no function; it was not run.");
    expect(value.answers[6]).toMatch(/^read \d+ bytes$/);
    expect(value.answers[7]).toMatch(/^Error: another tool call of this message has the id "g"/);
    expect(value.answers[8]).toMatch(/^Error: Unknown tool "NoSuchTool"/);
    // The huge call, the deep one and the first "g" reached the host tool; the repeated "g" did not.
    expect(value.runs).toBe(3);
    // No system message (no prompt, no catalog): the user message, the assistant message, nine answers.
    expect(value.request).toBe(2 + 9);
    expect(value.tail).toContain('"tool_call_id":"h"');
    expect(value.bad).toEqual(["TOOL_CALLS_INVALID", "TOOL_CALLS_INVALID", "TOOL_CALLS_INVALID"]);
  }, 70_000);

  it("Responses API and Anthropic: the same calls as items and tool_use blocks are answered or refused, never thrown (< 15 s, < 1 GB)", async () => {
    const result = await runIsolated<{
      responses: string[];
      anthropic: Array<[string, boolean]>;
      runs: number;
      requests: number[];
      bad: string[];
    }>(
      `${PRELUDE}
export default async () => {
  const items = [
    { type: "function_call", call_id: "a", name: "Read", arguments: "not json" },
    { type: "function_call", call_id: "b", name: "Read", arguments: HUGE },
    { type: "custom_tool_call", call_id: "c", name: "grammar", input: "x" },
    { type: "reasoning", id: "r", summary: [] },
    { type: "web_search_call", id: "w", status: "completed" },
    { type: "function_call", call_id: "b", name: "Read", arguments: "{}" },
  ];
  const outputs = await runOpenAIResponsesCalls(ctx, items);
  const input = [{ role: "user", content: "go" }, ...items, ...outputs];
  const responsesRequest = toOpenAIResponsesRequest(await ctx.buildContext(fromOpenAIInput(input)));

  const blocks = [
    { type: "text", text: "calling", citations: null },
    { type: "tool_use", id: "t1", name: "Read", input: "a string, not an object" },
    { type: "tool_use", id: "t2", name: "Read", input: JSON.parse(HUGE) },
    { type: "tool_use", id: "t2", name: "Read", input: {} },
    { type: "server_tool_use", id: "s1", name: "web_search", input: {} },
    { type: "tool_use", id: "t3", name: "bash", input: { command: "rm -rf /" } },
  ];
  const results = await runAnthropicToolUses(ctx, blocks);
  const history = [{ role: "user", content: "go" }, { role: "assistant", content: blocks }, { role: "user", content: results }];
  const anthropicRequest = toAnthropicRequest(await ctx.buildContext(fromAnthropicMessages(history)));
  const bad = [
    await outcome(() => runOpenAIResponsesCalls(ctx, [{ type: "function_call", name: "Read", arguments: "{}" }])),
    await outcome(() => runAnthropicToolUses(ctx, [{ type: "tool_use", name: "Read", input: {} }])),
    await outcome(() => runAnthropicToolUses(ctx, { content: [] })),
  ];
  return done({
    responses: outputs.map((o) => o.call_id + " " + String(o.output).slice(0, 50)),
    anthropic: results.map((r) => [r.tool_use_id + " " + String(r.content).slice(0, 50), r.is_error === true]),
    runs: runs.length,
    requests: [responsesRequest.input.length, anthropicRequest.messages.length],
    bad,
  });
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 15_000, mb: 1024 }, "responses and anthropic tool calls");
    expect(value.responses).toEqual([
      expect.stringMatching(/^a Error: Invalid arguments for Read: arguments must/),
      expect.stringMatching(/^b read \d+ bytes$/),
      expect.stringMatching(/^c Error: skillctx runs function calls only; this cus/),
      expect.stringMatching(/^b Error: another tool call of this message has the/),
    ]);
    expect(value.anthropic.map(([, isError]) => isError)).toEqual([true, false, true, true]);
    expect(value.anthropic.map(([text]) => text.split(" ")[0])).toEqual(["t1", "t2", "t2", "t3"]);
    expect(value.anthropic[3]![0]).toContain('Unknown tool "bash"');
    expect(value.runs).toBe(2);
    expect(value.requests).toEqual([1 + 6 + 4, 3]);
    expect(value.bad).toEqual(["TOOL_CALLS_INVALID", "TOOL_CALLS_INVALID", "TOOL_CALLS_INVALID"]);
  }, 70_000);
});

describe("adversarial: hostile histories", () => {
  it("histories that are not the framework's shape reject with MESSAGES_INVALID naming the message, never a raw error (< 5 s, < 400 MB)", async () => {
    const result = await runIsolated<{
      chat: string[];
      responses: string[];
      anthropic: string[];
      messages: string[];
      afterwards: number;
    }>(
      `${PRELUDE}
export default async () => {
  const revoked = Proxy.revocable({}, {}); revoked.revoke();
  const throwing = { role: "user", get content() { throw new Error("boom"); } };
  let deep = {}; for (let i = 0; i < 100000; i++) deep = { a: deep };
  const common = [null, "text", [null], [42], [revoked.proxy], [throwing], [{ role: "robot", content: "x" }], [{ role: "user", content: 5 }], [{ role: "user", content: [7] }]];
  const chat = [];
  for (const h of [...common, [{ role: "tool", content: "x" }], [{ role: "assistant", tool_calls: "x" }], [{ role: "assistant", tool_calls: [{ type: "function" }] }]]) chat.push(await outcome(() => fromOpenAIMessages(h)));
  const responses = [];
  for (const h of [...common, [{ type: "function_call", name: "Read" }], [{ type: "function_call_output", output: "x" }], [{ foo: 1 }]]) responses.push(await outcome(() => fromOpenAIInput(h)));
  const anthropic = [];
  for (const h of [...common, [{ role: "user", content: [{ type: "tool_result" }] }], [{ role: "assistant", content: [{ type: "tool_use", id: 1 }] }]]) anthropic.push(await outcome(() => fromAnthropicMessages(h)));
  // Converted, but more than the engine can fingerprint: a typed error from buildContext.
  const deepHistory = fromAnthropicMessages([{ role: "user", content: "x" }, { role: "assistant", content: [{ type: "tool_use", id: "t", name: "Read", input: deep }] }]);
  const messages = [(await outcome(() => ctx.buildContext(deepHistory)))];
  try { fromOpenAIMessages([{ role: "user", content: 5 }]); } catch (error) { messages.push(error.message); }
  const afterwards = toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages([{ role: "user", content: "still fine" }]))).messages.length;
  return done({ chat, responses, anthropic, messages, afterwards });
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 5_000, mb: 400 }, "hostile histories");
    expect(value.chat).toEqual(Array(12).fill("MESSAGES_INVALID"));
    // A string is a valid Responses input: one user message.
    expect(value.responses).toEqual(Array(12).fill("MESSAGES_INVALID").with(1, "(resolved)"));
    expect(value.anthropic).toEqual(Array(11).fill("MESSAGES_INVALID"));
    expect(value.messages).toEqual([
      "MESSAGES_INVALID",
      "fromOpenAIMessages: messages[0].content must be a string or an array of parts",
    ]);
    expect(value.afterwards).toBe(1);
  }, 40_000);
});

describe("adversarial: a provider that answers with malformed JSON", () => {
  it("the official clients reject, the adapters answer a wrong-shaped reply with typed errors, and the next turn works (< 20 s, < 500 MB)", async () => {
    const result = await runIsolated<{ outcomes: Record<string, string>; recovered: string[] }>(
      `${PRELUDE}
export default async () => {
  const provider = await startFakeProvider();
  const openai = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
  const anthropic = new Anthropic({ baseURL: provider.url, apiKey: "test", maxRetries: 0 });
  const chatHistory = [{ role: "user", content: "read src/db/a.ts" }];
  const items = [{ role: "user", content: "read src/db/a.ts" }];
  const messages = [{ role: "user", content: "read src/db/a.ts" }];
  const chat = async () => (await openai.chat.completions.create({ model: "m", ...toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages(chatHistory))) })).choices[0].message;
  const responses = async () => (await openai.responses.create({ model: "m", ...toOpenAIResponsesRequest(await ctx.buildContext(fromOpenAIInput(items))) })).output;
  const claude = async () => (await anthropic.messages.create({ model: "m", max_tokens: 10, ...toAnthropicRequest(await ctx.buildContext(fromAnthropicMessages(messages))) })).content;
  const outcomes = {};
  provider.script({ raw: '{"choices": [{"message": {"role": "assistant", "content": "tru' }, { raw: "not json at all" }, { raw: '{"content": [{"type": "text", "text": "x"}, ' });
  outcomes.chatTruncated = await outcome(chat);
  outcomes.responsesNotJson = await outcome(responses);
  outcomes.anthropicTruncated = await outcome(claude);
  // JSON of the wrong shape: the client passes it through; the adapters refuse it with typed errors.
  provider.script(
    { body: { choices: [{ message: { role: "assistant", content: null, tool_calls: [{ type: "function", function: { name: "Read" } }, "call"] } }] } },
    { body: { output: [{ type: "function_call", name: "Read", arguments: "{}" }] } },
    { body: { content: [{ type: "tool_use", name: "Read", input: null }, null], stop_reason: "tool_use" } },
  );
  const bad = await chat();
  outcomes.chatRun = await outcome(() => runOpenAIToolCalls(ctx, bad.tool_calls));
  outcomes.chatHistory = await outcome(() => fromOpenAIMessages([...chatHistory, bad]));
  const output = await responses();
  outcomes.responsesRun = await outcome(() => runOpenAIResponsesCalls(ctx, output));
  outcomes.responsesHistory = await outcome(() => fromOpenAIInput([...items, ...output]));
  const content = await claude();
  outcomes.anthropicRun = await outcome(() => runAnthropicToolUses(ctx, content));
  outcomes.anthropicHistory = await outcome(() => fromAnthropicMessages([...messages, { role: "assistant", content }]));
  // The conversation goes on with a well-formed answer.
  provider.script({ text: "fine" }, { text: "fine" }, { text: "fine" });
  const recovered = [(await chat()).content, (await responses())[0].content[0].text, (await claude())[0].text];
  await provider.close();
  return done({ outcomes, recovered });
};`,
      { timeoutMs: 40_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 500 }, "malformed provider answers");
    const outcomes = value.outcomes;
    for (const key of ["chatTruncated", "responsesNotJson", "anthropicTruncated"])
      expect(outcomes[key], key).toMatch(/^raw \w+/);
    expect(outcomes.chatTruncated).not.toContain("skillctx");
    expect({ ...outcomes, chatTruncated: "", responsesNotJson: "", anthropicTruncated: "" }).toEqual({
      chatTruncated: "",
      responsesNotJson: "",
      anthropicTruncated: "",
      chatRun: "TOOL_CALLS_INVALID",
      chatHistory: "MESSAGES_INVALID",
      responsesRun: "TOOL_CALLS_INVALID",
      responsesHistory: "MESSAGES_INVALID",
      anthropicRun: "TOOL_CALLS_INVALID",
      anthropicHistory: "MESSAGES_INVALID",
    });
    expect(value.recovered).toEqual(["fine", "fine", "fine"]);
  }, 50_000);
});
