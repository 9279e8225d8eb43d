/**
 * Adversarial listeners of the event stream: one that throws on every event, one that calls back into
 * the context (steps, tool calls, close) from inside an event, one that is slow, and 100,000 events
 * through one context. None breaks a step: results stay what they are without listeners, failures are
 * diagnostics, and memory stays bounded. Each runs in a fresh process (runIsolated) with the bound it checks.
 */
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const PRELUDE = `
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-events-"));
const inline = { kind: "inline", format: "inline", scope: "programmatic" };
const skills = [
  { name: "docker", description: "Containers.", content: "Use multi-stage builds.", source: inline, trigger: { type: "keyword", keywords: ["docker"] } },
  { name: "pdf", description: "PDF forms.", content: "Read the fields first.", source: inline, trigger: { type: "on-demand" } },
];
const tools = [{ name: "echo", execute: (args) => JSON.stringify(args) }];
// One scripted session; returns what the model would see, minus timings.
async function session(ctx) {
  const first = await ctx.buildContext([{ role: "user", content: "docker please" }]);
  const load = await ctx.callTool("load_skill", { name: "pdf" });
  const echo = await ctx.callTool("echo", { a: 1 });
  const second = await ctx.buildContext([{ role: "user", content: "docker please" }, { role: "user", content: "next" }]);
  const strip = (step) => ({ system: step.system, messages: step.messages, tools: step.tools.map((t) => t.name), activated: step.activated });
  return { first: strip(first), load, echo, second: strip(second), codes: [...first.diagnostics, ...second.diagnostics].map((d) => d.code) };
}
`;

describe("adversarial: event listeners", () => {
  it("a listener that throws on every event changes nothing the model sees; each failure is a diagnostic (< 20 s, < 400 MB)", async () => {
    const result = await runIsolated<{ same: boolean; failures: number; plainCodes: string[] }>(
      `${PRELUDE}
export default async () => {
  const plain = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { host: tools } });
  const expected = await session(plain);
  const hostile = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { host: tools }, telemetry: { onEvent: () => { throw new Error("boom"); } } });
  hostile.on("step", () => { throw "not even an Error"; });
  const got = await session(hostile);
  const third = await hostile.buildContext([{ role: "user", content: "docker please" }, { role: "user", content: "next" }, { role: "user", content: "more" }]);
  const failures = third.diagnostics.filter((d) => d.code === "EVENT_LISTENER_FAILED").length + got.codes.filter((c) => c === "EVENT_LISTENER_FAILED").length;
  const { codes, ...rest } = got;
  const { codes: plainCodes, ...expectedRest } = expected;
  await plain.close(); await hostile.close();
  rmSync(dir, { recursive: true, force: true });
  return { same: JSON.stringify(rest) === JSON.stringify(expectedRest), failures, plainCodes };
};`,
      { timeoutMs: 20_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 400 });
    expect(value.same).toBe(true);
    expect(value.plainCodes).toEqual([]);
    // Every event of the session and the last step: two throwing listeners on each step, one on the rest.
    expect(value.failures).toBeGreaterThanOrEqual(8);
  });

  it("a listener that calls back into the context (steps, tool calls, close) neither deadlocks nor breaks the step (< 20 s, < 400 MB)", async () => {
    const result = await runIsolated<{ stepOk: boolean; reentrant: string[]; closedCode: string }>(
      `${PRELUDE}
export default async () => {
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { host: tools } });
  const reentrant = [];
  let depth = 0;
  ctx.on("step", (event) => {
    if (depth++ > 0) return;
    // A nested step and a skill-tool call: both wait their turn behind the step that emitted this event.
    ctx.buildContext([{ role: "user", content: "nested" }]).then((s) => reentrant.push("step:" + s.messages.length), (e) => reentrant.push("step-error:" + e.code));
    ctx.callTool("load_skill", { name: "pdf" }).then((r) => reentrant.push("load:" + (r.isError === true)), (e) => reentrant.push("load-error:" + e.code));
    reentrant.push("active-now:" + String(ctx.activeSkill));
  });
  let again = false;
  ctx.on("tool.finished", (event) => { if (event.name === "echo" && !again) { again = true; ctx.callTool("echo", { again: true }).then(() => reentrant.push("echo-again")); } });
  const step = await ctx.buildContext([{ role: "user", content: "docker please" }]);
  await ctx.callTool("echo", { a: 1 });
  await new Promise((r) => setTimeout(r, 200));
  // A listener that closes the context mid-step: the step still returns or rejects with CONTEXT_CLOSED, nothing hangs.
  ctx.on("skill.activated", () => void ctx.close());
  let closedCode = "(resolved)";
  try { await ctx.buildContext([{ role: "user", content: "docker again" }, { role: "user", content: "docker" }]); } catch (e) { closedCode = e.code; }
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return { stepOk: step.activated.length === 1, reentrant, closedCode };
};`,
      { timeoutMs: 20_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 400 });
    expect(value.stepOk).toBe(true);
    expect(value.reentrant).toEqual(
      expect.arrayContaining(["active-now:undefined", "step:1", "load:false", "echo-again"]),
    );
    expect(["(resolved)", "CONTEXT_CLOSED"]).toContain(value.closedCode);
  });

  it("a slow listener (50 ms per event) delays but does not change the session (< 20 s, < 400 MB)", async () => {
    const result = await runIsolated<{ same: boolean }>(
      `${PRELUDE}
export default async () => {
  const plain = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { host: tools } });
  const expected = await session(plain);
  const slow = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { host: tools }, telemetry: { onEvent: () => { const end = Date.now() + 50; while (Date.now() < end) {} } } });
  const got = await session(slow);
  await plain.close(); await slow.close();
  rmSync(dir, { recursive: true, force: true });
  return { same: JSON.stringify(got) === JSON.stringify(expected) };
};`,
      { timeoutMs: 20_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 400 });
    expect(value.same).toBe(true);
  });

  it("100,000 events through one context: every listener sees each, memory stays bounded (< 60 s, < 600 MB)", async () => {
    const result = await runIsolated<{
      calls: number;
      events: number;
      reported: number;
      failures: number;
      last: string;
    }>(
      `${PRELUDE}
export default async () => {
  let events = 0;
  let reported = 0;
  let last = "";
  // Each listener failure is also a \`diagnostic\` event (the one diagnostic sink feeds the bus).
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { host: tools }, telemetry: { onEvent: (e) => { if (e.type === "diagnostic") reported++; else events++; last = e.type; } } });
  ctx.on("tool.finished", (e) => { if (e.callId.endsWith("7")) throw new Error("every tenth"); });
  let calls = 0;
  // 50,000 tool calls: a tool.called and a tool.finished each.
  for (let i = 0; i < 50_000; i++) { await ctx.callTool("echo", { i }); calls++; }
  const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
  const failures = step.diagnostics.filter((d) => d.code === "EVENT_LISTENER_FAILED").length;
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return { calls, events, reported, failures, last };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 60_000, mb: 600 });
    expect(value.calls).toBe(50_000);
    expect(value.events).toBe(100_001);
    expect(value.last).toBe("step");
    expect(value.failures).toBe(5_000);
    expect(value.reported).toBe(5_000);
  });
});
