/**
 * Hostile sub-agent runners and models for `execute_skill`: a runner that never returns (and ignores
 * its signal), a runner and a model that recurse into `execute_skill`, and a 50 MB answer. Each run is
 * a fresh process (runIsolated) with the bounds it states; nothing hangs, recursion stops, the answer
 * that reaches the parent is capped.
 */
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const PRELUDE = `
import { createRequire } from "node:module";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
import { aiSdkSubAgent } from "skillctx/ai-sdk";
const need = createRequire(path.resolve("packages/skillctx/package.json"));
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-sub-agent-"));
const skills = [{ name: "worker", description: "Works.", content: "Do the work.", source: { kind: "inline", format: "inline", scope: "programmatic" }, trigger: { type: "on-demand" } }];
`;

describe("adversarial: sub-agents", () => {
  it("a runner that never returns and ignores its signal is cancelled by the caller's abort and by close() (< 20 s, < 600 MB)", async () => {
    const result = await runIsolated<{ aborted: string; closed: string; closeMs: number }>(
      `${PRELUDE}
export default async () => {
  const never = () => new Promise(() => {});
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills, subAgents: { run: never } });
  const controller = new AbortController();
  const first = ctx.callTool("execute_skill", { name: "worker", request: "go" }, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("stop")), 50);
  const aborted = await first.then(() => "resolved", (error) => String(error?.message ?? error));
  const second = ctx.callTool("execute_skill", { name: "worker", request: "go" });
  await new Promise((r) => setTimeout(r, 50));
  const started = performance.now();
  await ctx.close();
  const closeMs = performance.now() - started;
  const closed = await second.then(() => "resolved", (error) => String(error?.code ?? error));
  return { aborted, closed, closeMs };
};`,
      { timeoutMs: 20_000 },
    );
    const value = expectBounded(result, { ms: 15_000, mb: 600 });
    expect(value.aborted).toBe("stop");
    expect(value.closed).toBe("CONTEXT_CLOSED");
    expect(value.closeMs).toBeLessThan(5_000);
  });

  it("recursion into execute_skill is bounded: a runner calling back stops at the cap; a model calling it gets an unknown-tool error (< 30 s, < 800 MB)", async () => {
    const result = await runIsolated<{
      depth: number;
      innermost: string;
      childTools: string[];
      childResult: string;
      answer: string;
    }>(
      `${PRELUDE}
const { MockLanguageModelV3 } = need("ai/test");
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
export default async () => {
  let depth = 0;
  let innermost = "";
  let ctx;
  const recursing = async () => {
    depth++;
    const inner = await ctx.callTool("execute_skill", { name: "worker", request: "again" });
    if (inner.isError) innermost ||= inner.content;
    return { text: inner.content.slice(0, 100), messages: [] };
  };
  ctx = await AgentContext.create({ cwd: dir, guidance: false, skills, subAgents: { run: recursing } });
  await ctx.callTool("execute_skill", { name: "worker", request: "start" });
  await ctx.close();

  // A sub-agent model that calls execute_skill (not among its tools) 50 times, then answers.
  let calls = 0;
  let childTools = [];
  let childResult = "";
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls++;
      childTools = (options.tools ?? []).map((t) => t.name);
      const last = options.prompt.at(-1);
      if (last.role === "tool") childResult = JSON.stringify(last.content[0].output);
      if (calls > 50) return { content: [{ type: "text", text: "gave up" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
      return { content: [{ type: "tool-call", toolCallId: "t" + calls, toolName: "execute_skill", input: JSON.stringify({ name: "worker", request: "deeper" }) }], finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
    },
  });
  const ctx2 = await AgentContext.create({ cwd: dir, guidance: false, skills, subAgents: { maxSteps: 100, run: aiSdkSubAgent(model) } });
  const answer = (await ctx2.callTool("execute_skill", { name: "worker", request: "start" })).content;
  await ctx2.close();
  return { depth, innermost, childTools, childResult, answer };
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 25_000, mb: 800 });
    expect(value.depth).toBe(8);
    expect(value.innermost).toContain("8 sub-agents are already running");
    expect(value.childTools).not.toContain("execute_skill");
    expect(value.childResult).toContain("execute_skill");
    expect(value.answer).toBe("gave up");
  });

  it("a 50 MB answer reaches the parent capped at subAgents.maxAnswerBytes with a note and a diagnostic (< 20 s, < 1 GB)", async () => {
    const result = await runIsolated<{ bytes: number; note: boolean; diagnostic: boolean; small: number }>(
      `${PRELUDE}
export default async () => {
  const huge = "x".repeat(50 * 1024 * 1024);
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills, subAgents: { run: async () => ({ text: huge, messages: [] }) } });
  const answer = await ctx.callTool("execute_skill", { name: "worker", request: "go" });
  const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
  const ctx2 = await AgentContext.create({ cwd: dir, guidance: false, skills, subAgents: { maxAnswerBytes: 1000, run: async () => ({ text: huge, messages: [] }) } });
  const small = Buffer.byteLength((await ctx2.callTool("execute_skill", { name: "worker", request: "go" })).content);
  await ctx.close();
  await ctx2.close();
  return {
    bytes: Buffer.byteLength(answer.content),
    note: answer.content.includes("the sub-agent's answer is cut here"),
    diagnostic: step.diagnostics.some((d) => d.code === "SUB_AGENT_ANSWER_CUT"),
    small,
  };
};`,
      { timeoutMs: 20_000 },
    );
    const value = expectBounded(result, { ms: 15_000, mb: 1_024 });
    expect(value.bytes).toBeLessThanOrEqual(65_536);
    expect(value.note).toBe(true);
    expect(value.diagnostic).toBe(true);
    expect(value.small).toBeLessThanOrEqual(1_000);
  });
});
