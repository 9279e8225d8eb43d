/**
 * Adversarial tests of the engine's conversation state (issue 10): concurrent steps, use after close,
 * malformed messages and state, skill files that vanish, task-input injection and the caps on text
 * that reaches the model. Each test runs its attack in a fresh process (runIsolated) and states the
 * bound it checks.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MCP_SERVER = path.join(ROOT, "fixtures/mcp/server.mjs");

// Shared by the scripts: a temp folder, a programmatic (trusted) skill, and a helper that catches a code.
const PRELUDE = `
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext } from "skillctx";
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-engine-"));
const inline = { kind: "inline", format: "inline", scope: "programmatic" };
const lines = (file) => (existsSync(file) ? readFileSync(file, "utf8").split("\\n").filter(Boolean).length : 0);
async function codeOf(run) {
  try { await run(); return "(resolved)"; } catch (error) { return error?.code ?? ("raw " + (error?.name ?? typeof error)); }
}
function codeOfSync(run) {
  try { run(); return "(returned)"; } catch (error) { return error?.code ?? ("raw " + (error?.name ?? typeof error)); }
}
`;

describe("adversarial: concurrent steps", () => {
  it("20 concurrent buildContext calls on one history attach the skill once and run its command once (< 15 s, < 400 MB)", async () => {
    const result = await runIsolated<{
      counter: number;
      attachments: number;
      activated: number;
      sameMessages: boolean;
    }>(
      `${PRELUDE}
export default async () => {
  const counter = path.join(dir, "counter.txt");
  const skill = { name: "counting", description: "c", content: "Runs: !\`echo x >> '" + counter + "'; wc -l < '" + counter + "'\`", source: inline, trigger: { type: "keyword", keywords: ["tally"] } };
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: [skill] });
  const history = [{ role: "user", content: "tally please" }];
  const steps = await Promise.all(Array.from({ length: 20 }, () => ctx.buildContext(history)));
  const value = {
    counter: lines(counter),
    attachments: ctx.state.attachments.length,
    activated: steps.flatMap((s) => s.activated).length,
    sameMessages: steps.every((s) => JSON.stringify(s.messages) === JSON.stringify(steps[0].messages)),
  };
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return value;
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 15_000, mb: 400 });
    expect(result.value).toEqual({ counter: 1, attachments: 1, activated: 1, sameMessages: true });
  }, 40_000);
});

describe("adversarial: use after close", () => {
  it("every public method rejects with CONTEXT_CLOSED and starts nothing: no command, no MCP server, nothing left running (< 20 s)", async () => {
    const result = await runIsolated<{
      codes: Record<string, string>;
      startsBefore: number;
      startsAfter: number;
      counterAfter: number;
      alive: number[];
    }>(
      `${PRELUDE}
export default async ({ server }) => {
  const marker = path.join(dir, "server-starts.txt");
  const counter = path.join(dir, "counter.txt");
  mkdirSync(path.join(dir, ".agents/skills"), { recursive: true });
  mkdirSync(path.join(dir, ".openhands/microagents"), { recursive: true });
  // A project skill whose MCP server records each start, and one whose command records each render.
  writeFileSync(path.join(dir, ".openhands/microagents/calc.md"), [
    "---", "triggers: [calculate]", "mcp_tools:", "  mcpServers:", "    calc:", "      command: sh",
    "      args: [\\"-c\\", \\"echo started >> '" + marker + "'; exec node '" + server + "' --name calc\\"]", "---",
    "Use the calc server.", "",
  ].join("\\n"));
  writeFileSync(path.join(dir, ".openhands/microagents/tally.md"), "---\\ntriggers: [tally]\\n---\\nRuns: !\`echo x >> '" + counter + "'\`\\n");
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, trust: { project: true } });
  const step = await ctx.buildContext([{ role: "user", content: "please calculate" }]);
  if (!step.tools.some((t) => t.name.startsWith("mcp__calc__"))) throw new Error("the server did not start: " + JSON.stringify(step.diagnostics));
  const startsBefore = lines(marker);
  await ctx.close();
  const codes = {
    buildContext: await codeOf(() => ctx.buildContext([{ role: "user", content: "tally and calculate" }])),
    callToolMcp: await codeOf(() => ctx.callTool("mcp__calc__add", { a: 1, b: 2 })),
    callToolSkill: await codeOf(() => ctx.callTool("load_skill", { name: "calc" })),
    setSkills: await codeOf(() => ctx.setSkills([])),
    refresh: await codeOf(() => ctx.refresh()),
    listTools: codeOfSync(() => ctx.listTools()),
    closeAgain: await codeOf(() => ctx.close()),
  };
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const alive = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync("/proc/" + entry + "/cmdline", "utf8");
      const stat = readFileSync("/proc/" + entry + "/stat", "utf8");
      if (cmdline.includes(server) && cmdline.includes("calc") && !/^\\d+ \\(.*\\) Z/.test(stat) && Number(entry) !== process.pid) alive.push(Number(entry));
    } catch {}
  }
  const value = { codes, startsBefore, startsAfter: lines(marker), counterAfter: lines(counter), alive };
  rmSync(dir, { recursive: true, force: true });
  return value;
};`,
      { timeoutMs: 40_000, input: { server: MCP_SERVER } },
    );
    expectBounded(result, { ms: 20_000, mb: Number.POSITIVE_INFINITY });
    const value = result.value!;
    expect(value.codes).toEqual({
      buildContext: "CONTEXT_CLOSED",
      callToolMcp: "CONTEXT_CLOSED",
      callToolSkill: "CONTEXT_CLOSED",
      setSkills: "CONTEXT_CLOSED",
      refresh: "CONTEXT_CLOSED",
      listTools: "CONTEXT_CLOSED",
      closeAgain: "(resolved)",
    });
    expect(value.startsBefore).toBe(1);
    expect(value.startsAfter).toBe(1);
    expect(value.counterAfter).toBe(0);
    expect(value.alive).toEqual([]);
  }, 60_000);
});

describe("adversarial: malformed input", () => {
  it("messages of 20 malformed shapes reject with MESSAGES_INVALID, never a raw error (< 5 s, < 400 MB)", async () => {
    const result = await runIsolated<{ codes: string[]; afterwards: string[] }>(
      `${PRELUDE}
export default async () => {
  const skill = { name: "docker", description: "d", content: "Use multi-stage builds.", source: inline, trigger: { type: "keyword", keywords: ["docker"] } };
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: [skill] });
  const circular = { path: "a" }; circular.self = circular;
  let deep = {}; for (let i = 0; i < 100000; i++) deep = { path: deep };
  const revoked = Proxy.revocable({}, {}); revoked.revoke();
  const sparse = []; sparse.length = 2 ** 32 - 1;
  const shapes = [
    null, undefined, 42, "text", { role: "user", content: "x" }, [null], [undefined], [1], ["user: hi"], [{}],
    [{ role: "user" }], [{ role: "robot", content: "x" }], [{ role: "user", content: 5 }], [{ role: "user", content: [7] }],
    [{ role: "assistant", content: "", toolCalls: "c1" }], [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", args: circular }] }],
    [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", args: deep }] }],
    [{ role: "assistant", content: "", toolCalls: [{ id: "c1", name: "read", args: { n: 10n } }] }],
    [revoked.proxy], sparse,
  ];
  const codes = [];
  for (const messages of shapes) codes.push(await codeOf(() => ctx.buildContext(messages)));
  const afterwards = (await ctx.buildContext([{ role: "user", content: "docker" }])).activated.map((a) => a.skill);
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return { codes, afterwards };
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 5_000, mb: 400 });
    expect(result.value!.codes).toEqual(Array.from({ length: 20 }, () => "MESSAGES_INVALID"));
    expect(result.value!.afterwards).toEqual(["docker"]);
  }, 40_000);

  it("a first step of 200,000 messages is checked and scanned in < 20 s and < 1 GB", async () => {
    const result = await runIsolated<{ messages: number; activated: string[] }>(
      `${PRELUDE}
export default async () => {
  const skill = { name: "docker", description: "d", content: "Use multi-stage builds.", source: inline, trigger: { type: "keyword", keywords: ["docker"] } };
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: [skill] });
  const history = Array.from({ length: 200000 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: "message number " + i }));
  history.push({ role: "user", content: "and docker" });
  const step = await ctx.buildContext(history);
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return { messages: step.messages.length, activated: step.activated.map((a) => a.skill) };
};`,
      { timeoutMs: 40_000 },
    );
    expectBounded(result, { ms: 20_000, mb: 1024 });
    expect(result.value).toEqual({ messages: 200_001, activated: ["docker"] });
  }, 60_000);

  it("malformed states reject with STATE_INVALID, and a state with 1,000,000 scan marks loads and steps in < 20 s and < 800 MB", async () => {
    const result = await runIsolated<{ codes: string[]; huge: string; hugeBad: string }>(
      `${PRELUDE}
export default async () => {
  const good = () => ({ version: 1, attachments: [], scanned: [], rendered: {} });
  const circular = good(); circular.self = circular;
  const revoked = Proxy.revocable({}, {}); revoked.revoke();
  const states = [
    null, 7, "state", [], {}, { ...good(), version: 2 }, { ...good(), version: "1" }, { ...good(), attachments: null },
    { ...good(), attachments: [{ skill: "a" }] }, { ...good(), scanned: "abc" }, { ...good(), scanned: [null] },
    { ...good(), rendered: [] }, { ...good(), rendered: { "load:x": 1 } }, { ...good(), activeSkill: {} },
    { ...good(), get attachments() { throw new Error("boom"); } }, revoked.proxy,
  ];
  const codes = [];
  for (const state of states) codes.push(await codeOf(async () => (await AgentContext.create({ cwd: dir, guidance: false, conversation: { state } })).close()));
  const scanned = Array.from({ length: 1000000 }, (_, i) => "fingerprint-" + i);
  const huge = await codeOf(async () => {
    const ctx = await AgentContext.create({ cwd: dir, guidance: false, conversation: { state: { ...good(), scanned } } });
    await ctx.buildContext([{ role: "user", content: "hi" }]);
    await ctx.close();
  });
  const hugeBad = await codeOf(() => AgentContext.create({ cwd: dir, guidance: false, conversation: { state: { ...good(), scanned: [...scanned, 5] } } }));
  rmSync(dir, { recursive: true, force: true });
  return { codes, huge, hugeBad };
};`,
      { timeoutMs: 40_000 },
    );
    expectBounded(result, { ms: 20_000, mb: 800 });
    expect(result.value!.codes).toEqual(Array.from({ length: 16 }, () => "STATE_INVALID"));
    expect(result.value!.huge).toBe("(resolved)");
    expect(result.value!.hugeBad).toBe("STATE_INVALID");
  }, 60_000);
});

describe("adversarial: skill files that vanish", () => {
  it("25 of 50 skill files deleted between create and the step: 25 diagnostics, the other 25 attached (< 10 s)", async () => {
    const result = await runIsolated<{ attached: number; failed: number; rejected: boolean }>(
      `${PRELUDE}
export default async () => {
  mkdirSync(path.join(dir, ".agents/skills"), { recursive: true });
  mkdirSync(path.join(dir, ".openhands/microagents"), { recursive: true });
  for (let i = 0; i < 50; i++) writeFileSync(path.join(dir, ".openhands/microagents/s" + i + ".md"), "---\\ntriggers: [word" + i + "]\\n---\\nBody " + i + ".\\n");
  const ctx = await AgentContext.create({ cwd: dir, guidance: false });
  for (let i = 0; i < 50; i += 2) rmSync(path.join(dir, ".openhands/microagents/s" + i + ".md"));
  let step, rejected = false;
  try {
    step = await ctx.buildContext([{ role: "user", content: Array.from({ length: 50 }, (_, i) => "word" + i).join(" ") }]);
  } catch { rejected = true; }
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return { attached: step?.activated.length ?? 0, failed: step?.diagnostics.filter((d) => d.code === "SKILL_READ_FAILED").length ?? 0, rejected };
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 10_000, mb: Number.POSITIVE_INFINITY });
    expect(result.value).toEqual({ attached: 25, failed: 25, rejected: false });
  }, 40_000);
});

describe("adversarial: task-input injection", () => {
  it("!`touch PWNED` as a task input value in a trusted skill is never run: the file does not exist (< 10 s)", async () => {
    const result = await runIsolated<{ pwned: boolean; shown: boolean; rendered: boolean }>(
      `${PRELUDE}
export default async () => {
  mkdirSync(path.join(dir, ".agents/skills"), { recursive: true });
  mkdirSync(path.join(dir, ".openhands/microagents"), { recursive: true });
  writeFileSync(path.join(dir, ".openhands/microagents/bug.md"), [
    "---", "name: bug", "inputs:", "  - name: title", "    description: The title", "---",
    "Branch: !\`echo rendered-ok\`", "Title: \${title}", "",
  ].join("\\n"));
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, trust: { project: true }, conversation: { collectInputs: () => ({ title: "!\`touch PWNED\` and \\\\!\`touch PWNED2\` and $(touch PWNED3)" }) } });
  const step = await ctx.buildContext([{ role: "user", content: "/bug now" }]);
  const text = JSON.stringify(step.messages);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const value = {
    pwned: ["PWNED", "PWNED2", "PWNED3"].some((f) => existsSync(path.join(dir, f))),
    shown: text.includes("!\`touch PWNED\`"),
    rendered: text.includes("Branch: rendered-ok"),
  };
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return value;
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 10_000, mb: Number.POSITIVE_INFINITY });
    expect(result.value).toEqual({ pwned: false, shown: true, rendered: true });
  }, 40_000);
});

describe("adversarial: caps on text that reaches the model", () => {
  it("a 10 MB guidance set, a 10 MB attached body and a 10 MB loaded body emit bounded text (< 10 s, < 600 MB; caps 256 KiB / 64 KiB / 64 KiB)", async () => {
    const result = await runIsolated<{
      system: number;
      attached: number;
      loaded: number;
      notes: boolean[];
      codes: string[];
    }>(
      `${PRELUDE}
export default async () => {
  const mb = "x".repeat(1023) + "\\n";
  const big = mb.repeat(10 * 1024);
  const skills = [
    ...Array.from({ length: 10 }, (_, i) => ({ name: "guide-" + i, description: "g", content: mb.repeat(1024), source: inline, trigger: { type: "always" } })),
    { name: "huge", description: "h", content: big, source: inline, trigger: { type: "keyword", keywords: ["huge"] } },
    { name: "heavy", description: "h", content: big, source: inline, trigger: { type: "on-demand" } },
  ];
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills });
  const step = await ctx.buildContext([{ role: "user", content: "huge" }]);
  const attachedText = step.messages[0].content.slice(1).map((p) => p.text).join("");
  const load = await ctx.callTool("load_skill", { name: "heavy" });
  const next = await ctx.buildContext([{ role: "user", content: "huge" }, { role: "user", content: "more" }]);
  const value = {
    system: Buffer.byteLength(step.system),
    attached: Buffer.byteLength(attachedText),
    loaded: Buffer.byteLength(load.content),
    notes: [step.system.includes("capped at 262144 bytes"), attachedText.includes("is cut here"), load.content.includes("is cut here")],
    codes: [...step.diagnostics, ...next.diagnostics].map((d) => d.code).filter((c) => c.endsWith("_CUT")).sort(),
  };
  await ctx.close();
  rmSync(dir, { recursive: true, force: true });
  return value;
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 10_000, mb: 600 });
    const value = result.value!;
    expect(value.system).toBeLessThan(262_144 + 4_096);
    expect(value.attached).toBeLessThan(65_536 + 4_096);
    expect(value.loaded).toBeLessThan(65_536 + 4_096);
    expect(value.notes).toEqual([true, true, true]);
    expect(value.codes).toEqual(["GUIDANCE_BLOCK_CUT", "SKILL_BODY_CUT", "SKILL_BODY_CUT"]);
  }, 40_000);
});
