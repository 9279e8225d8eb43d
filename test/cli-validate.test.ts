import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT, runCli, cliJson } from "./helpers/cli.js";
import type { CliRun } from "./helpers/cli.js";

// End to end: the BUILT CLI in a child process (the root `pnpm test` builds first).
const fixtures = path.join(ROOT, "fixtures/validate");
const corpus = process.env["SKILLCTX_CORPUS"] ?? path.join(ROOT, "../shared/corpus");
const HAS_CORPUS = existsSync(corpus); // absent on a fresh clone: the corpus test is skipped (test/setup/corpus.ts says so)

let tmp: string;
const run = (...args: string[]): Promise<CliRun> => runCli(["validate", ...args], { home: tmp });

interface JsonOutput {
  results: Array<{
    path: string;
    valid: boolean;
    diagnostics: Array<{ code: string; severity: string; message: string; line?: number }>;
  }>;
}

describe("skillctx validate (built CLI)", () => {
  beforeAll(async () => {
    assertBuilt();
    tmp = await mkdtemp(path.join(tmpdir(), "skillctx-cli-validate-"));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("exits 0 for a valid skill and prints a summary", async () => {
    const { code, stdout } = await run("fixtures/validate/valid-skill");
    expect(code).toBe(0);
    expect(stdout).toBe("1 skill checked: 1 valid, 0 invalid (0 errors, 0 warnings, 0 info)\n");
  });

  it("exits 1 and prints one line per finding: path:line: severity CODE message", async () => {
    const { code, stdout } = await run("fixtures/validate/name-dir-mismatch", "--strict");
    expect(code).toBe(1);
    expect(stdout.split("\n")).toEqual([
      "fixtures/validate/name-dir-mismatch/SKILL.md:2: error NAME_DIR_MISMATCH Directory name 'name-dir-mismatch' must match skill name 'another-name'",
      "1 skill checked: 0 valid, 1 invalid (1 error, 0 warnings, 0 info)",
      "",
    ]);
    // Without --strict it is list's verdict: list loads the skill under its own name, with a warning.
    const lenient = await run("fixtures/validate/name-dir-mismatch");
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain("warning NAME_DIR_MISMATCH");
  });

  it("accepts the SKILL.md file itself and several paths", async () => {
    const { code, stdout } = await run("fixtures/validate/valid-skill/SKILL.md", "fixtures/validate/café");
    expect(code).toBe(0);
    expect(stdout).toContain("2 skills checked: 2 valid");
  });

  it("reports a missing path, exit 1, and counts no skill for it", async () => {
    const { code, stdout } = await run("fixtures/validate/no-such-skill");
    expect(code).toBe(1);
    expect(stdout.split("\n")).toEqual([
      expect.stringMatching(/^fixtures\/validate\/no-such-skill: error PATH_NOT_FOUND .*nothing checked$/),
      "0 skills checked: 0 valid, 0 invalid (1 error, 0 warnings, 0 info)",
      "",
    ]);
  });

  it("prints JSON with --json, for every skill folder under a parent folder", async () => {
    const { code, stdout } = await run(fixtures, "--json", "--strict");
    expect(code).toBe(1);
    const json = cliJson(stdout) as JsonOutput;
    const byName = new Map(json.results.map((r) => [path.basename(r.path), r]));
    expect(byName.get("valid-skill")).toEqual({
      path: path.join(fixtures, "valid-skill"),
      valid: true,
      diagnostics: [],
    });
    expect(byName.get("yaml-flow-list")?.diagnostics.filter((d) => d.severity === "error")).toEqual([
      {
        path: path.join(fixtures, "yaml-flow-list/SKILL.md"),
        code: "YAML_INVALID",
        severity: "error",
        message:
          "Invalid YAML in frontmatter: flow sequence [...] (strictyaml refuses flow style; use block style or quote the value)",
        line: 5,
      },
    ]);
    expect(byName.get("frontmatter-bom")?.diagnostics.map((d) => d.code)).toEqual(["FRONTMATTER_MISSING"]);
    // Folders without SKILL.md are not skills of a parent folder; sorted by code point.
    expect(byName.has("missing-skill-md")).toBe(false);
    const names = json.results.map((r) => r.path);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("without --strict, portability findings are warnings", async () => {
    const { code, stdout } = await run("fixtures/validate/yaml-flow-list", "--json");
    expect(code).toBe(0);
    const json = cliJson(stdout) as JsonOutput;
    expect(json.results[0]?.valid).toBe(true);
    expect(json.results[0]?.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["METADATA_NOT_STRING", "warning"],
      ["YAML_INVALID", "warning"],
    ]);
  });

  it.runIf(HAS_CORPUS)("flags exactly 25 skills of the corpus with --strict", async () => {
    const { code, stdout } = await run(corpus, "--strict", "--json");
    expect(code).toBe(1);
    const json = cliJson(stdout) as JsonOutput;
    expect(json.results).toHaveLength(246);
    expect(json.results.filter((r) => !r.valid)).toHaveLength(25);
    // Without --strict, fields of other agents' dialects are accepted: fewer skills are invalid, never others.
    const loose = cliJson((await run(corpus, "--json")).stdout) as JsonOutput;
    const strictInvalid = new Set(json.results.filter((r) => !r.valid).map((r) => r.path));
    const looseInvalid = loose.results.filter((r) => !r.valid).map((r) => r.path);
    expect(looseInvalid.length).toBeLessThan(25);
    for (const p of looseInvalid) expect(strictInvalid.has(p), p).toBe(true);
  });

  it("searches parent folders to depth 4, skipping .git, node_modules, dot-folders and a skill's own folders", async () => {
    const skill = async (rel: string) => {
      await mkdir(path.join(tmp, rel), { recursive: true });
      const name = path.basename(rel);
      await writeFile(path.join(tmp, rel, "SKILL.md"), `---\nname: ${name}\ndescription: d\n---\n`);
    };
    await skill("a");
    await skill("x/y/z/deep4");
    await skill("x/y/z/w/deep5");
    await skill("a/nested-inside-skill");
    await skill(".git/hidden-git");
    await skill("node_modules/pkg");
    await skill(".hidden/dot");
    const { code, stdout } = await run(tmp, "--json");
    expect(code).toBe(0);
    const found = (cliJson(stdout) as JsonOutput).results.map((r) => path.relative(tmp, r.path));
    expect(found).toEqual(["a", path.join("x", "y", "z", "deep4")]);
  });

  it("a folder with no skill at all is MISSING_SKILL_MD", async () => {
    const empty = path.join(tmp, "empty");
    await mkdir(empty);
    const { code, stdout } = await run(empty);
    expect(code).toBe(1);
    expect(stdout).toContain(`${empty}: error MISSING_SKILL_MD`);
  });

  it("checks --cwd with no PATH (issue 37: it exited 2), and exits 2 on bad usage", async () => {
    const none = await runCli(["validate", "--cwd", path.join(ROOT, "fixtures/validate/valid-skill")], { home: tmp });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe("1 skill checked: 1 valid, 0 invalid (0 errors, 0 warnings, 0 info)\n");
    expect((await run("fixtures/validate/valid-skill", "--bogus")).code).toBe(2);
  });

  it("counts errors, warnings and info apart, with plurals right, and groups repeats of one code", async () => {
    const dir = await mkdtemp(path.join(tmp, "counts-"));
    for (const name of ["a", "b", "c"]) {
      await mkdir(path.join(dir, name));
      await writeFile(
        path.join(dir, name, "SKILL.md"),
        `---\nname: ${name}\ndescription: Formats the weekly sales report of team ${name}.\ncategory: tools\n---\nBody.\n`,
      );
    }
    const { code, stdout } = await run(dir);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    // Three skills with the same finding: one line, said once, with where (it was three lines).
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^warning UNEXPECTED_FIELDS Unexpected fields in frontmatter: category\. .* \(3 times: .*a\/SKILL\.md, .*c\/SKILL\.md\)$/,
    );
    expect(lines[1]).toBe("3 skills checked: 3 valid, 0 invalid (0 errors, 3 warnings, 0 info)");
  });

  it("reports a finding on the same line as list does: one formatter, one way to show paths", async () => {
    // The fixture as a skill source of `list` (the loader) and as a PATH of `validate` (the spec validator).
    const checked = await run("fixtures/validate/frontmatter-unclosed");
    const listed = await runCli(
      ["list", "--cwd", tmp, "--no-user", "--skills", "fixtures/validate/frontmatter-unclosed"],
      { home: tmp },
    );
    const prefix = "fixtures/validate/frontmatter-unclosed/SKILL.md:1: error FRONTMATTER_UNCLOSED ";
    expect(checked.stdout.split("\n").filter((l) => l.startsWith(prefix))).toHaveLength(1);
    expect(listed.stderr.split("\n").filter((l) => l.startsWith(prefix))).toHaveLength(1);
    // Absolute paths inside the folder skillctx runs in are shown relative to it, by both.
    const absolute = await run(path.join(fixtures, "frontmatter-unclosed"));
    expect(absolute.stdout.startsWith(prefix)).toBe(true);
  });
});

// Class 7 of issue 24: validate finds what list finds, from the project of --cwd.
describe("skillctx validate agrees with list (built CLI)", () => {
  const skillMd = (name: string, extra = "") =>
    `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\nBody.\n`;
  let repo: string;
  let home: string;
  beforeAll(async () => {
    assertBuilt();
    home = await mkdtemp(path.join(tmpdir(), "skillctx-cli-validate-home-"));
    repo = await mkdtemp(path.join(tmpdir(), "skillctx-cli-validate-repo-"));
    await mkdir(path.join(repo, ".git"));
    const put = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(repo, rel)), { recursive: true });
      await writeFile(path.join(repo, rel), text);
    };
    await put(".agents/skills/deploy/SKILL.md", skillMd("deploy"));
    // A skill with what list loads with a warning: an extra field and a Title Case name.
    await put(
      ".claude/skills/review/SKILL.md",
      "---\nname: Review\ndescription: Reviews pull requests for style and correctness.\nauthor: someone\n---\nB\n",
    );
    await put("shared/skills/lint/SKILL.md", skillMd("lint"));
    // An in-repository symlink into shared/ (how many repositories share one skill between agents).
    await symlink(path.join(repo, "shared/skills/lint"), path.join(repo, ".agents/skills/lint"));
    await put("packages/app/README.md", "# app\n");
  });
  afterAll(async () => {
    await rm(repo, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });
  const json = (r: CliRun) => cliJson(r.stdout) as JsonOutput & { skipped: Array<{ code: string }> };
  const rel = (r: CliRun) => json(r).results.map((x) => path.relative(repo, x.path));

  it("`validate .` finds opencode's .opencode/skills/<name>/SKILL.md (https://opencode.ai/docs/skills)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "skillctx-validate-opencode-"));
    await mkdir(path.join(dir, ".opencode/skills/local-explorer"), { recursive: true });
    await writeFile(
      path.join(dir, ".opencode/skills/local-explorer/SKILL.md"),
      "---\nname: local-explorer\ndescription: Explores the local monorepo.\n---\nSteps.\n",
    );
    const r = await runCli(["validate", ".", "--cwd", dir, "--json"], { home });
    expect(r.code).toBe(0);
    expect(json(r).results.map((x) => path.relative(dir, x.path))).toEqual([
      path.join(".opencode/skills/local-explorer"),
    ]);
    await rm(dir, { recursive: true, force: true });
  });

  it("`validate .` checks the dot skill folders list reads (.agents/skills, .claude/skills) and in-repo symlinks", async () => {
    const r = await runCli(["validate", ".", "--cwd", repo, "--json"], { home });
    expect(r.code).toBe(0);
    expect(rel(r)).toEqual([
      path.join(".agents/skills/deploy"),
      path.join(".agents/skills/lint"),
      path.join(".claude/skills/review"),
    ]);
    const listed = cliJson((await runCli(["list", "--cwd", repo, "--json"], { home })).stdout) as {
      skills: { name: string }[];
    };
    // Every skill list shows is one validate checked, each folder once (the shared one at the path list shows).
    expect(listed.skills.map((s) => s.name).sort()).toEqual(["Review", "deploy", "lint"]);
    const review = json(r).results.find((x) => x.path.endsWith("review"));
    expect(review?.diagnostics.filter((d) => d.severity === "warning").map((d) => d.code)).toEqual([
      "NAME_NOT_LOWERCASE",
      "NAME_DIR_MISMATCH",
      "UNEXPECTED_FIELDS",
    ]);
    // --strict keeps the specification's errors.
    const strict = await runCli(["validate", ".", "--cwd", repo, "--strict"], { home });
    expect(strict.code).toBe(1);
  });

  it("a container folder is searched; PATH resolves against --cwd; a symlinked skill is followed inside the project", async () => {
    const container = await runCli(["validate", ".agents/skills", "--cwd", repo, "--json"], { home });
    expect(container.code).toBe(0);
    expect(rel(container)).toEqual([path.join(".agents/skills/deploy"), path.join(".agents/skills/lint")]);
    const linked = await runCli(["validate", ".agents/skills/lint", "--cwd", repo, "--json"], { home });
    expect(linked.code).toBe(0);
    expect(json(linked).skipped).toEqual([]);
    expect(rel(linked)).toEqual([path.join(".agents/skills/lint")]);
  });

  it("a folder with no skill checks nothing and says so", async () => {
    const r = await runCli(["validate", "packages/app", "--cwd", repo], { home });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error MISSING_SKILL_MD no skill folder .* nothing checked/);
    expect(r.stdout).toContain("0 skills checked");
  });
});
