import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SkillSchema, type Skill, type SkillInit } from "@skillctx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpBridge } from "./bridge.js";
import { serversFromSkill } from "./servers-from-skill.js";
import { fixture } from "./test-utils.js";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "skillctx-mcp-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function skillDir(name: string, mcpJson?: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: test\n---\nbody\n`);
  if (mcpJson !== undefined) await writeFile(join(dir, ".mcp.json"), mcpJson);
  return dir;
}

function skill(init: Partial<SkillInit> & { name: string }): Skill {
  return SkillSchema.parse({
    content: "body",
    source: { kind: "file", format: "skill-md", scope: "user", path: init.dir === undefined ? undefined : join(init.dir, "SKILL.md") },
    trigger: { type: "on-demand" },
    ...init,
  });
}

const legacy = (init: Partial<SkillInit> & { name: string }): Skill =>
  skill({ source: { kind: "file", format: "legacy", scope: "project", path: "/repo/.openhands/skills/x.md" }, trigger: { type: "keyword", keywords: ["x"] }, ...init });

describe("serversFromSkill", () => {
  it("reads legacy mcp_tools in both shapes", async () => {
    const wrapped = await serversFromSkill(legacy({ name: "w", mcpServers: { mcpServers: { fs: { command: "npx", args: ["-y", "server-fs"] } } } }));
    const bare = await serversFromSkill(legacy({ name: "b", mcpServers: { fs: { command: "npx", args: ["-y", "server-fs"] } } }));
    for (const { servers, diagnostics } of [wrapped, bare]) {
      expect(diagnostics).toEqual([]);
      expect(servers).toHaveLength(1);
      expect(servers[0]).toMatchObject({ name: "fs", config: { type: "stdio", command: "npx", args: ["-y", "server-fs"] }, path: "/repo/.openhands/skills/x.md" });
    }
    expect(wrapped.servers[0]!.skill).toBe("w");
  });

  it("trusts user and programmatic skills by default, not project ones, and obeys the option", async () => {
    const decl = { s: { command: "x" } };
    expect((await serversFromSkill(legacy({ name: "p", mcpServers: decl }))).servers[0]!.trusted).toBe(false);
    expect((await serversFromSkill(legacy({ name: "p", mcpServers: decl }), { trusted: true })).servers[0]!.trusted).toBe(true);
    expect((await serversFromSkill(skill({ name: "u", mcpServers: decl }))).servers[0]!.trusted).toBe(true);
    expect((await serversFromSkill(skill({ name: "u", mcpServers: decl }), { trusted: false })).servers[0]!.trusted).toBe(false);
  });

  it("reads .mcp.json beside SKILL.md and expands ${SKILL_ROOT}, ${VAR} and ${VAR:-default}", async () => {
    const dir = await skillDir(
      "with-json",
      JSON.stringify({
        mcpServers: {
          tool: { command: "node", args: ["${SKILL_ROOT}/server.js", "--token", "${TOKEN}", "--mode=${MODE:-safe}"], env: { "${KEY_NAME}": "${TOKEN}" }, cwd: "sub" },
          remote: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        },
      }),
    );
    const { servers, diagnostics } = await serversFromSkill(skill({ name: "with-json", dir }), { env: { TOKEN: "t0k", KEY_NAME: "API_KEY", HOST: "example.com" } });
    expect(diagnostics).toEqual([]);
    expect(servers.map((s) => s.config)).toEqual([
      { type: "stdio", command: "node", args: [`${dir}/server.js`, "--token", "t0k", "--mode=safe"], env: { API_KEY: "t0k" }, cwd: join(dir, "sub") },
      { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer t0k" } },
    ]);
    expect(servers.every((s) => s.path === join(dir, ".mcp.json"))).toBe(true);
  });

  it("leaves unresolved references as written and reports them", async () => {
    const { servers, diagnostics } = await serversFromSkill(legacy({ name: "u", mcpServers: { s: { command: "x", args: ["${NOPE}", "${SKILL_ROOT}"] } } }), { env: {} });
    expect(servers[0]!.config).toMatchObject({ args: ["${NOPE}", "${SKILL_ROOT}"] });
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "MCP_CONFIG_UNRESOLVED_VAR", severity: "warning", message: 'MCP server "s": ${NOPE}, ${SKILL_ROOT} not set; left as written' }),
    ]);
  });

  it("keeps the good servers when one entry is broken", async () => {
    const { servers, diagnostics } = await serversFromSkill(
      legacy({ name: "mixed", mcpServers: { good: { command: "x", extra: 1 }, bad: { args: ["no command"] }, worse: "npx thing" } }),
    );
    expect(servers.map((s) => s.name)).toEqual(["good"]);
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["MCP_CONFIG_UNKNOWN_KEY", "warning"],
      ["MCP_CONFIG_INVALID", "error"],
      ["MCP_CONFIG_INVALID", "error"],
    ]);
    expect(diagnostics[1]!.message).toContain('"bad"');
  });

  it("reports a .mcp.json that is not JSON, with its line", async () => {
    const dir = await skillDir("bad-json", '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n');
    const { servers, diagnostics } = await serversFromSkill(skill({ name: "bad-json", dir }));
    expect(servers).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: "MCP_CONFIG_INVALID", path: join(dir, ".mcp.json"), line: 3 })]);
  });

  it("reports an mcpServers value that is not a map", async () => {
    const dir = await skillDir("not-map", JSON.stringify({ mcpServers: ["a"], other: 1 }));
    const { servers, diagnostics } = await serversFromSkill(skill({ name: "not-map", dir }));
    expect(servers).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(["MCP_CONFIG_UNKNOWN_KEY", "MCP_CONFIG_INVALID"]);
  });

  it("keeps the frontmatter server when .mcp.json declares the same name", async () => {
    const dir = await skillDir("both", JSON.stringify({ mcpServers: { s: { command: "from-json" }, t: { command: "t" } } }));
    const { servers, diagnostics } = await serversFromSkill(skill({ name: "both", dir, mcpServers: { s: { command: "from-frontmatter" } } }));
    expect(servers.map((s) => [s.name, s.config.type === "stdio" && s.config.command])).toEqual([["s", "from-frontmatter"], ["t", "t"]]);
    expect(diagnostics.map((d) => d.code)).toEqual(["MCP_SERVER_DUPLICATE"]);
  });

  it("does not read .mcp.json for a legacy skill, whose folder holds other skills", async () => {
    const dir = await skillDir("legacy-folder", JSON.stringify({ mcpServers: { s: { command: "x" } } }));
    const { servers } = await serversFromSkill(legacy({ name: "l", dir }));
    expect(servers).toEqual([]);
  });

  it("declares servers that a bridge can start (end to end with a real .mcp.json)", async () => {
    const dir = await skillDir(
      "runnable",
      JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixture("server.mjs")], env: { SKILL_DIR: "${SKILL_ROOT}" } } } }),
    );
    const { servers } = await serversFromSkill(skill({ name: "runnable", dir }));
    await using bridge = await createMcpBridge(servers, { start: ["fixture"] });
    expect((await bridge.callTool("mcp__fixture__env", { name: "SKILL_DIR" })).content).toBe(dir);
  });
});
