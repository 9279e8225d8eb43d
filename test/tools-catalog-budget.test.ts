import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildCatalog, countTokens } from "@skillctx/core";
import type { SkillInit } from "@skillctx/core";
import { AgentContext } from "skillctx";
import { runCli } from "../packages/cli/src/run.js";

const WORDS = [
  "apple",
  "birch",
  "cedar",
  "delta",
  "ember",
  "fjord",
  "glade",
  "heron",
  "iris",
  "juniper",
  "kelp",
  "lotus",
];
const COUNT = 48;

/** Programmatic skills, each with a two-sentence description naming its own word. */
function skills(): SkillInit[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const word = `${WORDS[i % WORDS.length]}${Math.floor(i / WORDS.length)}`;
    return {
      name: `skill-${String(i).padStart(2, "0")}`,
      description: `Handles the ${word} workflow end to end for the team. Use it for ${word} reports, ${word} exports and the weekly ${word} review with charts.`,
      content: `Body of ${word}.`,
      source: { kind: "inline", format: "inline", scope: "programmatic" },
      trigger: { type: "on-demand" },
    };
  });
}

const dirs: string[] = [];
const contexts: AgentContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-budget-")));
  dirs.push(dir);
  return dir;
}

async function step(budgetTokens?: number) {
  const ctx = await AgentContext.create({
    cwd: await tempDir(),
    skills: skills() as never,
    guidance: false,
    ...(budgetTokens !== undefined && { catalog: { budgetTokens } }),
  });
  contexts.push(ctx);
  const built = await ctx.buildContext([]);
  const catalog = built.system.slice(built.system.indexOf("<available_skills>"));
  return { ctx, step: built, catalog };
}

const descriptions = (catalog: string) => [...catalog.matchAll(/<description>(.*?)<\/description>/g)].map((m) => m[1]!);
const listedNames = (catalog: string) => [...catalog.matchAll(/<name>(.*?)<\/name>/g)].map((m) => m[1]!);
const allNames = skills().map((s) => s.name);

describe("catalog budget", () => {
  it("degrades step by step: full, short descriptions, names only, then a partial list with search_skills", async () => {
    const full = await step();
    const fullTokens = countTokens(full.catalog);
    expect(descriptions(full.catalog)).toEqual(skills().map((s) => s.description));
    expect(full.step.tools.map((t) => t.name)).not.toContain("search_skills");

    // A budget just under the full size: the first sentence of each description.
    const short = await step(fullTokens - 1);
    const shortDescriptions = descriptions(short.catalog);
    expect(shortDescriptions).toHaveLength(COUNT);
    shortDescriptions.forEach((text, i) => expect(text).toBe(`${skills()[i]!.description!.split(". ")[0]}.`));
    expect(countTokens(short.catalog)).toBeLessThanOrEqual(fullTokens - 1);

    // Under the short size: names only.
    const names = await step(countTokens(short.catalog) - 1);
    expect(descriptions(names.catalog)).toEqual([]);
    expect(listedNames(names.catalog)).toEqual(allNames);
    expect(names.step.tools.map((t) => t.name)).not.toContain("search_skills");

    // Under the names-only size: as many names as fit, a pointer to search_skills, and the tool itself.
    const budget = Math.floor(countTokens(names.catalog) / 2);
    const partial = await step(budget);
    const listed = listedNames(partial.catalog);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(COUNT);
    expect(listed).toEqual(allNames.slice(0, listed.length));
    expect(partial.catalog).toContain(`Skills not listed here: ${COUNT - listed.length}. Call the search_skills tool`);
    expect(countTokens(partial.catalog)).toBeLessThanOrEqual(budget);
    expect(partial.step.tools.map((t) => t.name)).toEqual([
      "load_skill",
      "read_skill_resource",
      // The generated skills have no scripts/ folder: run_skill_script is not offered (issue 37).
      "unload_skill",
      "search_skills",
    ]);

    // search_skills finds an omitted skill by a word of its description, and it can be loaded.
    const last = skills()[COUNT - 1]!;
    const word = /the (\S+) workflow/.exec(last.description!)![1]!;
    const found = await partial.ctx.callTool("search_skills", { query: `${word} report` });
    expect(found.isError).toBeUndefined();
    expect(found.content.split("\n")[1]).toBe(`- ${last.name}: ${last.description}`);
    expect(found.content.endsWith("Load one with the load_skill tool.")).toBe(true);
    expect((await partial.ctx.callTool("load_skill", { name: last.name })).content).toContain(`Body of ${word}.`);
    expect(await partial.ctx.callTool("search_skills", { query: "zebra" })).toEqual({
      content: 'No skill matches "zebra". Try other words from the task.',
    });
    expect((await partial.ctx.callTool("search_skills", {})).isError).toBe(true);
  });

  it("names the toolset's load tool in search results", async () => {
    const ctx = await AgentContext.create({
      cwd: await tempDir(),
      skills: skills() as never,
      guidance: false,
      tools: {
        toolset: "claude",
      },
      catalog: {
        budgetTokens: 60,
      },
    });
    contexts.push(ctx);
    const result = await ctx.callTool("search_skills", { query: "apple0" });
    expect(result.content).toMatch(/Load one with the Skill tool( only if its description fits the task)?\.$/);
  });
});

describe("skillctx catalog", () => {
  async function repo(): Promise<string> {
    const dir = await tempDir();
    for (const skill of skills()) {
      const folder = path.join(dir, ".agents/skills", skill.name);
      await mkdir(folder, { recursive: true });
      await writeFile(
        path.join(folder, "SKILL.md"),
        `---\nname: ${skill.name}\ndescription: ${skill.description}\n---\n${skill.content}\n`,
      );
    }
    return dir;
  }

  async function cli(args: string[]) {
    let stdout = "";
    let stderr = "";
    const code = await runCli(["catalog", ...args], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
    });
    return { code, stdout, stderr };
  }

  it("prints the catalog on stdout and its token count on stderr", async () => {
    const dir = await repo();
    const run = await cli(["--cwd", dir, "--no-user"]);
    expect(run.code).toBe(0);
    const text = run.stdout.replace(/\n$/, "");
    expect(listedNames(text)).toEqual(allNames);
    expect(run.stderr).toBe(
      `catalog: ${countTokens(text)} tokens (o200k_base), no budget, level full, ${COUNT} of ${COUNT} skills listed\n`,
    );
  });

  it("shows how a budget degrades the catalog, in markdown too", async () => {
    const dir = await repo();
    const run = await cli(["--cwd", dir, "--no-user", "--budget", "120", "--format", "markdown"]);
    expect(run.code).toBe(0);
    const text = run.stdout.replace(/\n$/, "");
    expect(countTokens(text)).toBeLessThanOrEqual(120);
    expect(text).toMatch(/^- skill-00\n- skill-01\n/);
    expect(text).toContain("Call the search_skills tool");
    const listed = text.split("\n").filter((line) => line.startsWith("- ")).length;
    expect(run.stderr).toBe(
      `catalog: ${countTokens(text)} tokens (o200k_base), budget 120, level partial, ${listed} of ${COUNT} skills listed, ${COUNT - listed} left out (found with search_skills)\n`,
    );
    // The same catalog the engine builds for that budget.
    const ctx = await AgentContext.create({ cwd: dir, guidance: false });
    contexts.push(ctx);
    expect(text).toBe(buildCatalog(ctx.skills, { format: "markdown", budgetTokens: 120 }).text);
  });

  it.each([
    [["--budget", "lots"], "--budget must be a whole number of tokens"],
    [["--budget=-5"], "--budget must be a whole number"],
    [["--format", "json"], "--format must be xml or markdown"],
    [["--cwd", "/no/such/folder"], "no such folder"],
    [["--frobnicate"], "unknown option"],
  ])("exits 2 on bad usage %j", async (args, message) => {
    const run = await cli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    // One line, pointing at the command's help (docs/cli.md).
    expect(run.stderr).toMatch(/^skillctx catalog: [^\n]* \(see skillctx catalog --help\)\n$/);
  });
});
