/**
 * Adversarial model output through the AI SDK and OpenAI Agents JS adapters, in the real loops: calls
 * to tools that do not exist (including names of `Object.prototype`), malformed and huge arguments,
 * arguments nested deeper than any reader's stack, and tool names that collide with the host's. Each
 * run is a fresh process (runIsolated) with the bounds it states; the run must end normally, every bad
 * call answered to the model, nothing run that should not be.
 */
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const PRELUDE = `
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
import { createAiSdkLoop } from "skillctx/ai-sdk";
import { createOpenAIAgentsLoop } from "skillctx/openai-agents";
const need = createRequire(path.resolve("packages/skillctx/package.json"));
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-adapters-"));
const log = [];
const schema = { type: "object", properties: { path: { type: "string" } } };
const hostTools = [
  { name: "Read", description: "Read a file", inputSchema: schema, execute: (args) => (log.push("Read " + String(args?.path ?? "").length), "ok") },
  // A host tool under a skill tool's name: the engine keeps its own load_skill and says so.
  { name: "load_skill", description: "The host's own", inputSchema: schema, execute: () => (log.push("host load_skill"), "host") },
];
const skills = [{ name: "notes", description: "Keeps notes.", content: "Write notes.", source: { kind: "inline", format: "inline", scope: "programmatic" }, trigger: { type: "on-demand" } }];
const deep = (depth) => "[".repeat(depth) + "]".repeat(depth);
const UNKNOWN = ["no_such_tool", "constructor", "__proto__", "toString", "hasOwnProperty"];
`;

describe("adversarial: AI SDK adapter", () => {
  it("unknown and prototype tool names, malformed, 16 MB and 3,000-deep arguments, colliding names: every call answered, the run ends normally (< 30 s, < 1.5 GB)", async () => {
    const result = await runIsolated<{ text: string; steps: string[][]; log: string[]; diagnostics: string[] }>(
      `${PRELUDE}
const ai = need("ai");
const { MockLanguageModelV3 } = need("ai/test");
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const turns = [
  UNKNOWN.map((name) => [name, "{}"]),
  [["Read", "{not json"], ["load_skill", '{"name":']],
  [["Read", JSON.stringify({ path: "x".repeat(16 * 1024 * 1024) })]],
  [["Read", '{"path":"a","deep":' + deep(3000) + "}"]],
  [["load_skill", JSON.stringify({ name: "nope" })], ["host_tool", "{}"]],
];
export default async () => {
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, tools: { host: hostTools }, skills });
  const diagnostics = [];
  const loop = createAiSdkLoop(ctx, { onStep: (step) => diagnostics.push(...step.diagnostics.map((d) => d.code)) });
  // The host's own tool in the set, under a name of its own.
  loop.tools.host_tool = ai.tool({ description: "host", inputSchema: ai.jsonSchema({ type: "object" }), execute: async () => (log.push("host_tool"), "host ok") });
  let n = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const turn = turns[n++];
      if (turn === undefined) return { content: [{ type: "text", text: "end" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      return { content: turn.map(([toolName, input], i) => ({ type: "tool-call", toolCallId: "t" + n + "-" + i, toolName, input })), finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
    },
  });
  const result = await ai.generateText({ model, ...loop, stopWhen: ai.stepCountIs(10), prompt: "go" });
  const steps = result.steps.map((step) => step.content.filter((part) => part.type === "tool-result" || part.type === "tool-error").map((part) => part.type + " " + part.toolName + ": " + String(part.type === "tool-error" ? part.error : part.output?.content ?? part.output).slice(0, 200)));
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return { text: result.text, steps, log, diagnostics: [...new Set(diagnostics)] };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 30_000, mb: 1_500 });
    expect(value.text).toBe("end");
    // Unknown names, "constructor" and "__proto__" included, are each answered as unavailable; nothing ran.
    expect(value.steps[0]).toHaveLength(UNKNOWN_NAMES.length);
    UNKNOWN_NAMES.forEach((name, i) =>
      expect(value.steps[0]![i]).toMatch(
        new RegExp(`^tool-error ${name}: Model tried to call unavailable tool '${name}'`),
      ),
    );
    // Malformed JSON is answered with the SDK's parse error; no tool ran for it.
    expect(value.steps[1]!.map((line) => line.split(":")[0])).toEqual(["tool-error Read", "tool-error load_skill"]);
    // The 16 MB and the 3,000-deep arguments reach the host tool, and the steps after them work.
    expect(value.steps[2]).toEqual(["tool-result Read: ok"]);
    expect(value.steps[3]).toEqual(["tool-result Read: ok"]);
    // The skill tool keeps its name (the host's load_skill is left out with a warning); the host's own entry runs.
    expect(value.steps[4]).toEqual([
      'tool-result load_skill: Unknown skill "nope". Available skills: notes.',
      "tool-result host_tool: host ok",
    ]);
    expect(value.log).toEqual([`Read ${16 * 1024 * 1024}`, "Read 1", "host_tool"]);
    expect(value.diagnostics).toContain("TOOL_NAME_CLASH");
  }, 90_000);
});

describe("adversarial: OpenAI Agents JS adapter", () => {
  it("unknown and prototype tool names, malformed, 16 MB and 100,000-deep arguments, colliding names: every call answered, the run ends normally (< 30 s, < 1.5 GB)", async () => {
    const result = await runIsolated<{ final: string; results: string[][]; log: string[]; raised: string }>(
      `${PRELUDE}
const agents = need("@openai/agents");
const turns = [
  UNKNOWN.map((name) => [name, "{}"]),
  [["Read", "{not json"]],
  [["Read", JSON.stringify({ path: "x".repeat(16 * 1024 * 1024) })]],
  [["Read", '{"path":"a","deep":' + deep(100000) + "}"]],
  [["load_skill", JSON.stringify({ name: "nope" })]],
];
function scripted(list) {
  const requests = [];
  let n = 0;
  return {
    requests,
    async getResponse(request) {
      requests.push(request.input);
      const turn = list[n++];
      if (turn === undefined) return { usage: new agents.Usage(), output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "end" }] }] };
      return { usage: new agents.Usage(), output: turn.map(([name, args], i) => ({ type: "function_call", callId: "t" + n + "-" + i, name, arguments: args, status: "completed" })) };
    },
    async *getStreamedResponse() {},
  };
}
export default async () => {
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, tools: { host: hostTools }, skills });
  const loop = createOpenAIAgentsLoop(ctx, { tool: agents.tool });
  const model = scripted(turns);
  const agent = new agents.Agent({ name: "a", tools: loop.tools });
  const run = await new agents.Runner({ model, tracingDisabled: true }).run(agent, "go", { callModelInputFilter: loop.callModelInputFilter, toolNotFoundBehavior: "return_error_to_model", maxTurns: 10 });
  const results = model.requests.slice(1).map((input) => input.filter((item) => item.type === "function_call_result" && item.callId.startsWith("t" + model.requests.indexOf(input) + "-")).map((item) => item.name + ": " + String(item.output?.text ?? item.output).slice(0, 200)));
  // Without return_error_to_model the runner itself ends the run on an unknown tool (its default).
  let raised = "(resolved)";
  try {
    await new agents.Runner({ model: scripted([[["no_such_tool", "{}"]]]), tracingDisabled: true }).run(agent, "go", { callModelInputFilter: loop.callModelInputFilter });
  } catch (error) {
    raised = error?.constructor?.name ?? String(error);
  }
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return { final: run.finalOutput, results, log, raised };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 30_000, mb: 1_500 });
    expect(value.final).toBe("end");
    expect(value.results[0]).toEqual(UNKNOWN_NAMES.map((name) => `${name}: Tool '${name}' not found.`));
    expect(value.results[1]).toHaveLength(1);
    expect(value.results[1]![0]).toMatch(/^Read: An error occurred while parsing tool arguments/);
    expect(value.results[2]).toEqual(["Read: ok"]);
    expect(value.results[3]).toEqual(["Read: ok"]);
    expect(value.results[4]).toEqual(['load_skill: Unknown skill "nope". Available skills: notes.']);
    expect(value.log).toEqual([`Read ${16 * 1024 * 1024}`, "Read 1"]);
    expect(value.raised).toBe("ModelBehaviorError");
  }, 90_000);
});

const UNKNOWN_NAMES = ["no_such_tool", "constructor", "__proto__", "toString", "hasOwnProperty"];
