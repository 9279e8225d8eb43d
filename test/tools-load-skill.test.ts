import { readFile, writeFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentContextOptions, Message } from "skillctx";
import { useToolSkills } from "./helpers/tools-fixture.js";

const suite = useToolSkills({ systemPrompt: "You are an agent." });
const context = (options: Partial<AgentContextOptions> = {}) => suite.context(options);

const user = (content: string): Message => ({ role: "user", content });

describe("load_skill", () => {
  it("returns the body wrapped in <skill-loaded>, the folder and its files in code-point order", async () => {
    const ctx = await context();
    const result = await ctx.callTool("load_skill", { name: "pdf-forms" });
    expect(result.isError).toBeUndefined();
    const body = (await readFile(path.join(suite.copy.skills, "pdf-forms/SKILL.md"), "utf8"))
      .split("---\n")
      .slice(2)
      .join("---\n")
      .trim();
    expect(result.content.startsWith(`<skill-loaded name="pdf-forms">\n${body}\n</skill-loaded>\n`)).toBe(true);
    // Outside cwd the folder is given as an absolute path.
    expect(result.content).toContain(
      `\nSkill folder: ${path.join(suite.copy.skills, "pdf-forms")} (relative paths in the skill resolve there)\n`,
    );
    const listed = result.content
      .split("\n")
      .filter((line) => line.startsWith("- "))
      .map((line) => line.slice(2));
    expect(listed).toEqual([
      "assets/logo.png",
      "references/forms.md",
      "scripts/bare",
      "scripts/env.js",
      "scripts/esm.mjs",
      "scripts/fail.sh",
      "scripts/fill.py",
      "scripts/greet.js",
      "scripts/hello.sh",
      "scripts/notes",
      "scripts/typed.ts",
    ]);
    expect(result.content).toContain(
      "Read a file with read_skill_resource; run a script from scripts/ with run_skill_script.",
    );
  });

  it("caps the file list and counts what it left out", async () => {
    const ctx = await context({ tools: { skillTools: { maxListedFiles: 3 } } });
    const result = await ctx.callTool("load_skill", { name: "pdf-forms" });
    const listed = result.content.split("\n").filter((line) => line.startsWith("- "));
    expect(listed).toEqual(["- assets/logo.png", "- references/forms.md", "- scripts/bare"]);
    expect(result.content).toContain("(8 more files not listed)");
  });

  it("makes the skill active, reports a load activation in the next step, and leaves system untouched", async () => {
    const ctx = await context();
    const messages = [user("Fill the tax form")];
    const before = await ctx.buildContext(messages);
    expect(ctx.activeSkill).toBeUndefined();
    const result = await ctx.callTool("load_skill", { name: "pdf-forms" });
    expect(ctx.activeSkill).toBe("pdf-forms");
    const after = await ctx.buildContext([...messages, { role: "tool", content: result.content, toolCallId: "c1" }]);
    expect(after.activated).toEqual([{ skill: "pdf-forms", trigger: "load" }]);
    expect(after.system).toBe(before.system);
    expect(after.system).not.toContain("Never use the shell for anything else");
    const third = await ctx.buildContext(messages);
    expect(third.activated).toEqual([]);
  });

  it("deactivates the previous skill when another one is loaded", async () => {
    const ctx = await context();
    await ctx.callTool("load_skill", { name: "pdf-forms" });
    const second = await ctx.callTool("load_skill", { name: "with-resources" });
    expect(ctx.activeSkill).toBe("with-resources");
    expect(second.content).toContain('The skill "pdf-forms" is no longer active.');
    const step = await ctx.buildContext([]);
    expect(step.activated.map((a) => a.skill)).toEqual(["pdf-forms", "with-resources"]);
  });

  it("renders the body's commands once and freezes the result in state", async () => {
    const dir = path.join(suite.copy.skills, "counter");
    await mkdir(dir);
    await writeFile(
      path.join(dir, "SKILL.md"),
      '---\nname: counter\ndescription: Counts renders.\n---\nRun number: !`echo run >> runs.log; wc -l < runs.log | tr -d " "`\n',
    );
    const ctx = await context();
    const first = await ctx.callTool("load_skill", { name: "counter" });
    expect(first.content).toContain("Run number: 1");
    await writeFile(
      path.join(dir, "SKILL.md"),
      "---\nname: counter\ndescription: Counts renders.\n---\nChanged on disk.\n",
    );
    const second = await ctx.callTool("load_skill", { name: "counter" });
    expect(second.content).toBe(first.content);
    expect(await readFile(path.join(suite.copy.cwd, "runs.log"), "utf8")).toBe("run\n");
    expect(ctx.state.rendered["load:counter"]).toBe("Run number: 1\n");
  });

  it("does not run the commands of an untrusted project skill", async () => {
    const repoSkill = path.join(suite.copy.cwd, ".agents/skills/release-notes");
    await mkdir(repoSkill, { recursive: true });
    await writeFile(
      path.join(repoSkill, "SKILL.md"),
      await readFile(path.join(suite.copy.skills, "release-notes/SKILL.md"), "utf8"),
    );
    const ctx = await context({ skills: [] });
    const result = await ctx.callTool("load_skill", { name: "release-notes" });
    expect(result.content).not.toContain("token-42");
    expect(result.content).toContain("[Not run:");
    const trusted = await context();
    expect((await trusted.callTool("load_skill", { name: "release-notes" })).content).toContain(
      "Rendered at load: token-42",
    );
  });

  it("refuses an unknown name and lists the loadable skills in code-point order", async () => {
    const ctx = await context();
    const result = await ctx.callTool("load_skill", { name: "pdf" });
    expect(result.isError).toBe(true);
    expect(result.content).toBe('Unknown skill "pdf". Available skills: pdf-forms, release-notes, with-resources.');
    const nearMiss = await ctx.callTool("load_skill", { name: "PDF-Forms" });
    expect(nearMiss.content).toContain('Did you mean "pdf-forms"?');
    expect(ctx.activeSkill).toBeUndefined();
  });

  it("refuses disable-model-invocation skills and path rules", async () => {
    await writeFile(
      path.join(suite.copy.cwd, "db-rules.md"),
      "---\npaths: src/db/**\n---\nSchema changes need a migration.\n",
    );
    const ctx = await context({ skills: [suite.copy.skills, path.join(suite.copy.cwd, "db-rules.md")] });
    const internal = await ctx.callTool("load_skill", { name: "internal-only" });
    expect(internal).toEqual({ isError: true, content: expect.stringContaining("disable-model-invocation") });
    const rule = await ctx.callTool("load_skill", { name: "db-rules" });
    expect(rule).toEqual({ isError: true, content: expect.stringContaining("is a path rule") });
    expect(ctx.activeSkill).toBeUndefined();
    const step = await ctx.buildContext([]);
    expect(step.system).not.toContain("internal-only");
  });
});

describe("callTool with bad model input", () => {
  it.each([
    ["a number for name", { name: 3 }, "name: Invalid input: expected string, received number"],
    ["no name", {}, "name: Invalid input: expected string, received undefined"],
    ["null arguments", null, "name: Invalid input"],
    ["an array", ["pdf-forms"], "Invalid input: expected object, received array"],
    ["broken JSON text", '{"name": ', "arguments must be a JSON object"],
  ])("answers an error result for %s", async (_label, args, message) => {
    const ctx = await context();
    const result = await ctx.callTool("load_skill", args);
    expect(result.isError).toBe(true);
    expect(result.content).toContain("Invalid arguments for load_skill");
    expect(result.content).toContain(message);
  });

  it("accepts arguments sent as JSON text", async () => {
    const ctx = await context();
    const result = await ctx.callTool("load_skill", '{"name":"with-resources"}');
    expect(result.isError).toBeUndefined();
    expect(ctx.activeSkill).toBe("with-resources");
  });

  it("answers an unknown tool with the list of tools", async () => {
    const ctx = await context();
    const result = await ctx.callTool("bash", { command: "ls" });
    expect(result).toEqual({
      isError: true,
      content: 'Unknown tool "bash". Available tools: load_skill, read_skill_resource, run_skill_script, unload_skill.',
    });
    const nameless = await ctx.callTool(42 as unknown as string, {});
    expect(nameless.isError).toBe(true);
  });
});

describe("unload_skill", () => {
  it("deactivates the active skill, is harmless when none is active, and refuses another skill's name", async () => {
    const ctx = await context();
    expect(await ctx.callTool("unload_skill", { name: "pdf-forms" })).toEqual({
      content: 'No skill is active; "pdf-forms" was not loaded.',
    });
    await ctx.callTool("load_skill", { name: "pdf-forms" });
    const wrong = await ctx.callTool("unload_skill", { name: "release-notes" });
    expect(wrong).toEqual({
      isError: true,
      content: '"release-notes" is not the active skill; the active skill is "pdf-forms".',
    });
    expect(ctx.activeSkill).toBe("pdf-forms");
    const done = await ctx.callTool("unload_skill", { name: "pdf-forms" });
    expect(done.content).toBe('Skill "pdf-forms" unloaded; all tools are available again.');
    expect(ctx.activeSkill).toBeUndefined();
    expect(ctx.state.activeSkill).toBeUndefined();
  });
});
