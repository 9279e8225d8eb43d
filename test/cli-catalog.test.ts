// `skillctx catalog` prints ctx.catalog: the catalog `build` puts into `system`, loaded the one way
// every command loads skills (AgentContext.create). Built CLI, child processes.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, DEMO, ROOT, runCli, cliJson } from "./helpers/cli.js";

const tempDir = useTempDirs("cli-catalog");
beforeAll(assertBuilt);

interface CatalogJson {
  format: string;
  budgetTokens: number | null;
  text: string;
  tokens: number;
  level: string;
  included: string[];
  omitted: string[];
  diagnostics: Array<{ code: string }>;
}

async function catalogAndSystem(
  args: string[],
  home: string,
): Promise<{ human: string; json: CatalogJson; system: string }> {
  const human = await runCli(["catalog", ...args], { home });
  const json = await runCli(["catalog", ...args, "--json"], { home });
  const build = await runCli(["build", ...args, "--json"], { home });
  for (const run of [human, json, build]) expect(run.code, run.stderr).toBe(0);
  return {
    human: human.stdout,
    json: cliJson(json.stdout) as CatalogJson,
    system: (cliJson(build.stdout) as { system: string }).system,
  };
}

describe("skillctx catalog (built CLI)", () => {
  it("lists the two Cursor rules the engine's catalog lists (it printed '0 of 0' when it loaded skills another way)", async () => {
    const repo = await tempDir({
      ".cursor/rules/sql.mdc": "---\ndescription: Rules for writing SQL migrations\n---\nUse transactions.\n",
      ".cursor/rules/notes.mdc":
        "---\ndescription: How to write release notes\nalwaysApply: false\n---\nKeep it short.\n",
    });
    const run = await runCli(["catalog", "--cwd", repo, "--no-user"], { home: path.join(repo, ".no-home") });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/level full, 2 of 2 skills listed\n$/);
    expect(run.stdout).toContain("<name>cursor:notes</name>");
    expect(run.stdout).toContain("<name>cursor:sql</name>");
    const { human, json, system } = await catalogAndSystem(["--cwd", repo, "--no-user"], path.join(repo, ".no-home"));
    expect(json.included).toEqual(["cursor:notes", "cursor:sql"]);
    expect(human).toBe(`${json.text}\n`);
    expect(system).toContain(json.text);
  });

  it("prints exactly the catalog build puts in system, on the demo repository, in both formats and under a budget", async () => {
    const home = await tempDir();
    for (const extra of [[], ["--format", "markdown"], ["--budget", "60"]]) {
      const { human, json, system } = await catalogAndSystem(["--cwd", DEMO, "--no-user", ...extra], home);
      expect(json.text.length).toBeGreaterThan(0);
      expect(human).toBe(`${json.text}\n`);
      expect(system.endsWith(json.text), extra.join(" ")).toBe(true);
    }
  }, 60_000); // six runs of the built CLI: past the 30 s default on a loaded two-core machine

  it("--json carries the catalog's figures; a budget degrades it and names what was left out", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++)
      files[`.agents/skills/s${i}/SKILL.md`] =
        `---\nname: s${i}\ndescription: Handles the workflow number ${i} end to end, with reports and reviews.\n---\nBody.\n`;
    const repo = await tempDir(files);
    const full = cliJson(
      (await runCli(["catalog", "--cwd", repo, "--no-user", "--json"], { home: path.join(repo, ".no-home") })).stdout,
    ) as CatalogJson;
    expect(full).toMatchObject({ format: "xml", budgetTokens: null, level: "full", omitted: [] });
    expect(full.included).toHaveLength(30);
    expect(full.tokens).toBeGreaterThan(100);
    const cut = await runCli(["catalog", "--cwd", repo, "--no-user", "--json", "--budget", "40"], {
      home: path.join(repo, ".no-home"),
    });
    const json = cliJson(cut.stdout) as CatalogJson;
    expect(json.level).toBe("partial");
    expect(json.tokens).toBeLessThanOrEqual(40);
    expect(json.included.length + json.omitted.length).toBe(30);
    expect(json.omitted.length).toBeGreaterThan(0);
  });

  it("a repository with no skills: empty stdout, '0 of 0' on stderr, exit 0", async () => {
    const repo = await tempDir({ "README.md": "# nothing\n" });
    const run = await runCli(["catalog", "--cwd", repo, "--no-user"], { home: path.join(repo, ".no-home") });
    expect(run).toEqual({
      code: 0,
      stdout: "",
      stderr: "catalog: 0 tokens (o200k_base), no budget, level full, 0 of 0 skills listed\n",
    });
  });

  it("--skills adds a folder of skill folders, as the skills option of AgentContext does", async () => {
    const repo = await tempDir();
    const extra = await tempDir({ "group/one/SKILL.md": "---\nname: one\ndescription: The first.\n---\nx\n" });
    const run = await runCli(["catalog", "--cwd", repo, "--no-user", "--skills", extra, "--json"], {
      home: path.join(repo, ".no-home"),
    });
    expect((cliJson(run.stdout) as CatalogJson).included).toEqual(["one"]);
    const relative = await runCli(
      ["catalog", "--cwd", repo, "--no-user", "--skills", path.relative(ROOT, extra), "--json"],
      { home: path.join(repo, ".no-home") },
    );
    expect((cliJson(relative.stdout) as CatalogJson).included).toEqual(["one"]);
  });
});
