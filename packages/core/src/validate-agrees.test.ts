/**
 * Lenient `validate` is list's verdict (docs/decisions.md "Lenient validate is list's verdict"): a skill that
 * the loader reads with warnings only is never failed without `--strict`, except for what the loader reads
 * wrongly without a word (a misspelt field, a wrong type). `--strict` keeps the reference validator's errors
 * (agentskills/agentskills skills-ref `validator.py`).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createSkillCache } from "./skill-cache.js";
import { loadSkills } from "./load-skills.js";
import { validateSkill } from "./validate.js";
import { put, useTempDirs } from "./testing/temp-dir.js";

const fixtures = fileURLToPath(new URL("../../../fixtures/validate/", import.meta.url));
const tempDir = useTempDirs("validate-agrees");
const errorsOf = (r: { diagnostics: { code: string; severity: string }[] }) =>
  r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
// What list reads without a word but not as its author meant: validate's own errors, in both modes.
const SILENT_MISREADS = new Set(["FIELD_MISSPELLED", "FIELD_TYPE_INVALID"]);

describe("lenient validate agrees with list", () => {
  const folders = readdirSync(fixtures).filter((f) => !f.endsWith(".txt"));
  it.each(folders)("%s: loaded by list with warnings only → no lenient error", async (folder) => {
    const dir = path.join(fixtures, folder);
    const listed = await loadSkills([dir], { cache: createSkillCache() });
    const loadedCleanly = listed.skills.length === 1 && !listed.diagnostics.some((d) => d.severity === "error");
    const checked = await validateSkill(dir);
    const errors = errorsOf(checked).filter((c) => !SILENT_MISREADS.has(c));
    if (loadedCleanly) expect(errors).toEqual([]);
    // And the other way: what list refuses, or reports as an error, validate fails too.
    else expect(checked.valid).toBe(false);
  });

  it.each([
    ["no name", "description: Does things.", "NAME_MISSING"],
    ["an extra field (author)", "name: my-skill\ndescription: Does things.\nauthor: someone", "UNEXPECTED_FIELDS"],
    ["a Title Case name", "name: My Skill\ndescription: Does things.", "NAME_NOT_LOWERCASE"],
    ["a name that differs from its folder", "name: other-name\ndescription: Does things.", "NAME_DIR_MISMATCH"],
    ["an unquoted colon list recovers", "name: my-skill\ndescription: Use when: asked", undefined],
  ])("%s: a warning without --strict, the spec's error with it", async (_what, frontmatter, strictCode) => {
    const root = await tempDir();
    const dir = path.join(root, "my-skill");
    await put(dir, "SKILL.md", `---\n${frontmatter}\n---\nBody.\n`);
    const listed = await loadSkills([dir], { cache: createSkillCache() });
    expect(listed.skills).toHaveLength(1);
    const lenient = await validateSkill(dir);
    expect(lenient.valid).toBe(true);
    expect(lenient.diagnostics.some((d) => d.severity === "warning")).toBe(true);
    const strict = await validateSkill(dir, { strict: true });
    expect(strict.valid).toBe(false);
    expect(errorsOf(strict)).toContain(strictCode ?? "YAML_INVALID");
  });
});
