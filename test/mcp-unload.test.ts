// The tools of an MCP server that a loaded skill declared are offered while the skill is active and
// withdrawn on unload_skill (the server stays up for reuse until close()); the servers of guidance and
// of keyword-triggered skills stay for the conversation. Through AgentContext and the model's tools.
import path from "node:path";
import { isProcessAlive } from "../packages/process/src/group.js";
import { afterEach, describe, expect, it } from "vitest";
import { AgentContext } from "skillctx";
import type { AgentContext as Context, Message } from "skillctx";
import { ROOT } from "./helpers/cli.js";
import { tempRepo } from "./helpers/temp-repo.js";
import type { TempRepo } from "./helpers/temp-repo.js";
import { compareCodePoints } from "../packages/core/src/code-point-order.js";

const SERVER = path.join(ROOT, "fixtures/mcp/server.mjs");
const mcpJson = (name: string) =>
  JSON.stringify({ mcpServers: { [name]: { command: "node", args: [SERVER, "--name", name] } } });
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Uses the ${name} MCP server.\n---\nCall the ${name} server's echo tool.\n`;
const CALC = `---
triggers: [calculate]
mcp_tools:
  mcpServers:
    calc:
      command: node
      args: ["${SERVER}", "--name", "calc"]
---
Use the calc server's add tool.
`;

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
const mcpServersListed = async (c: Context, history: Message[]) =>
  [
    ...new Set(
      (await c.buildContext(history)).tools.filter((t) => t.name.startsWith("mcp__")).map((t) => t.name.split("__")[1]),
    ),
  ].sort((a, b) => compareCodePoints(String(a), String(b)));

describe("MCP tools follow the active skill", () => {
  it("withdraws a loaded skill's tools on unload_skill, keeps its server for a later load, and refuses calls meanwhile", async () => {
    repo = await tempRepo({
      ".agents/skills/notes/SKILL.md": skillMd("notes"),
      ".agents/skills/notes/.mcp.json": mcpJson("notes"),
    });
    ctx = await AgentContext.create({ cwd: repo.dir, guidance: false, trust: { project: true } });
    const history = [user("hi")];
    expect(await mcpServersListed(ctx, history)).toEqual([]);

    expect((await ctx.callTool("load_skill", { name: "notes" })).isError).toBeUndefined();
    expect(await mcpServersListed(ctx, history)).toEqual(["notes"]);
    const pid = Number((await ctx.callTool("mcp__notes__pid", {})).content);
    expect(alive(pid)).toBe(true);

    expect((await ctx.callTool("unload_skill", { name: "notes" })).isError).toBeUndefined();
    expect(await mcpServersListed(ctx, history)).toEqual([]);
    const refused = await ctx.callTool("mcp__notes__echo", { text: "x" });
    // Refused before it reaches the server (by the toolbox, or by the pool: "not available").
    expect(refused.isError).toBe(true);
    expect(refused.content).toMatch(/mcp__notes__echo/);
    expect(alive(pid)).toBe(true);

    await ctx.callTool("load_skill", { name: "notes" });
    expect(await mcpServersListed(ctx, history)).toEqual(["notes"]);
    expect(Number((await ctx.callTool("mcp__notes__pid", {})).content)).toBe(pid);

    await ctx.close();
    expect(alive(pid)).toBe(false);
  });

  it("withdraws the previous skill's tools when the model loads another one", async () => {
    repo = await tempRepo({
      ".agents/skills/notes/SKILL.md": skillMd("notes"),
      ".agents/skills/notes/.mcp.json": mcpJson("notes"),
      ".agents/skills/docs/SKILL.md": skillMd("docs"),
      ".agents/skills/docs/.mcp.json": mcpJson("docs"),
    });
    ctx = await AgentContext.create({ cwd: repo.dir, guidance: false, trust: { project: true } });
    await ctx.callTool("load_skill", { name: "notes" });
    expect(await mcpServersListed(ctx, [user("hi")])).toEqual(["notes"]);
    await ctx.callTool("load_skill", { name: "docs" });
    expect(await mcpServersListed(ctx, [user("hi")])).toEqual(["docs"]);
  });

  it("keeps a keyword-triggered skill's tools for the conversation when another skill is unloaded", async () => {
    repo = await tempRepo({
      ".openhands/microagents/calc.md": CALC,
      ".agents/skills/notes/SKILL.md": skillMd("notes"),
      ".agents/skills/notes/.mcp.json": mcpJson("notes"),
    });
    ctx = await AgentContext.create({ cwd: repo.dir, guidance: false, trust: { project: true } });
    const history = [user("please calculate 2 + 3")];
    expect(await mcpServersListed(ctx, history)).toEqual(["calc"]);
    await ctx.callTool("load_skill", { name: "notes" });
    expect(await mcpServersListed(ctx, history)).toEqual(["calc", "notes"]);
    await ctx.callTool("unload_skill", { name: "notes" });
    expect(await mcpServersListed(ctx, history)).toEqual(["calc"]);
    expect(await ctx.callTool("mcp__calc__add", { a: 2, b: 3 })).toEqual({ content: "5" });
  });
});
