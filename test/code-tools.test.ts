/**
 * Programmatic skills (`defineSkill`) and their tools in a real context: checked definitions, tools
 * offered only while their skill is active (or always), names namespaced on a clash, arguments checked
 * before `execute`, and every failure of a tool an error result the model can read.
 */
import { describe, expect, it } from "vitest";
import { defineSkill, SkillctxError } from "skillctx";
import type { AgentContextOptions, Skill, ToolResult } from "skillctx";
import { codeToolsForSkill, runCodeTool } from "../packages/engine/src/code/code-tools.js";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";
import { z } from "./helpers/zod.js";
import { describeWithTool } from "./helpers/tools-present.js";

const fixture = useEngineFixture();

const calc = (extra: Partial<Parameters<typeof defineSkill>[0]> = {}) =>
  defineSkill({
    name: "calc",
    description: "Arithmetic. Use for sums.",
    instructions: "Call add for sums.",
    tools: {
      add: {
        description: "Adds a and b",
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
      },
      echo: {
        description: "Echoes text",
        inputSchema: { type: "object", properties: { text: { type: "string", minLength: 1 } }, required: ["text"] },
        execute: (args: { text: string }) => args.text,
      },
    },
    ...extra,
  });

const notes = defineSkill({
  name: "notes",
  description: "Notes. Use to remember things.",
  instructions: "Call remember.",
  tools: {
    remember: {
      description: "Remembers",
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }: { text: string }) => `noted ${text}`,
    },
  },
});

async function context(options: Partial<AgentContextOptions> = {}) {
  const repo = await fixture.repo();
  return fixture.context({ cwd: repo.dir, skills: [calc(), notes], ...options });
}

const names = (tools: { name: string }[]) => tools.map((t) => t.name);
// The programmatic skills here have no scripts/ folder: run_skill_script is not offered (issue 37).
const SKILL_TOOLS = ["load_skill", "read_skill_resource", "unload_skill"];

describe("defineSkill", () => {
  it("makes an on-demand programmatic skill whose body is the instructions", () => {
    const skill = calc({ model: "gpt-4o", allowedTools: ["Read"] });
    expect(skill).toMatchObject({
      name: "calc",
      description: "Arithmetic. Use for sums.",
      content: "Call add for sums.",
      trigger: { type: "on-demand" },
      source: { kind: "inline", format: "inline", scope: "programmatic" },
      model: "gpt-4o",
      allowedTools: ["Read"],
    });
    // The runtime part stays out of the JSON form of the skill.
    expect(JSON.parse(JSON.stringify(skill))).not.toHaveProperty("tools");
  });

  const bad: [string, () => unknown, string][] = [
    ["an invalid name", () => defineSkill({ name: "Bad_Name", description: "d", instructions: "" }), "name"],
    ["an empty description", () => defineSkill({ name: "x", description: " ", instructions: "" }), "description"],
    [
      "a tool without execute",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: { t: { description: "", inputSchema: { type: "object" } } as never },
        }),
      "tools.t.execute",
    ],
    [
      "a tool name models reject",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: { "a b": { description: "", inputSchema: { type: "object" }, execute: () => "" } },
        }),
      "tools.a b",
    ],
    [
      "a schema that is neither zod nor JSON Schema",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: { t: { description: "", inputSchema: "string" as never, execute: () => "" } },
        }),
      "tools.t",
    ],
    [
      "a zod schema of a non-object",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: { t: { description: "", inputSchema: z.string(), execute: () => "" } },
        }),
      "tools.t",
    ],
    [
      "a JSON Schema of a non-object",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: { t: { description: "", inputSchema: { type: "array" }, execute: () => "" } },
        }),
      "tools.t",
    ],
    [
      "a JSON Schema zod cannot read",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: {
            t: {
              description: "",
              inputSchema: { type: "object", properties: { a: { $ref: "#/nowhere" } } },
              execute: () => "",
            },
          },
        }),
      "tools.t",
    ],
    [
      "a zod type JSON Schema cannot express",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: { t: { description: "", inputSchema: z.object({ when: z.date() }), execute: () => "" } },
        }),
      "tools.t",
    ],
    [
      "a zod 3 style schema (safeParse only)",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          tools: {
            t: { description: "", inputSchema: { safeParse: () => ({ success: true, data: {} }) }, execute: () => "" },
          },
        }),
      "tools.t",
    ],
    [
      "a state without a schema",
      () => defineSkill({ name: "x", description: "d", instructions: "", state: {} as never }),
      "state.schema",
    ],
    [
      "an initial state failing its schema",
      () =>
        defineSkill({
          name: "x",
          description: "d",
          instructions: "",
          state: { schema: z.object({ n: z.number() }), initial: { n: "one" } as never },
        }),
      "state.initial",
    ],
    [
      "an initial state that is not JSON",
      () =>
        defineSkill({ name: "x", description: "d", instructions: "", state: { schema: z.any(), initial: { n: 1n } } }),
      "state.initial",
    ],
    ["a relative dir", () => defineSkill({ name: "x", description: "d", instructions: "", dir: "skills/x" }), "dir"],
  ];
  it.each(bad)("refuses %s with SKILL_DEFINITION_INVALID naming the field", (_label, make, field) => {
    let thrown: unknown;
    try {
      make();
    } catch (error) {
      thrown = error;
    }
    expect(SkillctxError.isInstance(thrown)).toBe(true);
    expect((thrown as SkillctxError).code).toBe("SKILL_DEFINITION_INVALID");
    expect((thrown as SkillctxError).message).toContain(field);
  });
});

describe("offering code tools", () => {
  it("offers a skill's tools from load_skill until unload_skill, after the skill tools", async () => {
    const ctx = await context();
    expect(names((await ctx.buildContext([user("hi")])).tools)).toEqual(SKILL_TOOLS);
    await ctx.callTool("load_skill", { name: "calc" });
    expect(names(ctx.listTools())).toEqual([...SKILL_TOOLS, "add", "echo"]);
    const step = await ctx.buildContext([user("hi")]);
    expect(names(step.tools)).toEqual([...SKILL_TOOLS, "add", "echo"]);
    expect(step.tools.find((t) => t.name === "add")).toEqual({
      name: "add",
      description: "Adds a and b",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    });
    expect(await ctx.callTool("add", { a: 2, b: 3 })).toEqual({ content: '{"sum":5}' });
    await ctx.callTool("unload_skill", { name: "calc" });
    expect(names(ctx.listTools())).toEqual(SKILL_TOOLS);
  });

  it("swaps the tools when another skill is loaded, and tells the model to load a skill whose tool it calls", async () => {
    const ctx = await context();
    const early = await ctx.callTool("add", { a: 1, b: 1 });
    expect(early).toEqual({
      content:
        'The tool "add" belongs to the skill "calc", which is not active: load it first with the load_skill tool.',
      isError: true,
    });
    await ctx.callTool("load_skill", { name: "calc" });
    await ctx.callTool("load_skill", { name: "notes" });
    expect(names(ctx.listTools())).toEqual([...SKILL_TOOLS, "remember"]);
    expect((await ctx.callTool("add", { a: 1, b: 1 })).isError).toBe(true);
    expect(await ctx.callTool("remember", { text: "milk" })).toEqual({ content: "noted milk" });
  });

  it('offers every skill\'s tools under skillCodeTools: "always"', async () => {
    const ctx = await context({ tools: { codeTools: "always" } });
    expect(names(ctx.listTools())).toEqual([...SKILL_TOOLS, "add", "echo", "remember"]);
    expect(await ctx.callTool("remember", { text: "x" })).toEqual({ content: "noted x" });
  });

  it("refuses an unknown skillCodeTools value", async () => {
    const repo = await fixture.repo();
    await expect(fixture.context({ cwd: repo.dir, tools: { codeTools: "sometimes" as never } })).rejects.toMatchObject({
      code: "INVALID_OPTIONS",
    });
  });

  it("namespaces a name another tool has as <skill>__<name>, with a diagnostic, and runs it under that name", async () => {
    const clashing = defineSkill({
      name: "files",
      description: "File helpers.",
      instructions: "x",
      tools: {
        Read: { description: "Reads", inputSchema: { type: "object" }, execute: () => "skill read" },
        load_skill: { description: "Shadow", inputSchema: { type: "object" }, execute: () => "shadow" },
      },
    });
    const ctx = await context({ skills: [clashing], tools: { host: [{ name: "Read", execute: () => "host read" }] } });
    await ctx.callTool("load_skill", { name: "files" });
    const step = await ctx.buildContext([user("go")]);
    expect(names(step.tools)).toEqual(["Read", ...SKILL_TOOLS, "files__Read", "files__load_skill"]);
    expect(step.diagnostics.filter((d) => d.code === "TOOL_NAME_CLASH").map((d) => d.message)).toEqual([
      'the tool "Read" of the skill "files" is offered as "files__Read": another tool has its name',
      'the tool "load_skill" of the skill "files" is offered as "files__load_skill": another tool has its name',
    ]);
    expect(await ctx.callTool("Read", {})).toEqual({ content: "host read" });
    expect(await ctx.callTool("files__Read", {})).toEqual({ content: "skill read" });
    // Reported once, not on every step.
    expect(
      (await ctx.buildContext([user("go"), user("again")])).diagnostics.filter((d) => d.code === "TOOL_NAME_CLASH"),
    ).toEqual([]);
  });

  it('namespaces two skills\' tools of the same name under "always"', async () => {
    const twin = defineSkill({
      name: "twin",
      description: "Another adder.",
      instructions: "x",
      tools: { add: { description: "Adds too", inputSchema: z.object({}), execute: () => "twin add" } },
    });
    const ctx = await context({ skills: [calc(), twin], tools: { codeTools: "always" } });
    expect(names(ctx.listTools())).toEqual([...SKILL_TOOLS, "calc__add", "echo", "twin__add"]);
    expect(await ctx.callTool("twin__add", {})).toEqual({ content: "twin add" });
  });

  it("keeps the active skill's own tools under its allowed-tools, and filters other skills' tools", async () => {
    const ctx = await context({
      skills: [calc({ allowedTools: ["Read"] }), notes],
      tools: {
        filter: "filter",
        codeTools: "always",
        host: [
          { name: "Read", execute: () => "r" },
          { name: "Write", execute: () => "w" },
        ],
      },
    });
    await ctx.callTool("load_skill", { name: "calc" });
    expect(names(ctx.listTools())).toEqual(["Read", ...SKILL_TOOLS, "add", "echo"]);
    expect(await ctx.callTool("add", { a: 1, b: 2 })).toEqual({ content: '{"sum":3}' });
    const refused = await ctx.callTool("remember", { text: "x" });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain('is not allowed while the skill "calc" is active');
  });

  it("works through setSkills: new skills' tools are offered, removed skills' withdrawn", async () => {
    const ctx = await context({ skills: [notes] });
    await ctx.setSkills([calc()]);
    await ctx.callTool("load_skill", { name: "calc" });
    expect(names(ctx.listTools())).toContain("add");
    await ctx.setSkills([notes]);
    await ctx.buildContext([user("x")]);
    expect(names(ctx.listTools())).toEqual(SKILL_TOOLS);
  });

  it("lists the same definition objects on every step (adapters keep their tool entries)", async () => {
    const ctx = await context();
    await ctx.callTool("load_skill", { name: "calc" });
    const first = await ctx.buildContext([user("a")]);
    const second = await ctx.buildContext([user("a"), user("b")]);
    expect(second.tools.at(-1)).toBe(first.tools.at(-1));
  });
});

describe("running code tools", () => {
  async function loaded(skill: Skill) {
    const ctx = await context({ skills: [skill] });
    await ctx.callTool("load_skill", { name: skill.name });
    return ctx;
  }
  const tool = (
    execute: (args: any, context: any) => unknown,
    inputSchema: Record<string, unknown> | ReturnType<typeof z.object> = { type: "object" },
  ) =>
    defineSkill({
      name: "t",
      description: "t",
      instructions: "t",
      tools: { run: { description: "", inputSchema, execute } },
    });

  it("checks arguments before execute: zod and JSON Schema alike; JSON text arguments are read", async () => {
    const ctx = await loaded(calc());
    expect(await ctx.callTool("add", { a: 1 })).toEqual({
      content: 'Invalid arguments for "add": b: Invalid input: expected number, received undefined',
      isError: true,
    });
    expect(await ctx.callTool("add", '{"a":1,"b":2}')).toEqual({ content: '{"sum":3}' });
    const echo = await ctx.callTool("echo", { text: "" });
    expect(echo.isError).toBe(true);
    expect(echo.content).toMatch(/^Invalid arguments for "echo": text: /);
    expect(await ctx.callTool("echo", { text: "hi" })).toEqual({ content: "hi" });
    expect(await ctx.callTool("add", "{not json")).toEqual({
      content: 'Invalid arguments for "add": arguments must be a JSON object',
      isError: true,
    });
  });

  it("passes the parsed arguments (zod defaults applied) and a tool context with signal, skill and callId", async () => {
    const seen: unknown[] = [];
    const skill = tool(
      (args, context) => {
        seen.push(
          args,
          context.skill.name,
          context.signal instanceof AbortSignal,
          typeof context.callId,
          context.state,
        );
        return "ok";
      },
      z.object({ n: z.number().default(7) }),
    );
    const ctx = await loaded(skill);
    await ctx.callTool("run", {});
    expect(seen).toEqual([{ n: 7 }, "t", true, "string", undefined]);
  });

  it("turns a throw, a non-JSON return and an error ToolResult into error results; the next call still works", async () => {
    let mode = "throw";
    const skill = tool(() => {
      if (mode === "throw") throw new TypeError("boom");
      if (mode === "function") return { f: () => 1 };
      if (mode === "date") return { when: new Date(0) };
      if (mode === "error") return { content: "told you", isError: true };
      if (mode === "nothing") return undefined;
      return [1, "two", { three: null }];
    });
    const ctx = await loaded(skill);
    const results: Record<string, ToolResult> = {};
    for (const m of ["throw", "function", "date", "error", "nothing", "json"]) {
      mode = m;
      results[m] = await ctx.callTool("run", {});
    }
    expect(results["throw"]).toEqual({
      content: 'The tool "run" of the skill "t" failed: TypeError: boom',
      isError: true,
    });
    expect(results["function"]!.isError).toBe(true);
    expect(results["function"]!.content).toContain("f is a function");
    expect(results["date"]!.content).toContain("when is a Date, not a plain object");
    expect(results["error"]).toEqual({ content: "told you", isError: true });
    expect(results["nothing"]).toEqual({ content: "" });
    expect(results["json"]).toEqual({ content: '[1,"two",{"three":null}]' });
  });

  it("cuts a result over tools.skillTools.maxCodeToolResultBytes with a note and a diagnostic", async () => {
    const ctx = await context({
      skills: [tool(() => "x".repeat(5_000))],
      tools: {
        skillTools: { maxCodeToolResultBytes: 1_000 },
      },
    });
    await ctx.callTool("load_skill", { name: "t" });
    const result = await ctx.callTool("run", {});
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(1_000);
    expect(result.content).toMatch(
      /\[skillctx: the result of run is cut here: \d+ of its 5000 bytes are shown \(limit 1000\)\.\]$/,
    );
    expect((await ctx.buildContext([user("x")])).diagnostics.map((d) => d.code)).toContain("TOOL_RESULT_CUT");
  });

  it("runs code tool calls one at a time (they change state): concurrent calls see each other's effects", async () => {
    let inside = 0;
    let most = 0;
    const skill = tool(async () => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inside--;
      return "done";
    });
    const ctx = await loaded(skill);
    await Promise.all(Array.from({ length: 5 }, () => ctx.callTool("run", {})));
    expect(most).toBe(1);
  });

  it("closing the context aborts a running tool's signal and rejects the call with CONTEXT_CLOSED", async () => {
    let signal: AbortSignal | undefined;
    const skill = tool((_args, context) => {
      signal = context.signal;
      return new Promise((_resolve, reject) =>
        context.signal.addEventListener("abort", () => reject(context.signal.reason)),
      );
    });
    const ctx = await loaded(skill);
    const call = ctx.callTool("run", {});
    await new Promise((resolve) => setTimeout(resolve, 10));
    await ctx.close();
    await expect(call).rejects.toMatchObject({ code: "CONTEXT_CLOSED" });
    expect(signal?.aborted).toBe(true);
  });
});

describeWithTool("python3")("a programmatic skill with a folder of typed scripts", () => {
  it("offers its own tools and its script tools after load_skill; a script with its tool's name is left out with a warning", async () => {
    const repo = await fixture.repo({
      "skill/scripts/greet.py":
        'def main(name: str, times: int = 1) -> str:\n    """Greets someone.\n\n    Args:\n        name: who to greet\n    """\n    return ("hi " + name + ";") * times\n',
      "skill/scripts/hello.py": "def main() -> str:\n    return 'script hello'\n",
    });
    const skill = defineSkill({
      name: "greeter",
      description: "Greets.",
      instructions: "Use greet.",
      dir: `${repo.dir}/skill`,
      tools: { hello: { description: "Says hello", inputSchema: z.object({}), execute: () => "programmatic hello" } },
    });
    const ctx = await fixture.context({ cwd: repo.dir, skills: [skill] });
    await ctx.callTool("load_skill", { name: "greeter" });
    const step = await ctx.buildContext([user("greet Ada")]);
    // This skill has a scripts/ folder and is trusted: run_skill_script is offered.
    expect(names(step.tools)).toEqual([
      "load_skill",
      "read_skill_resource",
      "run_skill_script",
      "unload_skill",
      "hello",
      "greet",
    ]);
    expect(step.diagnostics.find((d) => d.code === "TOOL_NAME_CLASH")?.message).toBe(
      'code tool "hello" is left out: another tool has that name',
    );
    expect(await ctx.callTool("hello", {})).toEqual({ content: "programmatic hello" });
    expect((await ctx.callTool("greet", { name: "Ada", times: 2 })).content).toContain("hi Ada;hi Ada;");
    expect((await ctx.callTool("greet", { times: 2 })).isError).toBe(true);
  });
});

describe("codeToolsForSkill and runCodeTool (for execute_skill)", () => {
  it("give a skill's tools whether or not it is active, and run them with the same checks", async () => {
    const ctx = await context();
    const host = (ctx as unknown as { deps: { toolbox: { host: Parameters<typeof runCodeTool>[2] } } }).deps.toolbox
      .host;
    const skill = ctx.skills.find((s) => s.name === "calc")!;
    const tools = await codeToolsForSkill(skill, host);
    expect(tools.map((t) => [t.name, t.kind])).toEqual([
      ["add", "programmatic"],
      ["echo", "programmatic"],
    ]);
    const signal = new AbortController().signal;
    expect(await runCodeTool(tools[0]!, { a: 4, b: 5 }, host, { signal })).toEqual({ content: '{"sum":9}' });
    expect((await runCodeTool(tools[0]!, { a: "4" }, host, { signal })).isError).toBe(true);
    expect(ctx.activeSkill).toBeUndefined();
  });
});
