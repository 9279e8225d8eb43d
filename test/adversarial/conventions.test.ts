/**
 * Adversarial tests of the conventions of other agents (issue 13): a project .mcp.json with hostile
 * server names and commands, a deep folder chain for AGENTS.md layering, an AGENTS.override.md that
 * leads out of the repository, guidance far beyond Codex's cap, and a hostile agents/openai.yaml.
 * Each runs in a fresh process (runIsolated); each test's name states its bound.
 */
import { describe, expect, it } from "vitest";
import { itWithTool } from "../helpers/tools-present.js";
import { expectBounded, repoPrelude, runIsolated, withPackageSources } from "./isolated.js";

// A file cut by the Codex cap ends with skillctx's note, which the cap does not count (compat/src/agents-chain.ts).
const PRELUDE = `${repoPrelude("skillctx-adv-conventions-")}
const withoutCapNote = (text) => text.replace(/\\n?\\[skillctx: the AGENTS\\.md chain is capped[^\\]]*\\]$/, "");
`;
const source = withPackageSources;

describe("adversarial: the project's MCP configuration", () => {
  itWithTool("git")(
    "an untrusted .mcp.json and .cursor/mcp.json with hostile names and commands start nothing (< 20 s, < 500 MB)",
    async () => {
      const result = await runIsolated<{ ran: boolean; tools: string[]; codes: string[]; names: number }>(
        source(`${PRELUDE}
import { AgentContext } from "@skillctx-src/skillctx";
export default async () => {
  const marker = path.join(parent, "pwned");
  const run = { command: "sh", args: ["-c", "touch " + marker] };
  const servers = {
    "ok": run,
    "bidi\\u202eevil": run,
    "ctrl\\u0007bell": run,
    "": run,
    ["x".repeat(300)]: run,
    ["$(touch " + marker + ")"]: run,
    "\${HOME}": { command: "\${HOME}/../bin/sh", args: ["-c", "touch " + marker] },
    "http": { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "\${SECRET}" } },
  };
  for (let i = 0; i < 2000; i++) servers["flood-" + i] = run;
  put(".mcp.json", JSON.stringify({ mcpServers: servers }));
  // "ok" again with other settings (an identical copy is silent), so MCP_SERVER_DUPLICATE is told.
  put(".cursor/mcp.json", JSON.stringify({ mcpServers: { ok: { ...run, timeout: 1234 }, cursor: run } }));
  gitInit();
  const ctx = await AgentContext.create({ cwd: repo, sources: { homeDir: parent }, guidance: false });
  try {
    const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
    const called = await ctx.callTool("mcp__ok__echo", { text: "x" });
    await new Promise((r) => setTimeout(r, 300));
    const codes = [...new Set(step.diagnostics.map((d) => d.code))].sort();
    return done({ ran: existsSync(marker) || !called.isError, tools: step.tools.map((t) => t.name).filter((n) => n.startsWith("mcp__")), codes, names: step.diagnostics.filter((d) => d.code === "MCP_CONFIG_INVALID").length });
  } finally {
    await ctx.close();
  }
};`),
        { timeoutMs: 60_000 },
      );
      const value = expectBounded(result, { ms: 20_000, mb: 500 }, "hostile project MCP config");
      expect(value.ran).toBe(false);
      expect(value.tools).toEqual([]);
      expect(value.codes).toEqual(
        expect.arrayContaining(["MCP_CONFIG_INVALID", "MCP_SERVER_DUPLICATE", "MCP_SERVER_UNTRUSTED"]),
      );
      // The empty, bidi, control-character and over-long names are refused outright.
      expect(value.names).toBe(4);
    },
  );
});

describe("adversarial: AGENTS.md layering", () => {
  itWithTool("git")(
    "a 300-folder chain with an AGENTS.md at every level reads each level once, root first (< 15 s, < 500 MB)",
    async () => {
      const result = await runIsolated<{ count: number; inOrder: boolean; capped: boolean; chainBytes: number }>(
        source(`${PRELUDE}
import { loadGuidance } from "@skillctx-src/compat";
export default async () => {
  const parts = [];
  put("AGENTS.md", "level 0\\n");
  for (let i = 1; i <= 300; i++) {
    parts.push("d" + i);
    put(parts.join("/") + "/AGENTS.md", "level " + i + "\\n" + "x".repeat(200) + "\\n");
  }
  gitInit();
  const cwd = path.join(repo, ...parts);
  const all = await loadGuidance(cwd, { includeNested: false });
  const levels = all.skills.map((s) => Number(/^level (\\d+)/.exec(s.content)?.[1]));
  const capped = await loadGuidance(cwd, { includeNested: false, projectDocMaxBytes: true });
  const chainBytes = capped.skills.reduce((n, s) => n + Buffer.byteLength(withoutCapNote(s.content)), 0);
  return done({
    count: all.skills.length,
    inOrder: levels.every((l, i) => l === i),
    capped: capped.diagnostics.some((d) => d.code === "AGENTS_MD_CAP"),
    chainBytes,
  });
};`),
        { timeoutMs: 60_000 },
      );
      console.log(`300-folder chain, read twice: ${Math.round(result.wallMs)} ms, ${Math.round(result.maxRssMb)} MB`);
      const value = expectBounded(result, { ms: 15_000, mb: 500 }, "deep chain");
      expect(value.count).toBe(301);
      expect(value.inOrder).toBe(true);
      expect(value.capped).toBe(true);
      expect(value.chainBytes).toBeLessThanOrEqual(32_768);
    },
  );

  itWithTool("git")(
    // Codex reads the override (guidance.emulate: "codex"), so the link is followed as far as the containment check.
    "an AGENTS.override.md symlinked out of the repository is never read, nor its secret shown (< 10 s, < 400 MB)",
    async () => {
      const result = await runIsolated<{ leaked: boolean; codes: string[]; names: string[] }>(
        source(`${PRELUDE}
import { AgentContext } from "@skillctx-src/skillctx";
export default async () => {
  writeFileSync(path.join(parent, "secret.txt"), "SECRET-TOKEN-123\\n");
  put("AGENTS.md", "root\\n");
  put("pkg/AGENTS.md", "pkg plain\\n");
  mkdirSync(path.join(repo, "pkg"), { recursive: true });
  symlinkSync(path.join(parent, "secret.txt"), path.join(repo, "pkg/AGENTS.override.md"));
  symlinkSync(path.join(parent, "secret.txt"), path.join(repo, "AGENTS.override.md.bak"));
  gitInit();
  const ctx = await AgentContext.create({ cwd: path.join(repo, "pkg"), sources: { homeDir: parent }, trust: { project: true }, guidance: { emulate: "codex" } });
  try {
    const step = await ctx.buildContext([{ role: "user", content: "hi" }]);
    return done({ leaked: JSON.stringify(step).includes("SECRET-TOKEN"), codes: step.diagnostics.map((d) => d.code), names: ctx.skills.map((s) => s.name) });
  } finally {
    await ctx.close();
  }
};`),
        { timeoutMs: 30_000 },
      );
      const value = expectBounded(result, { ms: 10_000, mb: 400 }, "override symlink");
      expect(value.leaked).toBe(false);
      expect(value.codes).toContain("GUIDANCE_OUTSIDE_REPOSITORY");
      expect(value.names).toContain("agents");
    },
  );

  itWithTool("git")(
    "a 64 MB AGENTS.md with the Codex cap on: at most maxGuidanceBytes read, 32 KiB kept (< 10 s, < 400 MB)",
    async () => {
      const result = await runIsolated<{ bytes: number; codes: string[]; systemBytes: number }>(
        source(`${PRELUDE}
import { AgentContext } from "@skillctx-src/skillctx";
export default async () => {
  const line = "Always run the full test suite before pushing.\\n";
  put("AGENTS.md", line.repeat(Math.ceil(64 * 1024 * 1024 / line.length)));
  put("sub/AGENTS.md", "never reached\\n");
  gitInit();
  const ctx = await AgentContext.create({ cwd: path.join(repo, "sub"), sources: { homeDir: parent }, guidance: { projectDocMaxBytes: true } });
  try {
    const step = await ctx.buildContext([]);
    const agents = ctx.skills.filter((s) => s.metadata.kind === "agents");
    return done({ bytes: agents.reduce((n, s) => n + Buffer.byteLength(withoutCapNote(s.content)), 0), codes: step.diagnostics.map((d) => d.code), systemBytes: Buffer.byteLength(step.system) });
  } finally {
    await ctx.close();
  }
};`),
        { timeoutMs: 30_000 },
      );
      const value = expectBounded(result, { ms: 10_000, mb: 400 }, "huge AGENTS.md");
      expect(value.bytes).toBeLessThanOrEqual(32_768);
      expect(value.codes).toEqual(expect.arrayContaining(["GUIDANCE_TRUNCATED", "AGENTS_MD_CAP"]));
      expect(value.systemBytes).toBeLessThan(40_000);
    },
  );
});

describe("adversarial: Codex agents/openai.yaml", () => {
  it("an alias bomb, a deep nest and 5,000 MCP dependencies are bounded; the skills still load (< 15 s, < 500 MB)", async () => {
    const result = await runIsolated<{ names: string[]; codes: string[]; servers: number }>(
      source(`${PRELUDE}
import { discoverSkills } from "@skillctx-src/core";
export default async () => {
  const skill = (name) => put(".agents/skills/" + name + "/SKILL.md", "---\\nname: " + name + "\\ndescription: d\\n---\\nbody\\n");
  for (const name of ["bomb", "deep", "many", "big"]) skill(name);
  const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (let i = 0; i < 12; i++) bomb.push(String.fromCharCode(98 + i) + ": &" + String.fromCharCode(98 + i) + " [" + Array(10).fill("*" + String.fromCharCode(97 + i)).join(", ") + "]");
  put(".agents/skills/bomb/agents/openai.yaml", "interface:\\n  display_name: ok\\n" + bomb.join("\\n") + "\\n");
  put(".agents/skills/deep/agents/openai.yaml", "interface: " + "[".repeat(5000) + "]".repeat(5000) + "\\n");
  const tools = [];
  for (let i = 0; i < 5000; i++) tools.push("    - { type: mcp, value: s" + i + ", command: sh }");
  put(".agents/skills/many/agents/openai.yaml", "dependencies:\\n  tools:\\n" + tools.join("\\n") + "\\n");
  put(".agents/skills/big/agents/openai.yaml", "interface:\\n  display_name: " + "x".repeat(1024 * 1024) + "\\n");
  const found = await discoverSkills({ cwd: repo, homeDir: parent });
  const many = found.skills.find((s) => s.name === "many");
  return done({ names: found.skills.map((s) => s.name), codes: [...new Set(found.diagnostics.map((d) => d.code))].sort(), servers: Object.keys(many?.mcpServers ?? {}).length });
};`),
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 15_000, mb: 500 }, "hostile openai.yaml");
    expect(value.names).toEqual(["big", "bomb", "deep", "many"]);
    expect(value.codes).toEqual(expect.arrayContaining(["YAML_INVALID", "TOO_LARGE"]));
    // Declared only: the servers are trust-gated and start when the skill is active.
    expect(value.servers).toBe(5000);
  });
});
