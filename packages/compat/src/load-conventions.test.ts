import { mkdir, symlink } from "node:fs/promises";
import * as path from "node:path";
import type { Skill } from "@skillctx/core";
import { afterAll, describe, expect, test } from "vitest";
import { capAgentsChain } from "./agents-chain.js";
import { loadCommands } from "./load-commands.js";
import { loadGuidance } from "./load-guidance.js";
import { gitInit, HAS_GIT, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

const byName = (skills: Skill[], name: string): Skill => {
  const skill = skills.find((s) => s.name === name);
  if (skill === undefined) throw new Error(`no ${name} in ${skills.map((s) => s.name).join(", ")}`);
  return skill;
};

describe("Claude Code memory files", () => {
  test.runIf(HAS_GIT)(
    "CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md and .claude/rules at each level, root first",
    async () => {
      const repo = await tempDir();
      await gitInit(repo);
      await put(repo, "CLAUDE.md", "root memory\n");
      await put(repo, ".claude/CLAUDE.md", "root team memory\n");
      await put(repo, "CLAUDE.local.md", "root local memory\n");
      await put(repo, ".claude/rules/style.md", "always style\n");
      await put(repo, ".claude/rules/frontend/react.md", '---\npaths:\n  - "app/**/*.tsx"\n---\nreact rule\n');
      await put(repo, "app/CLAUDE.local.md", "app local memory\n");
      await put(repo, "app/.claude/rules/app-only.md", '---\npaths: "**/*.css"\n---\ncss rule\n');
      const { skills, diagnostics } = await loadGuidance(path.join(repo, "app"));
      expect(diagnostics).toEqual([]);
      expect(skills.map((s) => [s.name, s.trigger.type, s.content])).toEqual([
        ["claude", "always", "root memory\n"],
        ["claude-dir", "always", "root team memory\n"],
        ["claude-local", "always", "root local memory\n"],
        ["claude-rules:frontend/react", "path", "react rule\n"],
        ["claude-rules:style", "always", "always style\n"],
        ["claude-local:app", "always", "app local memory\n"],
        ["claude-rules:app:app-only", "path", "css rule\n"],
      ]);
      // A root rule's globs are moved to cwd (app/); the app rule's stay below app/.
      expect(byName(skills, "claude-rules:frontend/react").trigger).toEqual({ type: "path", globs: ["**/*.tsx"] });
      expect(byName(skills, "claude-rules:app:app-only").trigger).toEqual({ type: "path", globs: ["**/*.css"] });
      expect(byName(skills, "claude-dir").source).toMatchObject({
        format: "guidance",
        scope: "project",
        path: path.join(repo, ".claude/CLAUDE.md"),
      });
    },
  );

  test("the Claude files are kept for Claude models only, as CLAUDE.md is", async () => {
    const repo = await tempDir();
    await put(repo, "CLAUDE.local.md", "local\n");
    await put(repo, ".claude/CLAUDE.md", "team\n");
    await put(repo, ".claude/rules/a.md", "rule\n");
    await put(repo, "AGENTS.md", "agents\n");
    const gpt = await loadGuidance(repo, { model: "gpt-4o" });
    expect(gpt.skills.map((s) => s.name)).toEqual(["agents"]);
    const claude = await loadGuidance(repo, { model: "claude-sonnet-4-5" });
    expect(claude.skills.map((s) => s.name)).toEqual(["agents", "claude-dir", "claude-local", "claude-rules:a"]);
  });

  test("~/.claude/CLAUDE.md and ~/.claude/rules come first, user scope, only with userGuidance; their imports stay in the home folder", async () => {
    const repo = await tempDir();
    await put(repo, "CLAUDE.md", "project memory\n");
    const home = await tempDir();
    await put(home, ".claude/CLAUDE.md", "user memory\n@notes/prefs.md\n");
    await put(home, ".claude/notes/prefs.md", "tabs, not spaces\n");
    await put(home, ".claude/rules/commits.md", "sign every commit\n");
    expect((await loadGuidance(repo, { homeDir: home })).skills.map((s) => s.name)).toEqual(["claude"]);
    const { skills, diagnostics } = await loadGuidance(repo, { homeDir: home, userGuidance: true });
    expect(diagnostics).toEqual([]);
    // User files first, then by folder and name (code point order, as at every level).
    expect(skills.map((s) => [s.name, s.source.scope])).toEqual([
      ["claude-rules:~:commits", "user"],
      ["claude:~", "user"],
      ["claude", "project"],
    ]);
    expect(byName(skills, "claude:~").content).toContain("tabs, not spaces");
  });
});

describe("Codex AGENTS.md", () => {
  test.runIf(HAS_GIT)(
    "AGENTS.override.md replaces AGENTS.md at its level; an empty override does not count",
    async () => {
      const repo = await tempDir();
      await gitInit(repo);
      await put(repo, "AGENTS.md", "root\n");
      await put(repo, "AGENTS.override.md", "");
      await put(repo, "a/AGENTS.md", "a plain\n");
      await put(repo, "a/AGENTS.override.md", "a override\n");
      await put(repo, "a/b/AGENTS.md", "b\n");
      // Codex's own rule, so read for a Codex-family model (https://developers.openai.com/codex/guides/agents-md).
      const { skills, diagnostics } = await loadGuidance(path.join(repo, "a/b"), { model: "gpt-5-codex" });
      expect(skills.map((s) => [s.name, s.content])).toEqual([
        ["agents", "root\n"],
        ["agents:a", "a override\n"],
        ["agents:a/b", "b\n"],
      ]);
      expect(diagnostics.map((d) => [d.code, d.path])).toEqual([["GUIDANCE_SHADOWED", path.join(repo, "a/AGENTS.md")]]);
    },
  );

  test.runIf(HAS_GIT)("AGENTS.override.md is Codex's only: other models, and emulate, read AGENTS.md", async () => {
    const repo = await tempDir();
    await gitInit(repo);
    await put(repo, "AGENTS.md", "shared\n");
    await put(repo, "AGENTS.override.md", "codex only\n");
    for (const options of [{}, { model: "claude-opus-4" }, { model: "gpt-5", emulate: "gemini-cli" as const }]) {
      const { skills, diagnostics } = await loadGuidance(repo, options);
      expect(skills.map((s) => [s.name, s.content])).toEqual([["agents", "shared\n"]]);
      expect(diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
        ["GUIDANCE_AGENT_ONLY", "info", path.join(repo, "AGENTS.override.md")],
      ]);
    }
    const emulated = await loadGuidance(repo, { model: "claude-opus-4", emulate: "codex" });
    expect(emulated.skills.map((s) => s.content)).toEqual(["codex only\n"]);
  });

  test("an empty or whitespace-only AGENTS.md is left out with a note, as Codex skips it", async () => {
    // Codex: "Codex skips empty files" (https://developers.openai.com/codex/guides/agents-md).
    const repo = await tempDir();
    await put(repo, "AGENTS.md", "  \n\t\n");
    await put(repo, "CLAUDE.md", "kept\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => s.name)).toEqual(["claude"]);
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([["GUIDANCE_EMPTY", "info"]]);
  });

  test("~/.codex/AGENTS.override.md wins over ~/.codex/AGENTS.md", async () => {
    const repo = await tempDir();
    const home = await tempDir();
    await put(home, ".codex/AGENTS.md", "user plain\n");
    await put(home, ".codex/AGENTS.override.md", "user override\n");
    const { skills } = await loadGuidance(repo, { homeDir: home, userGuidance: true, emulate: "codex" });
    expect(skills.map((s) => [s.name, s.content, s.source.scope])).toEqual([["agents:~", "user override\n", "user"]]);
  });

  test("capAgentsChain cuts the file that crosses the cap with a note and leaves later ones out", () => {
    const agents = (name: string, content: string): Skill => ({
      name,
      content,
      source: { kind: "compat", format: "guidance", scope: "project", path: `/r/${name}/AGENTS.md` },
      trigger: { type: "always" },
      metadata: { kind: "agents" },
    });
    const other: Skill = { ...agents("claude", "x".repeat(5_000)), metadata: { kind: "claude" } };
    const diagnostics: never[] = [];
    const out = capAgentsChain(
      [agents("agents", "a".repeat(600)), other, agents("agents:p", "b".repeat(2_000)), agents("agents:p/q", "c\n")],
      1_000,
      "/r",
      diagnostics,
    );
    expect(out.map((s) => s.name)).toEqual(["agents", "claude", "agents:p"]);
    // Codex keeps the bytes that fit (codex-rs/core/src/project_doc.rs, read_project_docs); the note is extra.
    expect(
      out[2]!.content.startsWith(`${"b".repeat(400)}\n[skillctx: the AGENTS.md chain is capped at 1000 bytes`),
    ).toBe(true);
    expect(out[2]!.content).toContain("is cut after 400 of its 2000 bytes");
    expect(out[1]!.content).toHaveLength(5_000);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "AGENTS_MD_CAP",
        message: expect.stringContaining("agents:p/AGENTS.md was cut; left out: agents:p/q/AGENTS.md"),
      }),
    ]);
  });
});

test("capAgentsChain keeps the part that fits even below 256 bytes of room, at a character boundary", () => {
  const agents = (name: string, content: string): Skill => ({
    name,
    content,
    source: { kind: "compat", format: "guidance", scope: "project", path: `/r/${name}/AGENTS.md` },
    trigger: { type: "always" },
    metadata: { kind: "agents" },
  });
  const diagnostics: never[] = [];
  // 995 bytes of the root file leave 5 bytes: "é" is 2 bytes, so two of them fit and the third is not split.
  const out = capAgentsChain(
    [agents("agents", "a".repeat(995)), agents("agents:p", "ééééé")],
    1_000,
    "/r",
    diagnostics,
  );
  expect(out.map((s) => s.name)).toEqual(["agents", "agents:p"]);
  expect(out[1]!.content).toMatch(/^éé\n\[skillctx: .* is cut after 4 of its 10 bytes\.\]$/);
  expect(out[1]!.metadata["truncated"]).toBe("true");
  // No room at all: the crossing file is left out, as Codex stops when its budget is 0.
  const none = capAgentsChain([agents("agents", "a".repeat(1_000)), agents("agents:p", "b")], 1_000, "/r", []);
  expect(none.map((s) => s.name)).toEqual(["agents"]);
});

describe("Windsurf rules", () => {
  test("trigger always_on, glob, model_decision and manual; without a trigger, read from what the rule has", async () => {
    const repo = await tempDir();
    await put(repo, ".windsurf/rules/always.md", "---\ntrigger: always_on\n---\nalways\n");
    await put(repo, ".windsurf/rules/ts.md", '---\ntrigger: glob\nglobs: "**/*.ts"\n---\nts\n');
    await put(
      repo,
      ".windsurf/rules/decide.md",
      "---\ntrigger: model_decision\ndescription: Database migrations\n---\nmigrations\n",
    );
    await put(repo, ".windsurf/rules/manual.md", "---\ntrigger: manual\n---\nmanual\n");
    await put(repo, ".windsurf/rules/plain.md", "plain, no frontmatter\n");
    await put(repo, ".windsurf/rules/odd.md", "---\ntrigger: sometimes\ndescription: Odd one\n---\nodd\n");
    const { skills, diagnostics } = await loadGuidance(repo);
    expect(skills.map((s) => [s.name, s.trigger, s.metadata["activation"]])).toEqual([
      ["windsurf:always", { type: "always" }, "always"],
      ["windsurf:decide", { type: "on-demand" }, "agent-requested"],
      ["windsurf:manual", { type: "command", prefix: "@" }, "manual"],
      ["windsurf:odd", { type: "on-demand" }, "agent-requested"],
      ["windsurf:plain", { type: "always" }, "always"],
      ["windsurf:ts", { type: "path", globs: ["**/*.ts"] }, "auto-attached"],
    ]);
    expect(byName(skills, "windsurf:decide").description).toBe("Database migrations");
    expect(diagnostics.map((d) => d.code)).toEqual(["RULE_FIELD_INVALID"]);
  });
});

describe("command files", () => {
  test.runIf(HAS_GIT)(
    "Claude Code, Cursor and Copilot commands; cwd before the root, the first of a name wins",
    async () => {
      const repo = await tempDir();
      await gitInit(repo);
      await put(
        repo,
        ".claude/commands/fix.md",
        "---\ndescription: Fix an issue\nargument-hint: [issue]\n---\nFix $ARGUMENTS.\n",
      );
      await put(repo, ".claude/commands/git/commit.md", "Commit the staged changes.\n");
      await put(repo, ".cursor/commands/fix.md", "Cursor's fix\n");
      await put(repo, ".cursor/commands/lint.md", "Run the linter.\n");
      await put(
        repo,
        ".github/prompts/plan.prompt.md",
        "---\nname: make-plan\ndescription: Plan the work\n---\nPlan.\n",
      );
      await put(repo, "pkg/.claude/commands/lint.md", "pkg lint wins at cwd\n");
      const { skills, diagnostics } = await loadCommands(path.join(repo, "pkg"));
      expect(skills.map((s) => [s.name, s.metadata["kind"], s.description])).toEqual([
        ["fix", "claude-command", "Fix an issue"],
        ["git:commit", "claude-command", "Commit the staged changes."],
        ["lint", "claude-command", "pkg lint wins at cwd"],
        ["make-plan", "copilot-prompt", "Plan the work"],
      ]);
      for (const skill of skills)
        expect(skill).toMatchObject({
          trigger: { type: "command", prefix: "/" },
          source: { kind: "compat", format: "command", scope: "project" },
        });
      expect(byName(skills, "fix")).toMatchObject({ argumentHint: "[issue]", content: "Fix $ARGUMENTS.\n" });
      expect(diagnostics.map((d) => [d.code, d.path])).toEqual([
        ["NAME_CLASH", path.join(repo, ".cursor/commands/fix.md")],
        ["NAME_CLASH", path.join(repo, ".cursor/commands/lint.md")],
      ]);
    },
  );

  test("user commands only with userCommands; a project command symlinked out of the repository is not read", async () => {
    const parent = await tempDir();
    const repo = path.join(parent, "repo");
    await mkdir(repo);
    await put(parent, "secret.md", "outside the repository\n");
    await mkdir(path.join(repo, ".claude/commands"), { recursive: true });
    await symlink(path.join(parent, "secret.md"), path.join(repo, ".claude/commands/leak.md"));
    const home = await tempDir();
    await put(home, ".claude/commands/mine.md", "My own command.\n");
    const project = await loadCommands(repo, { homeDir: home });
    expect(project.skills).toEqual([]);
    expect(project.diagnostics.map((d) => d.code)).toEqual(["PATH_OUTSIDE_ROOT"]);
    const withUser = await loadCommands(repo, { homeDir: home, userCommands: true });
    expect(withUser.skills.map((s) => [s.name, s.source.scope])).toEqual([["mine", "user"]]);
  });
});
