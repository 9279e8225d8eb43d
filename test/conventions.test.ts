/**
 * Repositories laid out as Claude Code, Codex, Cursor and Copilot projects (fixtures/conventions): the
 * guidance, catalog, activations and tools each tool documents, through AgentContext (the CLI's one
 * loading path).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeWithTool } from "./helpers/tools-present.js";
import { AgentContext } from "skillctx";
import type { AgentContextOptions, Message, Skill } from "skillctx";
import { createMcpBridge, serversFromSkill } from "@skillctx/mcp-bridge";
import { rendersCommands } from "../packages/engine/src/engine/render-skill.js";
import { MCP_SERVER, useConventionFixtures } from "./helpers/convention-fixture.js";
import { withDefaults } from "./helpers/options.js";

const fixture = useConventionFixtures();
const contexts: AgentContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
});

async function open(options: AgentContextOptions): Promise<AgentContext> {
  const ctx = await AgentContext.create(
    withDefaults({ sources: { homeDir: path.join(options.cwd, "no-home") } }, options),
  );
  contexts.push(ctx);
  return ctx;
}

const user = (content: string): Message => ({ role: "user", content });
const readCall = (id: string, file: string): Message => ({
  role: "assistant",
  content: "",
  toolCalls: [{ id, name: "read_file", args: { path: file } }],
});
const toolResult = (id: string): Message => ({ role: "tool", content: "...", toolCallId: id });
const byName = (ctx: AgentContext, name: string): Skill => {
  const skill = ctx.skills.find((s) => s.name === name);
  if (skill === undefined) throw new Error(`no skill ${name}; have ${ctx.skills.map((s) => s.name).join(", ")}`);
  return skill;
};
const guidanceNames = (ctx: AgentContext) => ctx.skills.filter((s) => s.trigger.type === "always").map((s) => s.name);
/** Where each text first appears in `system` (-1 when absent). */
const at = (system: string, text: string) => system.indexOf(text);

describeWithTool("git")("a Claude Code project", () => {
  it("puts CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md and the always-on rule in system, as static text", async () => {
    const repo = await fixture("claude-code", { git: true });
    const ctx = await open({ cwd: repo });
    expect(guidanceNames(ctx)).toEqual(["claude", "claude-dir", "claude-local", "claude-rules:style"]);
    const step = await ctx.buildContext([]);
    for (const text of [
      "Use pnpm, never npm.",
      "Reviews need two approvals.",
      "My local database is on port 5433.",
      "Prefer named exports.",
    ]) {
      expect(step.system).toContain(text);
    }
    // CLAUDE.md's !`cmd` is text to Claude Code: no command runs and no "not run" marker is added.
    expect(step.system).toContain("!`echo this-is-not-run` stays as written.");
    expect(step.system).not.toMatch(/not run/i);
    expect(step.diagnostics.map((d) => d.code)).not.toContain("COMMAND_UNTRUSTED");
    // The path-scoped rule waits for its files.
    expect(step.system).not.toContain("Tests use vitest");
    expect(byName(ctx, "claude-rules:testing").trigger).toEqual({ type: "path", globs: ["test/**/*.ts"] });
  });

  it("reads the Claude Code fields of each skill, and lists only what the model may invoke", async () => {
    const repo = await fixture("claude-code", { git: true });
    const ctx = await open({ cwd: repo });
    expect(byName(ctx, "explain-code")).toMatchObject({
      whenToUse: "When the user asks how some code works.",
      model: "haiku",
      effort: "low",
      context: "fork",
      agent: "Explore",
      userInvocable: false,
      extra: { hooks: { PostToolUse: [expect.objectContaining({ matcher: "Edit" })] } },
    });
    expect(byName(ctx, "deploy")).toMatchObject({
      disableModelInvocation: true,
      argumentHint: "[environment]",
      argumentNames: ["environment"],
      allowedTools: ["Bash(pnpm deploy:*)"],
    });
    expect(byName(ctx, "migrations").trigger).toEqual({ type: "path", globs: ["migrations/**"] });
    // user-invocable: false stays listed; disable-model-invocation, path skills and commands are not.
    expect(ctx.catalog?.included).toEqual(["explain-code"]);
    // when_to_use is appended to the description, as Claude Code lists it.
    expect(ctx.catalog?.text).toContain(
      "<description>Explains code with diagrams and analogies. When the user asks how some code works.</description>",
    );
    const refused = await ctx.callTool("load_skill", { name: "deploy" });
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain("disable-model-invocation");
  });

  it("reads .claude/commands as /commands, a sub-folder naming them folder:name", async () => {
    const repo = await fixture("claude-code", { git: true });
    const ctx = await open({ cwd: repo });
    expect(byName(ctx, "review")).toMatchObject({
      description: "Review a pull request",
      argumentHint: "[pr-number]",
      allowedTools: ["Bash(git diff:*)"],
      trigger: { type: "command", prefix: "/" },
      source: {
        kind: "compat",
        format: "command",
        scope: "project",
        path: path.join(repo, ".claude/commands/review.md"),
      },
      metadata: { kind: "claude-command" },
    });
    expect(byName(ctx, "frontend:component")).toMatchObject({
      description: "Create a React component named $1 in src/components.",
      trigger: { type: "command", prefix: "/" },
    });
    // Claude Code runs !`cmd` in its commands and skills; skillctx does likewise (trust permitting).
    expect(rendersCommands(byName(ctx, "review"))).toBe(true);
    expect(rendersCommands(byName(ctx, "deploy"))).toBe(true);
    expect(rendersCommands(byName(ctx, "claude"))).toBe(false);
    expect(rendersCommands(byName(ctx, "claude-rules:style"))).toBe(false);
  });

  it("attaches the paths: rule and the paths: skill when a tool touches their files", async () => {
    const repo = await fixture("claude-code", { git: true });
    const ctx = await open({ cwd: repo, trust: { project: true } });
    const history: Message[] = [user("check the tests"), readCall("c1", "test/cart-check.ts"), toolResult("c1")];
    const first = await ctx.buildContext(history);
    expect(first.activated).toEqual([
      { skill: "claude-rules:testing", trigger: "path", match: "test/cart-check.ts", messageIndex: 2 },
    ]);
    expect(first.attachments.map((a) => a.text).join("")).toContain("Tests use vitest");
    history.push(readCall("c2", "migrations/001-init.sql"), toolResult("c2"));
    const second = await ctx.buildContext(history);
    expect(second.activated.map((a) => [a.skill, a.trigger])).toEqual([["migrations", "path"]]);
  });

  it("starts the project's .mcp.json servers when the project is trusted, and refuses them otherwise", async () => {
    const repo = await fixture("claude-code", { git: true });
    const trusted = await open({ cwd: repo, trust: { project: true } });
    const step = await trusted.buildContext([user("hi")]);
    expect(step.tools.map((t) => t.name)).toContain("mcp__notes__echo");
    expect(await trusted.callTool("mcp__notes__echo", { text: "from the project" })).toEqual({
      content: "from the project",
    });

    const untrusted = await open({ cwd: repo });
    const refused = await untrusted.buildContext([user("hi")]);
    expect(refused.tools.some((t) => t.name.startsWith("mcp__"))).toBe(false);
    const diagnostic = refused.diagnostics.find((d) => d.code === "MCP_SERVER_UNTRUSTED");
    expect(diagnostic?.message).toContain('MCP server "notes" not started');
    expect(diagnostic?.path).toBe(path.join(repo, ".mcp.json"));
    expect((await untrusted.callTool("mcp__notes__echo", { text: "x" })).isError).toBe(true);
  });
});

describeWithTool("git")("a Codex project (cwd packages/api)", () => {
  it("layers AGENTS.md from the root down to cwd through every folder, the override replacing AGENTS.md at its level", async () => {
    const repo = await fixture("codex", { git: true });
    // AGENTS.override.md is Codex's alone: read for a Codex model (https://developers.openai.com/codex/guides/agents-md).
    const ctx = await open({ cwd: path.join(repo, "packages/api"), model: "gpt-5-codex" });
    expect(guidanceNames(ctx)).toEqual(["agents", "agents:packages", "agents:packages/api"]);
    expect(byName(ctx, "agents:packages/api").source.path).toBe(path.join(repo, "packages/api/AGENTS.override.md"));
    const step = await ctx.buildContext([]);
    const order = ["Format with prettier.", "Every package has its own tests.", "The API is frozen this week"].map(
      (t) => at(step.system, t),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(step.system).not.toContain("This text is replaced by the override");
    expect(step.system).not.toContain("services/web");
    expect(step.diagnostics).toContainEqual(
      expect.objectContaining({ code: "GUIDANCE_SHADOWED", path: path.join(repo, "packages/api/AGENTS.md") }),
    );
    // Below cwd: a path rule for its folder.
    expect(byName(ctx, "agents:packages/api/lib").trigger).toEqual({ type: "path", globs: ["lib/**"] });
  });

  it("caps the AGENTS.md chain at projectDocMaxBytes, cutting the file that crosses it to the bytes that fit", async () => {
    const repo = await fixture("codex", { git: true });
    // The root file (41 bytes) and packages/AGENTS.md (55) fit in 100 bytes; the override crosses the cap and
    // keeps the 4 bytes that fit, as Codex's read_project_docs does (codex-rs core/src/project_doc.rs).
    const ctx = await open({
      cwd: path.join(repo, "packages/api"),
      guidance: { projectDocMaxBytes: 100, emulate: "codex" },
    });
    const step = await ctx.buildContext([]);
    expect(step.system).toContain("Format with prettier.");
    expect(step.system).toContain("Every package has its own tests.");
    expect(step.system).not.toContain("The API is frozen this week");
    const cap = step.diagnostics.find((d) => d.code === "AGENTS_MD_CAP");
    expect(cap?.message).toContain("packages/api/AGENTS.override.md was cut");
    // Other guidance is not part of the chain: the nested path rule is still there.
    expect(ctx.skills.map((s) => s.name)).toContain("agents:packages/api/lib");

    // Codex's default (32 KiB) leaves this small chain whole.
    const whole = await open({
      cwd: path.join(repo, "packages/api"),
      guidance: { projectDocMaxBytes: true, emulate: "codex" },
    });
    expect((await whole.buildContext([])).system).toContain("The API is frozen this week");
  });

  it("reads the user's ~/.codex/AGENTS.md first when user guidance is on, skipping an empty override", async () => {
    const repo = await fixture("codex", { git: true });
    const home = path.join(path.dirname(repo), "home");
    await mkdir(path.join(home, ".codex"), { recursive: true });
    await writeFile(path.join(home, ".codex/AGENTS.md"), "Always answer in English.\n");
    await writeFile(path.join(home, ".codex/AGENTS.override.md"), "");
    const ctx = await open({ cwd: path.join(repo, "packages/api"), sources: { homeDir: home, userSkills: true } });
    expect(guidanceNames(ctx)).toContain("agents:~");
    expect(byName(ctx, "agents:~").source).toMatchObject({ scope: "user", path: path.join(home, ".codex/AGENTS.md") });
    const step = await ctx.buildContext([]);
    expect(at(step.system, "Always answer in English.")).toBeLessThan(at(step.system, "Format with prettier."));
    // Codex reads its own file as static text.
    expect(rendersCommands(byName(ctx, "agents:~"))).toBe(false);
    expect(rendersCommands(byName(ctx, "agents"))).toBe(true);
  });

  it("for any other model AGENTS.md stands and the override is passed over with a note", async () => {
    const repo = await fixture("codex", { git: true });
    for (const options of [
      {},
      { model: "claude-sonnet-4-5" },
      { model: "gpt-5", guidance: { emulate: "cursor" as const } },
    ]) {
      const ctx = await open({ cwd: path.join(repo, "packages/api"), ...options });
      expect(byName(ctx, "agents:packages/api").source.path).toBe(path.join(repo, "packages/api/AGENTS.md"));
      const step = await ctx.buildContext([]);
      expect(step.system).toContain("This text is replaced by the override");
      expect(step.system).not.toContain("The API is frozen this week");
      expect(step.diagnostics).toContainEqual(
        expect.objectContaining({
          code: "GUIDANCE_AGENT_ONLY",
          path: path.join(repo, "packages/api/AGENTS.override.md"),
        }),
      );
    }
  });

  it("reads agents/openai.yaml: display name, short description, implicit invocation and MCP dependencies", async () => {
    const repo = await fixture("codex", { git: true });
    const ctx = await open({ cwd: path.join(repo, "packages/api") });
    const release = byName(ctx, "release");
    expect(release).toMatchObject({
      disableModelInvocation: true,
      metadata: { display_name: "Release Manager", short_description: "Cut and tag releases" },
      mcpServers: { changelog: { transport: "stdio", command: "node", args: [MCP_SERVER, "--name", "changelog"] } },
    });
    expect(byName(ctx, "lint")).toMatchObject({ metadata: { display_name: "Linter" } });
    expect(byName(ctx, "lint").disableModelInvocation).toBeUndefined();
    // policy.allow_implicit_invocation: false keeps release out of the catalog, as disable-model-invocation does.
    expect(ctx.catalog?.included).toEqual(["lint"]);

    // Its MCP dependency is declared like mcp_tools: trust-gated, then started through the same bridge.
    const untrusted = await serversFromSkill(release, {});
    expect(untrusted.servers.map((s) => [s.name, s.trusted])).toEqual([["changelog", false]]);
    const { servers, diagnostics } = await serversFromSkill(release, { trust: { project: true } });
    expect(diagnostics).toEqual([]);
    const bridge = await createMcpBridge(servers, { start: ["changelog"] });
    try {
      expect(bridge.tools().map((t) => t.name)).toContain("mcp__changelog__echo");
      expect(bridge.tools().find((t) => t.name === "mcp__changelog__echo")?.skill).toBe("release");
    } finally {
      await bridge.close();
    }
  });
});

describe("a Cursor project", () => {
  it("maps the four rule types: always in system, globs on touch, description in the catalog, manual as an @ command", async () => {
    const repo = await fixture("cursor");
    const ctx = await open({ cwd: repo, trust: { project: true } });
    expect(guidanceNames(ctx)).toEqual(["cursor:always"]);
    expect(byName(ctx, "cursor:release-notes").trigger).toEqual({ type: "command", prefix: "@" });
    expect(byName(ctx, "cursor:react").trigger).toEqual({ type: "path", globs: ["src/**/*.tsx"] });
    expect(ctx.catalog?.included).toEqual(["cursor:api-docs"]);
    const history: Message[] = [user("fix the app"), readCall("c1", "src/App.tsx"), toolResult("c1")];
    const step = await ctx.buildContext(history);
    expect(step.system).toContain("Use TypeScript strict mode everywhere.");
    expect(step.activated).toEqual([{ skill: "cursor:react", trigger: "path", match: "src/App.tsx", messageIndex: 2 }]);
  });

  it("attaches a manual rule mentioned as Cursor users write it (@release-notes) and by its full name", async () => {
    const repo = await fixture("cursor");
    const ctx = await open({ cwd: repo });
    const short = await ctx.buildContext([user("draft them per @release-notes please")]);
    expect(short.activated.map((a) => [a.skill, a.trigger, a.match])).toEqual([
      ["cursor:release-notes", "command", "@cursor:release-notes"],
    ]);
    expect(short.attachments).toHaveLength(1);
    const plain = await (await open({ cwd: repo })).buildContext([user("mail me@release-notes.dev")]);
    expect(plain.activated).toEqual([]);
  });

  it("reads .cursor/commands as /commands whose !`cmd` stays text, and starts .cursor/mcp.json servers when trusted", async () => {
    const repo = await fixture("cursor");
    const ctx = await open({ cwd: repo, trust: { project: true } });
    const deploy = byName(ctx, "deploy");
    expect(deploy).toMatchObject({
      trigger: { type: "command", prefix: "/" },
      source: { format: "command" },
      metadata: { kind: "cursor-command" },
    });
    expect(rendersCommands(deploy)).toBe(false);
    expect(rendersCommands(byName(ctx, "cursor:always"))).toBe(false);
    const step = await ctx.buildContext([user("hi")]);
    expect(step.tools.map((t) => t.name)).toContain("mcp__tracker__echo");

    const untrusted = await open({ cwd: repo });
    const refused = await untrusted.buildContext([user("hi")]);
    expect(refused.diagnostics.find((d) => d.code === "MCP_SERVER_UNTRUSTED")?.path).toBe(
      path.join(repo, ".cursor/mcp.json"),
    );
  });
});

describe("a Copilot project", () => {
  it("puts copilot-instructions.md and applyTo ** in system, attaches applyTo globs, lists a described instruction", async () => {
    const repo = await fixture("copilot");
    const ctx = await open({ cwd: repo });
    expect(guidanceNames(ctx)).toEqual(["copilot", "copilot:everywhere"]);
    expect(ctx.catalog?.included).toEqual(["copilot:security"]);
    const history: Message[] = [user("fix the server"), readCall("c1", "cmd/server/main.go"), toolResult("c1")];
    const step = await ctx.buildContext(history);
    expect(step.system).toContain("use the standard library where you can");
    expect(step.system).toContain("Write commit messages in the imperative mood.");
    expect(step.activated.map((a) => a.skill)).toEqual(["copilot:go"]);
  });

  it("reads .github/prompts as /commands, named by name: or by file, Copilot's own fields kept without a warning", async () => {
    const repo = await fixture("copilot");
    const ctx = await open({ cwd: repo });
    expect(byName(ctx, "explain")).toMatchObject({
      description: "Explain the selected code",
      trigger: { type: "command", prefix: "/" },
      metadata: { kind: "copilot-prompt" },
      extra: { mode: "ask", tools: ["codebase"] },
    });
    expect(byName(ctx, "gen-tests")).toMatchObject({
      argumentHint: "package path",
      source: { path: path.join(repo, ".github/prompts/tests.prompt.md") },
    });
    const step = await ctx.buildContext([]);
    expect(step.diagnostics.filter((d) => d.path?.includes(".github/prompts"))).toEqual([]);
    expect(rendersCommands(byName(ctx, "explain"))).toBe(false);
  });
});

describeWithTool("git")("who may invoke: the skill set", () => {
  it("keeps user-only skills and commands out of SkillSet.catalog, and in skills and byName", async () => {
    const { loadSkillSet } = await import("../packages/engine/src/engine/skill-set.js");
    const repo = await fixture("claude-code", { git: true });
    const set = await loadSkillSet({ cwd: repo, sources: { homeDir: path.join(repo, "no-home") } });
    expect(set.catalog.map((s) => s.name)).toEqual(["explain-code"]);
    for (const name of ["deploy", "review", "frontend:component", "explain-code"])
      expect(set.byName.has(name)).toBe(true);
    // Commands load with the guidance; `guidance: { commands: false }` leaves them out.
    const without = await loadSkillSet({
      cwd: repo,
      sources: {
        homeDir: path.join(repo, "no-home"),
      },
      guidance: { commands: false },
    });
    expect(without.byName.has("review")).toBe(false);
    expect(without.byName.has("claude")).toBe(true);
  });

  it("a skill wins over a command of the same name, with a warning", async () => {
    const { loadSkillSet } = await import("../packages/engine/src/engine/skill-set.js");
    const repo = await fixture("claude-code", { git: true });
    await mkdir(path.join(repo, ".claude/commands"), { recursive: true });
    await writeFile(path.join(repo, ".claude/commands/deploy.md"), "The command version.\n");
    const set = await loadSkillSet({ cwd: repo, sources: { homeDir: path.join(repo, "no-home") } });
    expect(set.byName.get("deploy")?.source.format).toBe("skill-md");
    expect(set.diagnostics).toContainEqual(
      expect.objectContaining({ code: "NAME_CLASH", path: path.join(repo, ".claude/commands/deploy.md") }),
    );
  });
});
