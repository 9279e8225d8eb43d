import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, runCli } from "./helpers/cli.js";

// The built CLI, on what the reference validator (skills-ref) says word for word under --strict, and on
// lenient validate agreeing with list about a skill list loads with a YAML error.
// agentskills/agentskills skills-ref/src/skills_ref/validator.py `validate`: "Path does not exist: P",
// "Not a directory: P", "Missing required file: SKILL.md"; strictyaml refuses a duplicate key.
let repo: string;
let home: string;

describe("validate --strict speaks the reference validator's words; lenient validate agrees with list", () => {
  beforeAll(async () => {
    assertBuilt();
    repo = await mkdtemp(path.join(tmpdir(), "skillctx-validate-ref-"));
    home = path.join(repo, "home");
    await mkdir(home);
    await mkdir(path.join(repo, "empty"));
    await writeFile(path.join(repo, "notes.txt"), "plain\n");
    await writeFile(path.join(repo, "README.md"), "# readme\n");
    const dup = path.join(repo, ".claude/skills/dup");
    await mkdir(dup, { recursive: true });
    await writeFile(
      path.join(dup, "SKILL.md"),
      "---\nname: dup\ndescription: Checks duplicate keys in front matter files\ndescription: again\n---\n# Dup\nBody line.\n",
    );
  });
  afterAll(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it.each([
    ["empty", "MISSING_SKILL_MD", "Missing required file: SKILL.md"],
    ["notes.txt", "NOT_A_DIRECTORY", "Not a directory: notes.txt"],
    ["README.md", "NOT_A_DIRECTORY", "Not a directory: README.md"],
    ["nope", "PATH_NOT_FOUND", "Path does not exist: nope"],
  ])("--strict %s: %s", async (given, code, message) => {
    const r = await runCli(["validate", given, "--cwd", repo, "--strict"], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`error ${code} ${message}\n`);
  });

  it("without --strict the same folder keeps skillctx's own words", async () => {
    const r = await runCli(["validate", "empty", "--cwd", repo], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error MISSING_SKILL_MD no skill folder .* nothing checked/);
  });

  it("a duplicate key: list loads the skill with the error and exits 1; lenient validate says it is loaded with errors", async () => {
    const list = await runCli(["list", "--cwd", repo], { home });
    expect(list.code).toBe(1);
    expect(list.stdout).toMatch(/^dup\s/m);
    expect(list.stderr).toContain("error YAML_INVALID");
    const lenient = await runCli(["validate", ".claude/skills/dup", "--cwd", repo], { home });
    expect(lenient.code).toBe(1);
    expect(lenient.stdout).toMatch(/error YAML_INVALID .*unique.*loaded with errors: skillctx list loads the skill/);
    const strict = await runCli(["validate", ".claude/skills/dup", "--cwd", repo, "--strict"], { home });
    expect(strict.code).toBe(1);
    expect(strict.stdout).not.toContain("loaded with errors");
  });
});
