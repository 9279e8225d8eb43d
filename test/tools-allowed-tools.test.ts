import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileAllowedTools, toolNamePart } from "../packages/engine/src/tools/allowed-tools.js";
import type { AgentContext, AgentContextOptions, HostTool, ToolDefinition } from "skillctx";
import { ROOT } from "./helpers/cli.js";
import { useToolSkills } from "./helpers/tools-fixture.js";
import { withDefaults } from "./helpers/options.js";

const suite = useToolSkills();

/** Host tools that log their calls. */
function hostTools(log: string[]): HostTool[] {
  const make = (name: string): HostTool => ({
    name,
    description: `${name} tool`,
    inputSchema: { type: "object", properties: { arg: { type: "string" } } },
    execute: async (args) => {
      log.push(`${name} ${JSON.stringify(args)}`);
      return `${name} done`;
    },
  });
  return [make("Read"), make("Write"), make("Grep"), make("Bash")];
}

const SERVER = path.join(ROOT, "fixtures/mcp/server.mjs");

/** A context whose project declares an MCP server (`docs`, in .mcp.json), its tools listed. */
async function withServer(log: string[], options: Partial<AgentContextOptions> = {}): Promise<AgentContext> {
  const config = { mcpServers: { docs: { command: "node", args: [SERVER, "--name", "docs"] } } };
  await writeFile(path.join(suite.copy.cwd, ".mcp.json"), JSON.stringify(config));
  const ctx = await context(log, { trust: { project: true }, ...options });
  await ctx.listToolsSettled();
  return ctx;
}

async function context(log: string[], options: Partial<AgentContextOptions> = {}): Promise<AgentContext> {
  const ctx = await suite.context(withDefaults({ tools: { host: hostTools(log) } }, options));
  return ctx;
}

const names = (tools: ToolDefinition[]) => tools.map((tool) => tool.name);
const SKILL_TOOLS = ["load_skill", "read_skill_resource", "run_skill_script", "unload_skill"];

describe("allowed-tools patterns", () => {
  it("match on the tool-name part, exactly, with * and ? wildcards", () => {
    expect(toolNamePart("Bash(git:*)")).toBe("Bash");
    expect(toolNamePart(" Read ")).toBe("Read");
    const allowed = compileAllowedTools(["Read", "Bash(git log:*)", "mcp__github__*", "tool_?"]);
    expect(["Read", "Bash", "mcp__github__search", "tool_a"].map(allowed.allows)).toEqual([true, true, true, true]);
    expect(["read", "Bash2", "mcp__gitlab__search", "tool_ab", "Grep"].map(allowed.allows)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(allowed.unmatched(["Read", "Bash"])).toEqual(["mcp__github__*", "tool_?"]);
    expect(compileAllowedTools(["(x)"]).allows("")).toBe(false);
  });
});

describe("tool list and filtering", () => {
  it("lists host tools, then skill tools, then the MCP servers' tools, in a stable order", async () => {
    const log: string[] = [];
    const ctx = await withServer(log);
    const step = await ctx.buildContext([]);
    const served = names(step.tools).filter((name) => name.startsWith("mcp__docs__"));
    expect(served).toContain("mcp__docs__echo");
    expect(names(step.tools)).toEqual(["Read", "Write", "Grep", "Bash", ...SKILL_TOOLS, ...served]);
    expect(step.tools[0]).toEqual({
      name: "Read",
      description: "Read tool",
      inputSchema: { type: "object", properties: { arg: { type: "string" } } },
    });
    expect(JSON.stringify((await ctx.buildContext([])).tools)).toBe(JSON.stringify(step.tools));
  });

  it("runs host and MCP server tools through callTool", async () => {
    const log: string[] = [];
    const ctx = await withServer(log);
    expect(await ctx.callTool("Grep", { arg: "x" })).toEqual({ content: "Grep done" });
    expect(await ctx.callTool("mcp__docs__echo", '{"text":"y"}')).toEqual({ content: "y" });
    expect(log).toEqual(['Grep {"arg":"x"}']);
  });

  it('with tools.filter "filter" lists only the allowed tools plus the skill tools while a skill with allowed-tools is active, and restores them', async () => {
    const log: string[] = [];
    const ctx = await withServer(log, { tools: { filter: "filter" } });
    const before = await ctx.buildContext([]);
    await ctx.callTool("load_skill", { name: "pdf-forms" }); // allowed-tools: Read run_skill_script Bash(python3:*)
    const during = await ctx.buildContext([]);
    expect(names(during.tools)).toEqual(["Read", "Bash", ...SKILL_TOOLS]);
    const refused = await ctx.callTool("Write", { arg: "out.pdf" });
    expect(refused).toEqual({
      isError: true,
      content:
        'The tool "Write" is not allowed while the skill "pdf-forms" is active (its allowed-tools: Read, run_skill_script, Bash(python3:*)). ' +
        'Use an allowed tool, or call unload_skill { "name": "pdf-forms" } to restore every tool.',
    });
    expect((await ctx.callTool("mcp__docs__echo", { text: "z" })).isError).toBe(true);
    expect(await ctx.callTool("Read", { arg: "a" })).toEqual({ content: "Read done" });
    expect(log).toEqual(['Read {"arg":"a"}']);
    await ctx.callTool("unload_skill", { name: "pdf-forms" });
    const after = await ctx.buildContext([]);
    expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    expect(await ctx.callTool("Write", { arg: "b" })).toEqual({ content: "Write done" });
  });

  it("leaves every tool in place for a skill without allowed-tools", async () => {
    const ctx = await context([]);
    const before = await ctx.buildContext([]);
    await ctx.callTool("load_skill", { name: "with-resources" });
    expect((await ctx.buildContext([])).tools).toEqual(before.tools);
  });

  it("warns once about allowed-tools names that match no tool", async () => {
    const ctx = await context([], { tools: { filter: "filter" } });
    await ctx.buildContext([]);
    await ctx.callTool("load_skill", { name: "release-notes" }); // allowed-tools: Read Grep Bash(git log:*) NoSuchTool
    const step = await ctx.buildContext([]);
    expect(step.diagnostics).toEqual([
      {
        code: "ALLOWED_TOOL_UNKNOWN",
        severity: "warning",
        message: 'allowed-tools of "release-notes" names tools this agent does not have: NoSuchTool',
        path: path.join(suite.copy.skills, "release-notes/SKILL.md"),
      },
    ]);
    expect(names(step.tools)).toEqual(["Read", "Grep", "Bash", ...SKILL_TOOLS]);
    expect((await ctx.buildContext([])).diagnostics).toEqual([]);
  });

  it('by default (tools.filter "refuse") keeps the tool list byte-stable and refuses calls instead', async () => {
    const log: string[] = [];
    const ctx = await context(log);
    const before = JSON.stringify((await ctx.buildContext([])).tools);
    await ctx.callTool("load_skill", { name: "pdf-forms" });
    expect(JSON.stringify((await ctx.buildContext([])).tools)).toBe(before);
    expect((await ctx.callTool("Grep", {})).isError).toBe(true);
    expect(log).toEqual([]);
  });

  it('with tools.filter "off" ignores allowed-tools', async () => {
    const log: string[] = [];
    const ctx = await context(log, { tools: { filter: "off" } });
    const before = JSON.stringify((await ctx.buildContext([])).tools);
    const loaded = await ctx.callTool("load_skill", { name: "pdf-forms" });
    expect(loaded.content).not.toContain("limited to its allowed-tools");
    expect(JSON.stringify((await ctx.buildContext([])).tools)).toBe(before);
    expect(await ctx.callTool("Write", {})).toEqual({ content: "Write done" });
  });

  it("rejects a bad tools.filter, tools.toolset or host tool at create, naming the option", async () => {
    await expect(context([], { tools: { filter: "strict" as never } })).rejects.toThrow(/^tools\.filter must be/);
    await expect(context([], { tools: { toolset: "crewai" as never } })).rejects.toThrow(
      /^tools\.toolset must be one of skillctx, strands, openhands, langflow, claude/,
    );
    await expect(context([], { tools: { host: [{ name: "" }] } })).rejects.toThrow(
      /^tools\.host\[0\] needs a non-empty name/,
    );
  });
});

describe("host tools", () => {
  it("pass results through, report thrown errors and missing execute as error results", async () => {
    const tools: HostTool[] = [
      { name: "json", execute: async () => ({ ok: 1 }) },
      { name: "result", execute: () => ({ content: "bad path", isError: true }) },
      { name: "throws", execute: async () => Promise.reject(new Error("disk full")) },
      { name: "declared" },
    ];
    const ctx = await context([], { tools: { host: tools } });
    expect(await ctx.callTool("json", {})).toEqual({ content: '{"ok":1}' });
    expect(await ctx.callTool("result", {})).toEqual({ content: "bad path", isError: true });
    expect(await ctx.callTool("throws", {})).toEqual({ content: "throws failed: disk full", isError: true });
    expect((await ctx.callTool("declared", {})).isError).toBe(true);
    const step = await ctx.buildContext([]);
    expect(step.tools[3]).toEqual({
      name: "declared",
      description: "",
      inputSchema: { type: "object", properties: {} },
    });
  });

  it("cannot shadow a skill tool: the clash is a warning and the skill tool stays", async () => {
    const log: string[] = [];
    const ctx = await context(log, { tools: { host: [{ name: "load_skill", execute: () => log.push("host") }] } });
    const step = await ctx.buildContext([]);
    expect(names(step.tools)).toEqual(SKILL_TOOLS);
    expect(step.diagnostics).toContainEqual({
      code: "TOOL_NAME_CLASH",
      severity: "warning",
      message: 'host tool "load_skill" is left out: a skill tool has that name',
    });
    expect((await ctx.callTool("load_skill", { name: "pdf-forms" })).content).toContain("<skill-loaded");
    expect(log).toEqual([]);
  });
});

describe("state round-trip", () => {
  it("resumes with the active skill, its filtered tools and its frozen body", async () => {
    const log: string[] = [];
    const first = await context(log, { tools: { filter: "filter" } });
    const loaded = await first.callTool("load_skill", { name: "pdf-forms" });
    const filtered = (await first.buildContext([])).tools;
    const saved = JSON.parse(JSON.stringify(first.state));
    expect(saved.activeSkill).toBe("pdf-forms");

    // The file changes on disk: the resumed context still answers with the frozen body.
    await writeFile(
      path.join(suite.copy.skills, "pdf-forms/SKILL.md"),
      "---\nname: pdf-forms\ndescription: Changed.\nallowed-tools: Read\n---\nNew body.\n",
    );
    const second = await context(log, {
      conversation: { state: saved },
      skills: [suite.copy.skills],
      tools: { filter: "filter" },
    });
    expect(second.activeSkill).toBe("pdf-forms");
    const resumed = await second.buildContext([]);
    expect(names(resumed.tools)).toEqual(["Read", ...SKILL_TOOLS]);
    expect(names(filtered)).toEqual(["Read", "Bash", ...SKILL_TOOLS]);
    expect((await second.callTool("Write", {})).isError).toBe(true);
    const again = await second.callTool("load_skill", { name: "pdf-forms" });
    expect(again.content.split("</skill-loaded>")[0]).toBe(loaded.content.split("</skill-loaded>")[0]);
  });

  it("drops an active skill that is no longer available, with a warning, and restores every tool", async () => {
    const ctx = await context([]);
    await ctx.callTool("load_skill", { name: "pdf-forms" });
    await ctx.setSkills([path.join(suite.copy.skills, "with-resources")]);
    const step = await ctx.buildContext([]);
    expect(ctx.activeSkill).toBeUndefined();
    expect(step.diagnostics).toContainEqual({
      code: "ACTIVE_SKILL_GONE",
      severity: "warning",
      message: 'the active skill "pdf-forms" is no longer available; every tool is available again',
    });
    // with-resources has no scripts/ folder: run_skill_script is no longer offered (issue 37).
    expect(names(step.tools)).toEqual([
      "Read",
      "Write",
      "Grep",
      "Bash",
      ...SKILL_TOOLS.filter((n) => n !== "run_skill_script"),
    ]);
  });
});
