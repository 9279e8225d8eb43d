/**
 * Adversarial tests of programmatic skill tools and per-skill state (issue 14): tools that throw odd
 * things, return cycles, BigInts, functions or 50 MB; states that fail their schema or nest 100,000
 * deep; a skill with 10,000 tools; hostile tool names. Each attack runs in a fresh process (runIsolated)
 * with the bound it checks: every failure is an error result the model can read, and the next call works.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ZOD = path.join(ROOT, "packages/core/node_modules/zod/index.js");

const PRELUDE = `
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentContext, defineSkill } from "skillctx";
import { z } from ${JSON.stringify(ZOD)};
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-code-"));
const object = { type: "object" };
const one = (name, execute, extra = {}) => defineSkill({ name, description: "d", instructions: "x", tools: { run: { description: "", inputSchema: object, execute } }, ...extra });
async function loaded(skills, tools = {}) {
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills, tools: { codeTools: "always", ...tools } });
  return ctx;
}
const brief = (r) => ({ isError: r.isError === true, head: r.content.slice(0, 160), bytes: Buffer.byteLength(r.content) });
`;

describe("adversarial: what a tool throws or returns", () => {
  it("throws of every kind and non-JSON returns are error results; a 50 MB return is capped; the next call works (< 20 s, < 1500 MB)", async () => {
    const result = await runIsolated<Record<string, { isError: boolean; head: string; bytes: number }>>(
      `${PRELUDE}
export default async () => {
  const cyclic = { a: 1 }; cyclic.self = cyclic;
  const hostileError = { get message() { throw new Error("no"); }, toString() { throw new Error("no"); } };
  const cases = {
    throwsError: () => { throw new Error("kaboom"); },
    throwsString: () => { throw "plain string"; },
    throwsUndefined: () => { throw undefined; },
    throwsHostile: () => { throw hostileError; },
    rejects: async () => Promise.reject(new RangeError("async kaboom")),
    cyclic: () => cyclic,
    bigint: () => ({ n: 10n }),
    bigintTop: () => 10n,
    fn: () => () => 1,
    nested: () => ({ inner: [1, { f: function named() {} }] }),
    symbol: () => Symbol("s"),
    nan: () => ({ n: NaN }),
    deep: () => { let v = {}; for (let i = 0; i < 100000; i++) v = { v }; return v; },
    getterThrows: () => ({ get boom() { throw new Error("getter"); } }),
    huge: () => "x".repeat(50 * 1024 * 1024),
    hugeObject: () => ({ items: Array.from({ length: 2_000_000 }, (_, i) => i) }),
    ok: () => ({ fine: true }),
  };
  const skills = Object.entries(cases).map(([name, execute], i) => one("s" + i, execute));
  const ctx = await loaded(skills);
  const out = {};
  let i = 0;
  for (const name of Object.keys(cases)) out[name] = brief(await ctx.callTool("s" + i++ + "__run", {}));
  await ctx.close();
  return out;
};`,
      { timeoutMs: 60_000 },
    );
    const out = expectBounded(result, { ms: 20_000, mb: 1500 });
    for (const name of [
      "throwsError",
      "throwsString",
      "throwsUndefined",
      "throwsHostile",
      "rejects",
      "cyclic",
      "bigint",
      "bigintTop",
      "fn",
      "nested",
      "symbol",
      "nan",
      "deep",
      "getterThrows",
    ]) {
      expect(out[name]!.isError, name).toBe(true);
      expect(out[name]!.bytes, name).toBeLessThan(3_000);
    }
    expect(out["throwsError"]!.head).toBe('The tool "run" of the skill "s0" failed: kaboom');
    expect(out["throwsString"]!.head).toContain("failed: plain string");
    expect(out["throwsHostile"]!.head).toContain("failed: (an error that cannot be printed)");
    expect(out["rejects"]!.head).toContain("failed: RangeError: async kaboom");
    expect(out["cyclic"]!.head).toContain("self refers back to a value that contains it (a cycle)");
    expect(out["bigint"]!.head).toContain("n is a BigInt");
    expect(out["fn"]!.head).toContain("the value is a function");
    expect(out["nested"]!.head).toContain("inner[1].f is a function");
    expect(out["deep"]!.head).toContain("nests deeper than 512 levels");
    expect(out["getterThrows"]!.head).toContain("could not be read: getter");
    // Capped at the default 102,400 bytes, with the note.
    expect(out["huge"]!.isError).toBe(false);
    expect(out["huge"]!.bytes).toBeLessThanOrEqual(102_400);
    expect(out["hugeObject"]!.bytes).toBeLessThanOrEqual(102_400);
    expect(out["ok"]).toEqual({ isError: false, head: '{"fine":true}', bytes: 13 });
  });

  it("a tool that never settles and ignores its signal does not hold close() past its bound (< 15 s)", async () => {
    const result = await runIsolated<{ closedMs: number; code: string }>(
      `${PRELUDE}
export default async () => {
  const ctx = await loaded([one("stuck", () => new Promise(() => {}))]);
  const call = ctx.callTool("run", {}).then(() => "(resolved)", (e) => e.code);
  await new Promise((r) => setTimeout(r, 50));
  const started = Date.now();
  await ctx.close();
  return { closedMs: Date.now() - started, code: await call };
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 15_000, mb: 600 });
    expect(value.code).toBe("CONTEXT_CLOSED");
    expect(value.closedMs).toBeLessThan(10_000);
  });
});

describe("adversarial: state", () => {
  it("states that fail the schema, cycle, nest 100,000 deep, hold a BigInt or a throwing schema are rejected; the state is unchanged (< 15 s, < 800 MB)", async () => {
    const result = await runIsolated<{
      results: Record<string, { isError: boolean; head: string }>;
      state: unknown;
      deltas: number;
      listenerCodes: string[];
    }>(
      `${PRELUDE}
export default async () => {
  const attempts = {
    wrongType: () => ({ n: "one" }),
    cyclic: () => { const v = { n: 1 }; v.self = v; return v; },
    deep: () => { let v = { n: 1 }; for (let i = 0; i < 100000; i++) v = { n: 1, v }; return v; },
    bigint: () => ({ n: 1n }),
    fn: () => ({ n: 1, f() {} }),
    good: () => ({ n: 2 }),
  };
  let which = "wrongType";
  const schema = z.object({ n: z.number() }).passthrough();
  const skill = defineSkill({
    name: "stateful", description: "d", instructions: "x",
    state: { schema, initial: { n: 0 } },
    tools: { set: { description: "", inputSchema: object, execute: (_a, { state }) => { state.set(attempts[which]()); return "set"; } } },
  });
  const throwing = defineSkill({
    name: "throwing", description: "d", instructions: "x",
    state: { schema: { safeParse: (v) => { if (v && v.boom) throw new Error("schema threw"); return { success: true, data: v }; } }, initial: {} },
    tools: { boom: { description: "", inputSchema: object, execute: (_a, { state }) => state.set({ boom: true }) } },
  });
  const ctx = await loaded([skill, throwing]);
  let deltas = 0;
  ctx.on("state.delta", () => { deltas++; throw new Error("listener throws"); });
  const results = {};
  for (const name of Object.keys(attempts)) {
    if (name === "good") continue;
    which = name;
    results[name] = brief(await ctx.callTool("set", {}));
  }
  results.schemaThrows = brief(await ctx.callTool("boom", {}));
  const unchanged = ctx.skillState("stateful");
  which = "good";
  results.good = brief(await ctx.callTool("set", {}));
  const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
  await ctx.close();
  return { results, state: [unchanged, ctx.skillState("stateful")], deltas, listenerCodes: step.diagnostics.map((d) => d.code) };
};`,
      { timeoutMs: 45_000 },
    );
    const { results, state, deltas, listenerCodes } = expectBounded(result, { ms: 15_000, mb: 800 });
    for (const name of ["wrongType", "cyclic", "deep", "bigint", "fn", "schemaThrows"]) {
      expect(results[name]!.isError, name).toBe(true);
      expect(results[name]!.head, name).toContain("is rejected (the state is unchanged)");
    }
    expect(results["deep"]!.head).toMatch(/ran, but the new state/);
    expect(state).toEqual([{ n: 0 }, { n: 2 }]);
    // A throwing state.delta listener never breaks the call; it is a diagnostic of the next step.
    expect(results["good"]).toMatchObject({ isError: false, head: "set" });
    expect(deltas).toBe(1);
    expect(listenerCodes).toContain("EVENT_LISTENER_FAILED");
  });
});

describe("adversarial: many tools and hostile names", () => {
  it("a skill with 10,000 tools is defined, loaded, listed and called within bounds (< 20 s, < 1000 MB)", async () => {
    const result = await runIsolated<{ listed: number; called: unknown; unloaded: number; defineMs: number }>(
      `${PRELUDE}
export default async () => {
  const tools = {};
  for (let i = 0; i < 10000; i++) tools["t" + i] = { description: "tool " + i, inputSchema: z.object({ x: z.number() }), execute: ({ x }) => x + i };
  const started = Date.now();
  const big = defineSkill({ name: "big", description: "d", instructions: "x", tools });
  const defineMs = Date.now() - started;
  const ctx = await AgentContext.create({ cwd: dir, guidance: false, skills: [big] });
  await ctx.callTool("load_skill", { name: "big" });
  const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
  const called = await ctx.callTool("t9999", { x: 1 });
  await ctx.callTool("unload_skill", { name: "big" });
  const unloaded = ctx.listTools().length;
  await ctx.close();
  return { listed: step.tools.length, called, unloaded, defineMs };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 1000 });
    // 10,000 code tools and the three skill tools (run_skill_script is offered only with scripts that may run).
    expect(value.listed).toBe(10_003);
    expect(value.called).toEqual({ content: "10000" });
    expect(value.unloaded).toBe(3);
  });

  it("hostile tool names: __proto__ and constructor are plain tools, a clash with a skill tool is namespaced, a 65-character name is refused, a long or non-ASCII namespaced name is cut and hashed", async () => {
    const result = await runIsolated<{
      names: string[];
      proto: unknown;
      ctor: unknown;
      shadow: unknown;
      tooLong: string;
      longNames: string[];
      longCall: unknown;
      unknownProto: unknown;
    }>(
      `${PRELUDE}
export default async () => {
  const tools = JSON.parse('{"__proto__": 1, "constructor": 2, "load_skill": 3}');
  for (const key of Object.keys(tools)) { const v = tools[key]; tools[key] = { description: key, inputSchema: object, execute: () => "ran " + key + " " + v }; }
  const hostile = defineSkill({ name: "hostile", description: "d", instructions: "x", tools });
  let tooLong = "(accepted)";
  try { defineSkill({ name: "x", description: "d", instructions: "x", tools: { ["a".repeat(65)]: { description: "", inputSchema: object, execute: () => "" } } }); } catch (e) { tooLong = e.code; }
  const longSkill = "l" + "o".repeat(61) + "ng";
  const long = defineSkill({ name: longSkill, description: "d", instructions: "x", tools: { ["r".repeat(64)]: { description: "", inputSchema: object, execute: () => "long ran" }, load_skill: { description: "", inputSchema: object, execute: () => "x" } } });
  const accented = defineSkill({ name: "café", description: "d", instructions: "x", tools: { unload_skill: { description: "", inputSchema: object, execute: () => "x" } } });
  const ctx = await loaded([hostile, long, accented], { host: [{ name: "r".repeat(64), execute: () => "host" }] });
  const names = ctx.listTools().map((t) => t.name);
  const longNames = names.filter((n) => n.startsWith("loo") || n.startsWith("caf"));
  const out = {
    names,
    proto: await ctx.callTool("__proto__", {}),
    ctor: await ctx.callTool("constructor", {}),
    shadow: await ctx.callTool("hostile__load_skill", {}),
    tooLong,
    longNames,
    longCall: await ctx.callTool(longNames.find((n) => n.length === 64 && !n.includes("load")), {}),
    unknownProto: (await ctx.callTool("toString", {})).isError,
  };
  await ctx.close();
  return out;
};`,
      { timeoutMs: 30_000 },
    );
    const value = expectBounded(result, { ms: 10_000, mb: 600 });
    expect(value.names).toContain("__proto__");
    expect(value.names).toContain("constructor");
    expect(value.names).toContain("hostile__load_skill");
    expect(value.proto).toEqual({ content: "ran __proto__ 1" });
    expect(value.ctor).toEqual({ content: "ran constructor 2" });
    expect(value.shadow).toEqual({ content: "ran load_skill 3" });
    expect(value.tooLong).toBe("SKILL_DEFINITION_INVALID");
    expect(value.longNames).toHaveLength(3);
    for (const name of value.longNames) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(value.longNames.find((n) => n.startsWith("caf"))).toMatch(/^caf___unload_skill_[0-9a-f]{8}$/);
    expect(value.longCall).toEqual({ content: "long ran" });
    expect(value.unknownProto).toBe(true);
  });
});
