import path from "node:path";
import { isProcessAlive } from "../packages/process/src/group.js";
import { afterEach, describe, expect, it } from "vitest";
import { AgentContext } from "skillctx";
import type { AgentContext as Context, Message } from "skillctx";
import { ROOT } from "./helpers/cli.js";
import { tempRepo } from "./helpers/temp-repo.js";
import type { TempRepo } from "./helpers/temp-repo.js";

const SERVER = path.join(ROOT, "fixtures/mcp/server.mjs");
const CALC = `---
triggers: [calculate]
mcp_tools:
  mcpServers:
    calc:
      command: node
      args: ["${SERVER}", "--name", "calc"]
---
Use the calc server's add tool for arithmetic.
`;
const NOTES_SKILL = `---
name: notes
description: Keeps notes through the notes MCP server.
---
Call the notes server's echo tool.
`;
const NOTES_MCP = JSON.stringify({ mcpServers: { notes: { command: "node", args: [SERVER, "--name", "notes"] } } });

let repo: TempRepo | undefined;
let ctx: Context | undefined;
afterEach(async () => {
  await ctx?.close();
  await repo?.dispose();
  ctx = undefined;
  repo = undefined;
});

const user = (content: string): Message => ({ role: "user", content });
// Running, and not a zombie waiting to be reaped: the process layer's own check.
const alive = isProcessAlive;

describe("MCP servers declared by skills, through AgentContext", () => {
  it("starts a triggered skill's server, lists its tools and answers through callTool", async () => {
    repo = await tempRepo({ ".openhands/microagents/calc.md": CALC });
    ctx = await AgentContext.create({ cwd: repo.dir, guidance: false, trust: { project: true } });
    const before = await ctx.buildContext([user("hello")]);
    expect(before.tools.some((t) => t.name.startsWith("mcp__"))).toBe(false);

    const step = await ctx.buildContext([user("hello"), user("please calculate 2 + 3")]);
    expect(step.activated).toEqual([{ skill: "calc", trigger: "keyword", match: "calculate", messageIndex: 1 }]);
    const add = step.tools.find((t) => t.name === "mcp__calc__add");
    expect(add?.inputSchema).toEqual({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(await ctx.callTool("mcp__calc__add", { a: 2, b: 3 })).toEqual({ content: "5" });
  });

  it("does not start servers of an untrusted project skill, and says so", async () => {
    repo = await tempRepo({ ".openhands/microagents/calc.md": CALC });
    ctx = await AgentContext.create({ cwd: repo.dir, guidance: false });
    const step = await ctx.buildContext([user("calculate 1 + 1")]);
    expect(step.activated.map((a) => a.skill)).toEqual(["calc"]);
    expect(step.tools.some((t) => t.name.startsWith("mcp__"))).toBe(false);
    expect(step.diagnostics.map((d) => d.code)).toContain("MCP_SERVER_UNTRUSTED");
    const call = await ctx.callTool("mcp__calc__add", { a: 1, b: 1 });
    expect(call.isError).toBe(true);
  });

  it("starts an Agent Skill's .mcp.json server when the model loads the skill", async () => {
    repo = await tempRepo({
      ".agents/skills/notes/SKILL.md": NOTES_SKILL,
      ".agents/skills/notes/.mcp.json": NOTES_MCP,
    });
    ctx = await AgentContext.create({ cwd: repo.dir, guidance: false, trust: { project: true } });
    expect((await ctx.buildContext([user("hi")])).tools.some((t) => t.name === "mcp__notes__echo")).toBe(false);
    const loaded = await ctx.callTool("load_skill", { name: "notes" });
    expect(loaded.content).toContain('<skill-loaded name="notes">');
    const step = await ctx.buildContext([user("hi")]);
    expect(step.activated).toEqual([{ skill: "notes", trigger: "load" }]);
    expect(step.tools.map((t) => t.name)).toContain("mcp__notes__echo");
    expect(await ctx.callTool("mcp__notes__echo", { text: "kept" })).toEqual({ content: "kept" });
  });

  it("starts servers of always-on skills at create() and stops them all on close()", async () => {
    repo = await tempRepo();
    ctx = await AgentContext.create({
      cwd: repo.dir,
      guidance: false,
      skills: [
        {
          name: "house-rules",
          content: "Always available tools.",
          source: { kind: "inline", format: "inline", scope: "programmatic" },
          trigger: { type: "always" },
          mcpServers: { mcpServers: { house: { command: "node", args: [SERVER, "--name", "house"] } } },
        },
      ],
    });
    const step = await ctx.buildContext([]);
    expect(step.tools.map((t) => t.name)).toContain("mcp__house__pid");
    const pid = Number((await ctx.callTool("mcp__house__pid", {})).content);
    expect(alive(pid)).toBe(true);
    await ctx.close();
    await ctx.close();
    expect(alive(pid)).toBe(false);
  });

  it("restarts the servers of skills active in a resumed conversation, so the tool list is the same", async () => {
    repo = await tempRepo({ ".openhands/microagents/calc.md": CALC });
    const history = [user("calculate 4 + 4")];
    const original = await AgentContext.create({ cwd: repo.dir, guidance: false, trust: { project: true } });
    const first = await original.buildContext(history);
    const saved = original.state;
    await original.close();
    ctx = await AgentContext.create({
      cwd: repo.dir,
      guidance: false,
      trust: { project: true },
      conversation: { state: saved },
    });
    const resumed = await ctx.buildContext(history);
    expect(resumed.tools).toEqual(first.tools);
    expect(resumed.messages).toEqual(first.messages);
    expect(await ctx.callTool("mcp__calc__add", { a: 4, b: 4 })).toEqual({ content: "8" });
  });
});
