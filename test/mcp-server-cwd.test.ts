/**
 * Where stdio servers start (docs/decisions.md, "Working folder of MCP servers"): a project's `.mcp.json`
 * servers in the project root, as Claude Code starts them (project-scoped servers run with cwd at the project
 * root, so `"args": ["dist/index.js"]` works: russellbrenner/auslaw-mcp PR #83; Claude Code also passes
 * CLAUDE_PROJECT_DIR, https://code.claude.com/docs/en/changelog 2.1.141), and a skill's own servers in the
 * skill's folder (the folder `${SKILL_ROOT}` names, as OpenHands' `expand_mcp_variables` and Claude Code's
 * `${CLAUDE_PLUGIN_ROOT}` anchor a bundle's paths). A real stdio server started from a relative path.
 */
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Skill } from "@skillctx/core";
import { parseSkill } from "@skillctx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { put } from "../packages/core/src/testing/temp-dir.js";
import { createMcpBridge } from "../packages/mcp-bridge/src/bridge.js";
import { serversFromProject } from "../packages/mcp-bridge/src/servers-from-project.js";
import { serversFromSkill } from "../packages/mcp-bridge/src/servers-from-skill.js";
import { fixture } from "../packages/mcp-bridge/src/test-utils.js";

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-server-cwd-")));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// A server script of the repository's own, found only relative to the folder it starts in.
const LAUNCHER = `await import(${JSON.stringify(pathToFileURL(fixture("server.mjs")).href)});\n`;
const config = (name: string) => ({
  mcpServers: { [name]: { command: process.execPath, args: ["tools/server.mjs", "--name", name] } },
});

describe("the working folder of stdio servers", () => {
  it("a project's .mcp.json server starts in the project root: a relative path in args works", async () => {
    const project = path.join(root, "project");
    await put(project, "tools/server.mjs", LAUNCHER);
    await put(project, ".mcp.json", JSON.stringify(config("local")));
    const { servers, diagnostics } = await serversFromProject(project, { trust: { project: true } });
    expect(diagnostics).toEqual([]);
    expect(servers[0]?.config).toMatchObject({ type: "stdio", cwd: project });
    await using bridge = await createMcpBridge(servers, { start: ["local"] });
    expect(await bridge.callTool("mcp__local__cwd", {})).toEqual({ content: project });
  });

  it("a skill's own server starts in the skill's folder; a relative cwd resolves against it", async () => {
    const dir = path.join(root, "skills/with-server");
    await put(dir, "SKILL.md", "---\nname: with-server\ndescription: Has a server.\n---\nBody.\n");
    await put(dir, "tools/server.mjs", LAUNCHER);
    const block = config("own");
    await put(dir, ".mcp.json", JSON.stringify(block));
    const skill: Skill = parseSkill("---\nname: with-server\ndescription: d\n---\n", {
      path: path.join(dir, "SKILL.md"),
      scope: "user",
    });
    const { servers } = await serversFromSkill(skill);
    expect(servers[0]?.config).toMatchObject({ cwd: dir });
    await using bridge = await createMcpBridge(servers, { start: ["own"] });
    expect(await bridge.callTool("mcp__own__cwd", {})).toEqual({ content: dir });
    // A cwd the author wrote is kept, relative to the skill's folder.
    await put(dir, ".mcp.json", JSON.stringify({ mcpServers: { own: { ...block.mcpServers.own, cwd: "tools" } } }));
    const moved = await serversFromSkill(skill);
    expect(moved.servers[0]?.config).toMatchObject({ cwd: path.join(dir, "tools") });
  });
});
