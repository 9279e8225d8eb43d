import { fileURLToPath } from "node:url";
import type { Diagnostic, Skill, SkillInit, Trust } from "@skillctx/core";
import { createKeywordMatcher, createPathMatcher } from "@skillctx/core";
import { SkillSchema } from "@skillctx/core/schemas";
import { afterEach, describe, expect, it } from "vitest";
import type { SkillSet } from "../packages/engine/src/context-types.js";
import { descendants, isProcessAlive } from "../packages/mcp-bridge/src/test-utils.js";
import { SkillServerPool, type McpSettings } from "../packages/engine/src/engine/skill-servers.js";

const SERVER = fileURLToPath(new URL("../fixtures/mcp/server.mjs", import.meta.url));
const servers = (name: string, extra: Record<string, unknown> = {}) => ({
  mcpServers: { [name]: { command: process.execPath, args: [SERVER, "--name", name], ...extra } },
});

function skill(init: Partial<SkillInit> & { name: string }): Skill {
  return SkillSchema.parse({
    content: "body",
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    ...init,
  });
}

function skillSet(skills: Skill[]): SkillSet {
  return {
    skills,
    byName: new Map(skills.map((s) => [s.name, s])),
    guidance: skills.filter((s) => s.trigger.type === "always"),
    catalog: skills.filter((s) => s.trigger.type !== "always"),
    keywords: createKeywordMatcher(skills),
    paths: createPathMatcher(skills),
    diagnostics: [],
  };
}

const house = skill({ name: "house", trigger: { type: "always" }, mcpServers: servers("house") });
const calc = skill({
  name: "calc",
  trigger: { type: "keyword", keywords: ["calculate"] },
  mcpServers: servers("calc"),
});
const notes = skill({ name: "notes", mcpServers: servers("notes") });

const pools: SkillServerPool[] = [];
function pool(options: { trust?: Trust; settings?: McpSettings } = {}) {
  const reported: Diagnostic[] = [];
  const p = new SkillServerPool({
    trust: () => options.trust,
    settings: options.settings,
    report: (d) => void reported.push(d),
  });
  pools.push(p);
  return { pool: p, reported };
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  expect(descendants()).toEqual([]);
});

const offered = (p: SkillServerPool) => [...new Set(p.definitions().map((d) => d.name.split("__")[1]))];
const pidOf = async (p: SkillServerPool, server: string) =>
  Number((await p.call(`mcp__${server}__pid`, {}, {})).content);

describe("SkillServerPool", () => {
  it("offers a loaded skill's tools until deactivate, then refuses them while the server stays up for reuse", async () => {
    const { pool: p } = pool();
    await p.reload(skillSet([house, calc, notes]), []);
    expect(offered(p)).toEqual(["house"]);

    p.load(notes);
    await p.settled();
    expect(offered(p)).toEqual(["house", "notes"]);
    expect(await p.call("mcp__notes__echo", { text: "hi" }, {})).toEqual({ content: "hi" });
    const pid = await pidOf(p, "notes");

    p.deactivate("notes");
    expect(offered(p)).toEqual(["house"]);
    expect(await p.call("mcp__notes__echo", { text: "hi" }, {})).toEqual({
      content:
        'MCP tool "mcp__notes__echo" of skill "notes" is not available: the skill is not active. Load it again to use its tools.',
      isError: true,
    });
    expect(isProcessAlive(pid)).toBe(true);

    p.load(notes);
    await p.settled();
    expect(offered(p)).toEqual(["house", "notes"]);
    expect(await pidOf(p, "notes")).toBe(pid);
  });

  it("keeps the servers of guidance and of fired skills for the conversation, even when the skill is also loaded and unloaded", async () => {
    const { pool: p } = pool();
    await p.reload(skillSet([house, calc, notes]), []);
    p.activate([calc]);
    p.load(calc);
    await p.settled();
    p.deactivate("calc");
    p.deactivate("house");
    expect(offered(p)).toEqual(["calc", "house"]);
    expect(await p.call("mcp__calc__add", { a: 2, b: 3 }, {})).toEqual({ content: "5" });

    // Loaded first, fired later: the conversation lease wins.
    p.load(notes);
    p.activate([notes]);
    await p.settled();
    p.deactivate("notes");
    expect(offered(p)).toEqual(["calc", "house", "notes"]);
  });

  it("keeps leases across a reload, and takes the loaded skill of a resumed conversation as loaded", async () => {
    const { pool: p } = pool();
    const set = skillSet([house, calc, notes]);
    await p.reload(set, []);
    p.load(notes);
    p.activate([calc]);
    await p.settled();
    await p.reload(set, []);
    expect(offered(p)).toEqual(["calc", "house", "notes"]);
    p.deactivate("notes");
    expect(offered(p)).toEqual(["calc", "house"]);

    const { pool: resumed } = pool();
    await resumed.reload(set, ["calc", "notes"], undefined, "notes");
    expect(offered(resumed)).toEqual(["calc", "house", "notes"]);
    resumed.deactivate("notes");
    resumed.deactivate("calc");
    expect(offered(resumed)).toEqual(["calc", "house"]);
  });

  it("is terminal after close(): reload, activate and load start nothing", async () => {
    const { pool: p } = pool();
    const set = skillSet([house, calc, notes]);
    await p.reload(set, []);
    const pid = await pidOf(p, "house");
    await p.close();
    expect(isProcessAlive(pid)).toBe(false);
    await p.reload(set, ["calc"]);
    p.activate([calc]);
    p.load(notes);
    await p.settled();
    expect(p.definitions()).toEqual([]);
    expect(p.owns("mcp__house__pid")).toBe(false);
    expect(descendants()).toEqual([]);
    await p.close();
  });

  it("starts a project skill's server only when the project scope is trusted", async () => {
    const repo = skill({
      name: "repo",
      trigger: { type: "always" },
      source: { kind: "file", format: "legacy", scope: "project", path: "/repo/x.md" },
      mcpServers: servers("repo"),
    });
    const untrusted = pool();
    await untrusted.pool.reload(skillSet([repo]), []);
    expect(untrusted.pool.definitions()).toEqual([]);
    expect(untrusted.reported.map((d) => d.code)).toEqual(["MCP_SERVER_UNTRUSTED"]);

    const trusted = pool({ trust: { project: true } });
    await trusted.pool.reload(skillSet([repo]), []);
    expect(offered(trusted.pool)).toEqual(["repo"]);
  });

  it("expands ${VAR} from mcp.vars and mcp.env only, never from the host's other variables", async () => {
    process.env.SKILLCTX_POOL_SECRET = "hunter2";
    try {
      const args = {
        args: [SERVER, "--name", "vars"],
        env: { FROM_VARS: "${GIVEN}", FROM_HOST: "${SKILLCTX_POOL_SECRET}", FROM_ENV: "${ENV_ONLY}" },
      };
      const s = skill({
        name: "vars",
        trigger: { type: "always" },
        mcpServers: { mcpServers: { vars: { command: process.execPath, ...args } } },
      });
      const { pool: p, reported } = pool({ settings: { vars: { GIVEN: "given" }, env: { ENV_ONLY: "from env" } } });
      await p.reload(skillSet([s]), []);
      const env = async (name: string) => (await p.call("mcp__vars__env", { name }, {})).content;
      expect(await env("FROM_VARS")).toBe("given");
      expect(await env("FROM_ENV")).toBe("from env");
      expect(await env("FROM_HOST")).toBe("${SKILLCTX_POOL_SECRET}");
      expect(reported.map((d) => d.code)).toEqual(["MCP_CONFIG_UNRESOLVED_VAR"]);
    } finally {
      delete process.env.SKILLCTX_POOL_SECRET;
    }
  });
});
