import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateSkill, validateSkillMd } from "./validate.js";
import { compareCodePoints } from "./code-point-order.js";

const fixtures = fileURLToPath(new URL("../../../fixtures/validate/", import.meta.url));
const errorCodes = (r: { diagnostics: { code: string; severity: string }[] }) =>
  r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
const warningCodes = (r: { diagnostics: { code: string; severity: string }[] }) =>
  r.diagnostics.filter((d) => d.severity === "warning").map((d) => d.code);

// Each fixture folder and the error codes the reference validator (skills-ref) gives it.
const CASES: Array<[folder: string, codes: string[]]> = [
  ["valid-skill", []],
  ["valid-all-fields", []],
  ["valid-lowercase-file", []],
  ["café", []],
  ["技能", []],
  ["мой-навык", []],
  ["123", []],
  ["missing-skill-md", ["MISSING_SKILL_MD"]],
  ["not-a-directory.txt", ["NOT_A_DIRECTORY"]],
  ["does-not-exist", ["PATH_NOT_FOUND"]],
  ["frontmatter-missing", ["FRONTMATTER_MISSING"]],
  ["frontmatter-bom", ["FRONTMATTER_MISSING"]],
  ["frontmatter-blank-first-line", ["FRONTMATTER_MISSING"]],
  ["frontmatter-unclosed", ["FRONTMATTER_UNCLOSED"]],
  ["frontmatter-not-mapping", ["FRONTMATTER_NOT_MAPPING"]],
  ["frontmatter-empty", ["FRONTMATTER_NOT_MAPPING"]],
  ["yaml-invalid", ["YAML_INVALID"]],
  ["yaml-duplicate-key", ["YAML_INVALID"]],
  ["yaml-flow-list", ["YAML_INVALID"]],
  ["yaml-anchor-alias", ["YAML_INVALID", "YAML_INVALID"]],
  ["yaml-tag", ["YAML_INVALID"]],
  ["name-missing", ["NAME_MISSING"]],
  ["description-missing", ["DESCRIPTION_MISSING"]],
  ["name-empty", ["NAME_EMPTY"]],
  ["a".repeat(65), ["NAME_TOO_LONG"]],
  ["Name-Not-Lowercase", ["NAME_NOT_LOWERCASE"]],
  ["name-hyphen-edge-", ["NAME_HYPHEN_EDGE"]],
  ["name--consecutive", ["NAME_CONSECUTIVE_HYPHENS"]],
  ["name_invalid_chars", ["NAME_INVALID_CHARS"]],
  ["name-dir-mismatch", ["NAME_DIR_MISMATCH"]],
  ["description-empty", ["DESCRIPTION_EMPTY"]],
  ["description-too-long", ["DESCRIPTION_TOO_LONG"]],
  ["compatibility-not-string", ["COMPATIBILITY_NOT_STRING"]],
  ["compatibility-too-long", ["COMPATIBILITY_TOO_LONG"]],
  ["unexpected-fields", ["UNEXPECTED_FIELDS"]],
  ["soft-type-warnings", []],
];

describe("validateSkill on fixtures (--strict, the reference validator's verdicts)", () => {
  it.each(CASES)("%s → %j", async (folder, codes) => {
    const result = await validateSkill(path.join(fixtures, folder), { strict: true });
    expect(errorCodes(result)).toEqual(codes);
    expect(result.valid).toBe(codes.length === 0);
    for (const d of result.diagnostics) expect(d.path).toBeDefined();
  });
});

describe("validateSkill details", () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), "skillctx-validate-"));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it("gives findings the file and the line of the field", async () => {
    const result = await validateSkill(path.join(fixtures, "name-dir-mismatch"), { strict: true });
    expect(result.diagnostics).toEqual([
      {
        code: "NAME_DIR_MISMATCH",
        severity: "error",
        message: "Directory name 'name-dir-mismatch' must match skill name 'another-name'",
        path: path.join(fixtures, "name-dir-mismatch", "SKILL.md"),
        line: 2,
      },
    ]);
  });

  it("reports every finding of a file, not just the first", async () => {
    const dir = path.join(tmp, "Bad_Name-");
    await mkdir(dir);
    await writeFile(
      path.join(dir, "SKILL.md"),
      `---\nname: Bad_Name-\ndescription: ""\ncompatibility:\n  - x\nextra: 1\n---\n`,
    );
    const result = await validateSkill(dir, { strict: true });
    expect(errorCodes(result).sort(compareCodePoints)).toEqual(
      [
        "COMPATIBILITY_NOT_STRING",
        "DESCRIPTION_EMPTY",
        "NAME_HYPHEN_EDGE",
        "NAME_INVALID_CHARS",
        "NAME_NOT_LOWERCASE",
        "UNEXPECTED_FIELDS",
      ].sort(compareCodePoints),
    );
    expect(result.diagnostics.find((d) => d.code === "COMPATIBILITY_NOT_STRING")?.line).toBe(4);
    expect(result.diagnostics.find((d) => d.code === "UNEXPECTED_FIELDS")?.line).toBe(6);
  });

  it("reads CRLF files as the reference does (universal newlines)", async () => {
    const dir = path.join(tmp, "crlf-skill");
    await mkdir(dir);
    await writeFile(path.join(dir, "SKILL.md"), "---\r\nname: crlf-skill\r\ndescription: CRLF\r\n---\r\nbody\r\n");
    expect(await validateSkill(dir, { strict: true })).toEqual({ valid: true, diagnostics: [] });
  });

  it("refuses a file that is not UTF-8", async () => {
    const dir = path.join(tmp, "latin1");
    await mkdir(dir);
    await writeFile(
      path.join(dir, "SKILL.md"),
      Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a]),
    );
    expect(errorCodes(await validateSkill(dir))).toEqual(["ENCODING_INVALID"]);
  });

  it("reads through the one file reader: NUL bytes, a size cap, containment and FIFOs", async () => {
    const make = async (name: string) => {
      const dir = path.join(tmp, name);
      await mkdir(dir);
      return dir;
    };
    const nul = await make("nul-skill");
    await writeFile(path.join(nul, "SKILL.md"), "---\nname: nul-skill\ndescription: a\u0000b\n---\n");
    expect(errorCodes(await validateSkill(nul))).toEqual(["ENCODING_INVALID"]);
    const big = await make("big-skill");
    await writeFile(path.join(big, "SKILL.md"), `---\nname: big-skill\ndescription: d\n---\n${"x".repeat(5000)}`);
    expect(errorCodes(await validateSkill(big, { maxBytes: 1000 }))).toEqual(["TOO_LARGE"]);
    const outside = await make("outside");
    const secret = path.join(tmp, "secret.md");
    await writeFile(secret, "---\nname: outside\ndescription: d\n---\n");
    await symlink(secret, path.join(outside, "SKILL.md"));
    expect(errorCodes(await validateSkill(outside, { root: outside }))).toEqual(["PATH_OUTSIDE_ROOT"]);
    expect((await validateSkill(outside)).valid).toBe(true);
    const fifo = await make("fifo-skill");
    execFileSync("mkfifo", [path.join(fifo, "SKILL.md")]);
    // A FIFO is not a regular file: the finder does not take it (stat().isFile() is false), and nothing blocks.
    expect(errorCodes(await validateSkill(fifo))).toEqual(["MISSING_SKILL_MD"]);
  });

  it("refuses a frontmatter longer than the cap, as the loader does", () => {
    const text = `---\nname: a\ndescription: ${"x".repeat(3000)}\n---\n`;
    expect(errorCodes(validateSkillMd(text, { maxFrontmatterChars: 1000 }))).toEqual(["FRONTMATTER_TOO_LARGE"]);
    expect(errorCodes(validateSkillMd(text, { dirName: "a", strict: true }))).toEqual(["DESCRIPTION_TOO_LONG"]);
  });

  it("honours an aborted signal", async () => {
    await expect(validateSkill(path.join(fixtures, "valid-skill"), { signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it("keeps metadata, license and allowed-tools types as warnings", async () => {
    const result = await validateSkill(path.join(fixtures, "soft-type-warnings"), { strict: true });
    expect(result.valid).toBe(true);
    expect(warningCodes(result)).toEqual(["LICENSE_NOT_STRING", "METADATA_NOT_STRING", "ALLOWED_TOOLS_INVALID"]);
  });
});

describe("validateSkillMd: strict and portable YAML", () => {
  const md = (...lines: string[]) => `---\n${lines.join("\n")}\n---\nbody\n`;
  const check = (text: string, strict: boolean) => validateSkillMd(text, { strict, dirName: "s" });

  it.each([
    ["flow sequence", md("name: s", "description: d", "allowed-tools: [Read, Write]")],
    ["flow mapping", md("name: s", "description: d", "metadata: {a: b}")],
    ["anchor", md("name: &x s", "description: d")],
    ["alias", md("name: s", "description: d", "metadata:", "  a: &v x", "  b: *v")],
    ["tag", md("name: !!str s", "description: d")],
    ["tab after a value", md("name: s\t", "description: d")],
    [
      "unevenly indented sibling mappings",
      md("name: s", "description: d", "metadata:", "  a: b", "x-other:", "    c: d"),
    ],
    ["complex key", md("name: s", "description: d", "metadata:", "  ? - k", "  : v")],
  ])("%s: error with --strict, a warning without", (_what, text) => {
    const strict = check(text, true);
    expect(strict.valid).toBe(false);
    expect(errorCodes(strict)).toContain("YAML_INVALID");
    const loose = check(text, false);
    expect(errorCodes(loose).filter((c) => c === "YAML_INVALID")).toEqual([]);
    expect(warningCodes(loose)).toContain("YAML_INVALID");
  });

  it("accepts tabs inside quoted text, block scalars and comments", () => {
    const text = md("name: s", 'description: "a\tb"', "compatibility: |", "  x\ty", "# a\tcomment");
    expect(check(text, true)).toEqual({ valid: true, diagnostics: [] });
  });

  it("treats keys equal as written (1 and '1') as duplicates in both modes", () => {
    const text = md("name: s", "description: d", "metadata:", "  1: a", '  "1": b');
    expect(errorCodes(check(text, false))).toEqual(["YAML_INVALID"]);
  });

  it("with --strict judges the file as written: no colon retry, no BOM or blank-line tolerance", () => {
    expect(errorCodes(check(md("name: s", "description: Use when: x"), true))).toEqual(["YAML_INVALID"]);
    expect(errorCodes(check(`\uFEFF${md("name: s", "description: d")}`, true))).toEqual(["FRONTMATTER_MISSING"]);
    expect(errorCodes(check(`\n${md("name: s", "description: d")}`, true))).toEqual(["FRONTMATTER_MISSING"]);
  });

  it("without --strict reads what list reads: the colon repair, a BOM and blank lines are warnings", () => {
    const colon = check(md("name: s", "description: Use when: the changelog needs release notes"), false);
    expect(colon.valid).toBe(true);
    expect(colon.diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([["YAML_UNQUOTED_COLON", "warning", 3]]);
    const blank = check(
      `\n\n${md("name: s", "description: Drafts release notes from merged pull requests", "metadata: {a: b}")}`,
      false,
    );
    expect(blank.valid).toBe(true);
    // Lines stay the file's: the flow mapping is on line 6 of the file.
    expect(blank.diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([
      ["FRONTMATTER_MISSING", "warning", 1],
      ["YAML_INVALID", "warning", 6],
    ]);
  });

  it("cuts the block at the first '---' as the reference does, and warns", () => {
    const text = md("name: s", "description: a --- b: c");
    const result = check(text, true);
    // The reference reads "description: a " and stays valid.
    expect(result.valid).toBe(true);
    expect(warningCodes(result)).toEqual(["FRONTMATTER_CLOSED_EARLY"]);
    expect(result.diagnostics[0]?.line).toBe(3);
  });

  it("reads scalars as written: name 123 and true", () => {
    expect(validateSkillMd(md("name: 123", "description: 42"), { dirName: "123", strict: true }).valid).toBe(true);
    expect(validateSkillMd(md("name: true", "description: d"), { dirName: "true", strict: true }).valid).toBe(true);
    expect(errorCodes(validateSkillMd(md("name: ~", "description: d"), { dirName: "s", strict: true }))).toEqual([
      "NAME_INVALID_CHARS",
      "NAME_DIR_MISMATCH",
    ]);
  });

  it("counts code points, not UTF-16 units", () => {
    const emoji = "😀".repeat(1000);
    expect(check(md("name: s", `description: "${emoji}"`), true).valid).toBe(true);
    expect(errorCodes(check(md("name: s", `description: "${emoji}${"😀".repeat(25)}"`), true))).toEqual([
      "DESCRIPTION_TOO_LONG",
    ]);
  });

  it("strips and NFKC-normalises the name, Python style", () => {
    // Full-width letters fold to ASCII under NFKC; U+3000 is whitespace for Python's strip.
    expect(validateSkillMd(md("name: \u3000ｓ\u3000", "description: d"), { dirName: "s" }).valid).toBe(true);
    expect(errorCodes(validateSkillMd(md(`name: ${"é".repeat(65)}`, "description: d"), { strict: true }))).toEqual([
      "NAME_TOO_LONG",
    ]);
  });

  it("rejects combining marks that NFKC cannot compose (not alphanumeric in Python)", () => {
    // Devanagari vowel sign (Mc) is neither \p{L} nor \p{N}.
    expect(errorCodes(validateSkillMd(md("name: हिन्दी", "description: d"), { strict: true }))).toEqual([
      "NAME_INVALID_CHARS",
    ]);
    // Letter-numbers (Nl) and other numbers (No) count as digits, as in Python.
    expect(validateSkillMd(md("name: ⅻ", "description: d"), {}).valid).toBe(true);
  });

  it("an empty value is an empty string", () => {
    expect(errorCodes(check(md("name:", "description:"), true))).toEqual(["NAME_EMPTY", "DESCRIPTION_EMPTY"]);
  });
});
