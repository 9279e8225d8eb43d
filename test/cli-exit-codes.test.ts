// Exit codes of the built CLI's reading commands on fixture repositories: a repository with Cline's
// single `.clinerules` file (and every other format) lists, builds and catalogs with exit 0 and no
// error finding; a repository with a broken skill exits 1 from each. An exit-code change fails here.
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFixture, removeTempDirs, tempDir } from "../packages/compat/src/testing/temp-repo.js";
import { assertBuilt, cliJson, runCli } from "./helpers/cli.js";

beforeAll(assertBuilt);
afterAll(removeTempDirs);

const READING = ["list", "build", "catalog"] as const;

describe("exit codes of list, build and catalog (built CLI)", () => {
  it("a root .clinerules file is guidance, never a folder to probe: exit 0, no error, no ENOTDIR", async () => {
    // fixtures/compat/all-formats holds `.clinerules` as Cline's single-file form
    // (https://docs.cline.bot/features/cline-rules): `.clinerules/skills` lies under a file.
    const repo = await copyFixture("all-formats");
    const home = await tempDir();
    for (const command of READING) {
      const run = await runCli([command, "--cwd", repo], { home });
      expect({ command, code: run.code }).toEqual({ command, code: 0 });
      expect(run.stderr).not.toMatch(/\berror\b|ENOTDIR|READ_FAILED/);
    }
    const built = await runCli(["build", "--cwd", repo, "--json"], { home });
    expect(cliJson<{ system: string }>(built.stdout).system).toContain(".clinerules");
  });

  it("a skill with an error finding: exit 1 from each, the finding on stderr", async () => {
    const repo = await copyFixture("skill-error");
    const home = await tempDir();
    for (const command of READING) {
      const run = await runCli([command, "--cwd", repo], { home });
      expect({ command, code: run.code }).toEqual({ command, code: 1 });
      expect(run.stderr).toContain("error FRONTMATTER_UNCLOSED");
    }
  });

  it("the same repository without the broken skill: exit 0 from each", async () => {
    const repo = await copyFixture("skill-error");
    await rm(`${repo}/.claude/skills/broken`, { recursive: true });
    const home = await tempDir();
    for (const command of READING) {
      const run = await runCli([command, "--cwd", repo], { home });
      expect({ command, code: run.code }).toEqual({ command, code: 0 });
      expect(run.stderr).not.toMatch(/\berror\b/);
    }
  });
});
