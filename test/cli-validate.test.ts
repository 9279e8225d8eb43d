import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// End to end: the BUILT CLI in a child process (the root `pnpm test` builds first).
const root = fileURLToPath(new URL("../", import.meta.url));
const cli = path.join(root, "packages/skillctx/dist/cli.js");
const fixtures = path.join(root, "fixtures/validate");
const corpus = process.env["SKILLCTX_CORPUS"] ?? path.join(root, "../shared/corpus");
const HAS_CORPUS = existsSync(corpus); // absent on a fresh clone: the corpus test is skipped (test/setup/corpus.ts says so)

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, "validate", ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface JsonOutput {
  results: Array<{ path: string; valid: boolean; diagnostics: Array<{ code: string; severity: string; message: string; line?: number }> }>;
}

describe("skillctx validate (built CLI)", () => {
  let tmp: string;

  beforeAll(async () => {
    if (!existsSync(cli)) throw new Error(`build the CLI first (pnpm build): ${cli} is missing`);
    tmp = await mkdtemp(path.join(tmpdir(), "skillctx-cli-validate-"));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("exits 0 for a valid skill and prints a summary", () => {
    const { code, stdout } = run("fixtures/validate/valid-skill");
    expect(code).toBe(0);
    expect(stdout).toBe("1 skill checked: 1 valid, 0 invalid (0 errors, 0 warnings)\n");
  });

  it("exits 1 and prints one line per finding: path:line: severity CODE message", () => {
    const { code, stdout } = run("fixtures/validate/name-dir-mismatch");
    expect(code).toBe(1);
    expect(stdout.split("\n")).toEqual([
      "fixtures/validate/name-dir-mismatch/SKILL.md:2: error NAME_DIR_MISMATCH Directory name 'name-dir-mismatch' must match skill name 'another-name'",
      "1 skill checked: 0 valid, 1 invalid (1 errors, 0 warnings)",
      "",
    ]);
  });

  it("accepts the SKILL.md file itself and several paths", () => {
    const { code, stdout } = run("fixtures/validate/valid-skill/SKILL.md", "fixtures/validate/café");
    expect(code).toBe(0);
    expect(stdout).toContain("2 skills checked: 2 valid");
  });

  it("reports a missing path, exit 1", () => {
    const { code, stdout } = run("fixtures/validate/no-such-skill");
    expect(code).toBe(1);
    expect(stdout).toContain("fixtures/validate/no-such-skill: error PATH_NOT_FOUND");
  });

  it("prints JSON with --json, for every skill folder under a parent folder", () => {
    const { code, stdout } = run(fixtures, "--json", "--strict");
    expect(code).toBe(1);
    const json = JSON.parse(stdout) as JsonOutput;
    const byName = new Map(json.results.map((r) => [path.basename(r.path), r]));
    expect(byName.get("valid-skill")).toEqual({ path: path.join(fixtures, "valid-skill"), valid: true, diagnostics: [] });
    expect(byName.get("yaml-flow-list")?.diagnostics.filter((d) => d.severity === "error")).toEqual([
      {
        code: "YAML_INVALID",
        severity: "error",
        message: "Invalid YAML in frontmatter: flow sequence [...] (strictyaml refuses flow style; use block style or quote the value)",
        line: 5,
      },
    ]);
    expect(byName.get("frontmatter-bom")?.diagnostics.map((d) => d.code)).toEqual(["FRONTMATTER_MISSING"]);
    // Folders without SKILL.md are not skills of a parent folder; sorted by code point.
    expect(byName.has("missing-skill-md")).toBe(false);
    const names = json.results.map((r) => r.path);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("without --strict, portability findings are warnings", () => {
    const { code, stdout } = run("fixtures/validate/yaml-flow-list", "--json");
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as JsonOutput;
    expect(json.results[0]?.valid).toBe(true);
    expect(json.results[0]?.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["METADATA_NOT_STRING", "warning"],
      ["YAML_INVALID", "warning"],
    ]);
  });

  it.runIf(HAS_CORPUS)("flags exactly 25 skills of the corpus with --strict", () => {
    const { code, stdout } = run(corpus, "--strict", "--json");
    expect(code).toBe(1);
    const json = JSON.parse(stdout) as JsonOutput;
    expect(json.results).toHaveLength(246);
    expect(json.results.filter((r) => !r.valid)).toHaveLength(25);
    const loose = JSON.parse(run(corpus, "--json").stdout) as JsonOutput;
    expect(loose.results.filter((r) => !r.valid)).toHaveLength(24);
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
    const { code, stdout } = run(tmp, "--json");
    expect(code).toBe(0);
    const found = (JSON.parse(stdout) as JsonOutput).results.map((r) => path.relative(tmp, r.path));
    expect(found).toEqual(["a", path.join("x", "y", "z", "deep4")]);
  });

  it("a folder with no skill at all is MISSING_SKILL_MD", async () => {
    const empty = path.join(tmp, "empty");
    await mkdir(empty);
    const { code, stdout } = run(empty);
    expect(code).toBe(1);
    expect(stdout).toContain(`${empty}: error MISSING_SKILL_MD`);
  });

  it("exits 2 on bad usage", () => {
    const none = run();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("usage: skillctx validate PATH... [--strict] [--json]");
    expect(run("fixtures/validate/valid-skill", "--bogus").code).toBe(2);
  });
});
