/**
 * Names as Gemini CLI reads them (google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts):
 * its fallback line reader `parseSimpleFrontmatter` takes `name:no-space-name` when js-yaml rejects the
 * block, and `loadSkillFromFile` sanitises `:` in a name to `-`. In skillctx `:` also separates an
 * origin from a name (`<origin>:<name>`), so a written `:` is read as `-` with a `NAME_COLON` warning.
 */
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "./frontmatter.js";
import { safeParseSkill } from "./parse-skill.js";
import { validateSkillMd } from "./validate.js";

const md = (...lines: string[]) => `---\n${lines.join("\n")}\n---\nBody.\n`;
const codes = (d: { code: string; severity: string; line?: number }[]) => d.map((x) => [x.code, x.severity, x.line]);

describe("a key with no space after its colon (Gemini CLI's parseSimpleFrontmatter)", () => {
  it("reads name:no-space-name as the name, with a YAML_KEY_NO_SPACE warning on its line", () => {
    const read = parseFrontmatter(md("description: Checks things", "name:no-space-name"), { path: "/s/x/SKILL.md" });
    expect(read.data).toEqual({ description: "Checks things", name: "no-space-name" });
    expect(read.body).toBe("Body.\n");
    expect(codes(read.diagnostics)).toEqual([["YAML_KEY_NO_SPACE", "warning", 3]]);
  });

  it("names the skill after the field, not its folder, and keeps the other fields", () => {
    const result = safeParseSkill(md("name:no-space-name", "description:Reads the logs", "license: MIT"), {
      path: "/s/folder/SKILL.md",
    });
    if (!result.ok) throw result.error;
    expect(result.skill.name).toBe("no-space-name");
    expect(result.skill.description).toBe("Reads the logs");
    expect(result.diagnostics.filter((d) => d.code === "YAML_KEY_NO_SPACE")).toHaveLength(2);
    expect(result.diagnostics.some((d) => d.code === "NAME_MISSING")).toBe(false);
  });

  it("leaves a valid block alone and does not repair other keys or indented lines", () => {
    expect(parseFrontmatter(md("name: a", "description: d")).diagnostics).toEqual([]);
    // `license:MIT` is not a key Gemini CLI's reader takes: the block stays broken.
    const other = parseFrontmatter(md("name: a", "description: d", "license:MIT"));
    expect(other.data).toBeUndefined();
    expect(other.diagnostics.map((d) => d.code)).toEqual(["YAML_INVALID"]);
  });

  it("can never add a key: the value becomes one quoted string", () => {
    const read = parseFrontmatter(md("name:a, evil: x: \\ y", "description: d"));
    expect(read.data).toEqual({ name: "a, evil: x: \\ y", description: "d" });
  });

  it("lenient validate reports the same repair and a valid skill; --strict keeps the YAML error", () => {
    const text = md("name:no-space-name", "description: Reads the service logs when a deploy fails.");
    const lenient = validateSkillMd(text, { dirName: "no-space-name" });
    expect(lenient.valid).toBe(true);
    expect(codes(lenient.diagnostics)).toEqual([["YAML_KEY_NO_SPACE", "warning", 2]]);
    const strict = validateSkillMd(text, { dirName: "no-space-name", strict: true });
    expect(strict.valid).toBe(false);
    expect(strict.diagnostics.map((d) => d.code)).toContain("YAML_INVALID");
  });
});

describe("a ':' in a name (Gemini CLI sanitises it; skillctx's qualifier separator)", () => {
  it("keeps the skill, reads name: gke:prs-troubleshooter as gke-prs-troubleshooter, warns NAME_COLON", () => {
    const result = safeParseSkill(md("name: gke:prs-troubleshooter", "description: Troubleshoots PRs"), {
      path: "/s/gke-prs-troubleshooter/SKILL.md",
    });
    if (!result.ok) throw result.error;
    expect(result.skill.name).toBe("gke-prs-troubleshooter");
    expect(codes(result.diagnostics)).toEqual([["NAME_COLON", "warning", 2]]);
    expect(result.diagnostics[0]!.message).toContain("'gke:prs-troubleshooter'");
  });

  it("replaces every ':' and leaves names without one untouched", () => {
    const many = safeParseSkill(md("name: a:b:c", "description: d"), { path: "/s/a/SKILL.md" });
    if (!many.ok) throw many.error;
    expect(many.skill.name).toBe("a-b-c");
    const plain = safeParseSkill(md("name: a-b", "description: d"), { path: "/s/a-b/SKILL.md" });
    if (!plain.ok) throw plain.error;
    expect(plain.skill.name).toBe("a-b");
    expect(plain.diagnostics).toEqual([]);
  });
});
