/**
 * Parsing semantics that users of the peers (Strands, OpenHands, Claude Code, the Agent Skills
 * validators) expect: empty and null `allowed-tools`, the `allowed_tools` alias, names of legacy files,
 * files that are not skills, over-long descriptions, and names written with spaces.
 */

import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "./catalog.js";
import { compareCodePoints } from "./code-point-order.js";
import { loadSkills } from "./load-skills.js";
import { parseSkill, safeParseSkill } from "./parse-skill.js";
import { withoutSuffix } from "./skill-naming.js";
import { createSkillCache } from "./skill-cache.js";
import { SkillSchema } from "./schemas.js";
import { validateSkillMd } from "./validate.js";
import { useTempDirs } from "./testing/temp-dir.js";

const md = (...lines: string[]) => `---\n${lines.join("\n")}\n---\nBody.\n`;
const parsed = (text: string, options: Parameters<typeof safeParseSkill>[1] = {}) => {
  const result = safeParseSkill(text, options);
  if (!result.ok) throw result.error;
  expect(SkillSchema.parse(result.skill)).toEqual(result.skill);
  return result;
};
const codes = (result: { diagnostics: { code: string }[] }) => result.diagnostics.map((d) => d.code);

describe("allowed-tools: empty means no restriction (Strands, Claude Code)", () => {
  it.each([
    ["an empty value", "allowed-tools:"],
    ["an empty string", 'allowed-tools: ""'],
    ["a blank string", "allowed-tools: '   '"],
    ["null", "allowed-tools: null"],
    ["~", "allowed-tools: ~"],
    ["an empty flow list", "allowed-tools: []"],
    ["a list of nulls", "allowed-tools:\n  - null\n  - ~\n  -"],
  ])("%s leaves allowedTools undefined, with a warning on its line", (_label, line) => {
    const result = parsed(md("name: a", "description: d", line));
    expect(result.skill.allowedTools).toBeUndefined();
    expect(result.skill.extra).toBeUndefined();
    const warning = result.diagnostics.find((d) => d.code === "ALLOWED_TOOLS_EMPTY");
    expect(warning).toMatchObject({ severity: "warning", line: 4 });
    expect(warning!.message).toContain("no tool restriction");
  });

  it("a quoted 'null' is a tool name, not a null", () => {
    const result = parsed(md("name: a", "description: d", 'allowed-tools: "null"'));
    expect(result.skill.allowedTools).toEqual(["null"]);
    expect(codes(result)).toEqual([]);
  });

  it("drops null entries of a list, with one warning, and keeps the rest", () => {
    const result = parsed(
      md("name: a", "description: d", "allowed-tools:", "  - Read", "  - null", "  - ~", '  - "null"', "  - Grep"),
    );
    expect(result.skill.allowedTools).toEqual(["Read", "null", "Grep"]);
    expect(codes(result)).toEqual(["ALLOWED_TOOLS_NULL"]);
    expect(result.diagnostics[0]!.message).toContain("2 null entries");
    // The same in flow style (the full YAML path).
    const flow = parsed(md("name: a", "description: d", "allowed-tools: [Read, null, Grep]"));
    expect(flow.skill.allowedTools).toEqual(["Read", "Grep"]);
    expect(codes(flow)).toEqual(["ALLOWED_TOOLS_NULL"]);
  });

  it("accepts allowed_tools as an alias, string or list", () => {
    expect(parsed(md("name: a", "description: d", "allowed_tools: Read Grep")).skill.allowedTools).toEqual([
      "Read",
      "Grep",
    ]);
    const list = parsed(md("name: a", "description: d", "allowed_tools:", "  - Read"));
    expect(list.skill.allowedTools).toEqual(["Read"]);
    expect(list.skill.extra).toBeUndefined();
    expect(codes(list)).toEqual([]);
    const empty = parsed(md("name: a", "description: d", "allowed_tools: ''"));
    expect(empty.skill.allowedTools).toBeUndefined();
    expect(codes(empty)).toEqual(["ALLOWED_TOOLS_EMPTY"]);
  });

  it("prefers allowed-tools when both are given, and says so", () => {
    const result = parsed(md("name: a", "description: d", "allowed-tools: Read", "allowed_tools: Bash"));
    expect(result.skill.allowedTools).toEqual(["Read"]);
    expect(result.skill.extra).toEqual({ allowed_tools: "Bash" });
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([["FIELD_CONFLICT", 5]]);
  });

  it("a mapping is no restriction either, kept in extra with a warning", () => {
    const result = parsed(md("name: a", "description: d", "allowed-tools:", "  Read: yes"));
    expect(result.skill.allowedTools).toBeUndefined();
    expect(result.skill.extra).toEqual({ "allowed-tools": { Read: "yes" } });
    expect(codes(result)).toEqual(["FIELD_INVALID"]);
  });
});

describe("legacy names: a leading dot is not an extension (OpenHands: PurePath.with_suffix(''))", () => {
  it.each([
    [".openhands_instructions", ".openhands_instructions"],
    ["sub/.openhands_instructions", "sub/.openhands_instructions"],
    ["a/.b.md", "a/.b"],
    ["a/b.c.md", "a/b.c"],
    ["x.md", "x"],
    ["trailing.", "trailing."],
    ["..md", "..md"],
    ["...", "..."],
  ])("%s → %s", (rel, name) => {
    expect(withoutSuffix(rel)).toBe(name);
    const root = "/repo/.openhands/microagents";
    expect(parseSkill("Follow the house style.\n", { path: path.join(root, rel), root }).name).toBe(name);
  });

  it("names a lone .openhands_instructions after itself, with no root", () => {
    const skill = parseSkill("Be careful.\n", { path: "/repo/.openhands_instructions" });
    expect(skill).toMatchObject({
      name: ".openhands_instructions",
      trigger: { type: "always" },
      content: "Be careful.\n",
    });
  });
});

describe("files that are not skills", () => {
  it("a SKILL.md whose frontmatter never closes is FRONTMATTER_UNCLOSED, with the fence's line", () => {
    const result = safeParseSkill("\n---\nname: a\ndescription: secret instructions\n# Body\n", {
      path: "/s/a/SKILL.md",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "FRONTMATTER_UNCLOSED", path: "/s/a/SKILL.md", line: 2 });
  });

  it("a legacy file whose frontmatter is broken YAML is YAML_INVALID, with the line of the error", () => {
    const result = safeParseSkill("---\ntriggers: [a\nname: x\n---\nAlways-on text\n", {
      path: "/r/skills/x.md",
      root: "/r/skills",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("YAML_INVALID");
    expect(result.error.line).toBeGreaterThanOrEqual(2);
    expect(result.error.message).toContain("not a skill");
  });

  it("a legacy file with an unclosed block is still read whole, as OpenHands reads it (warning)", () => {
    const result = parsed("---\nJust a rule line, then prose.\n", { path: "/r/skills/x.md", root: "/r/skills" });
    expect(result.skill.content).toBe("---\nJust a rule line, then prose.\n");
    expect(codes(result)).toEqual(["FRONTMATTER_UNCLOSED"]);
  });

  it("a block longer than the cap is FRONTMATTER_TOO_LARGE for both formats", () => {
    const text = `---\nname: a\ndescription: ${"x".repeat(2000)}\n---\nbody\n`;
    for (const file of ["/s/a/SKILL.md", "/s/a.md"]) {
      const result = safeParseSkill(text, { path: file, maxFrontmatterChars: 1000 });
      expect(!result.ok && result.error.code, file).toBe("FRONTMATTER_TOO_LARGE");
      expect(!result.ok && result.error.line, file).toBe(1);
    }
    expect(parsed(text, { path: "/s/a/SKILL.md" }).skill.name).toBe("a");
  });

  it("loadSkills reports the bad files as errors and still loads their siblings", async () => {
    const dir = await tempDir({
      "good/SKILL.md": md("name: good", "description: A good skill"),
      "unclosed/SKILL.md":
        "---\nname: unclosed\ndescription: Never closed\n\nBody that must not become a description.\n",
      "legacy-good.md": "---\ntriggers: [deploy]\n---\nDeploy with care.\n",
      "legacy-bad.md": "---\ntriggers: [deploy\n---\nThis must not reach every system prompt.\n",
    });
    const { skills, diagnostics } = await loadSkills([dir], { cache: createSkillCache() });
    expect(skills.map((s) => s.name)).toEqual(["good", "legacy-good"]);
    const errors = diagnostics
      .filter((d) => d.severity === "error")
      .map((d) => [d.code, path.relative(dir, d.path ?? "")]);
    expect(errors.sort((a, b) => compareCodePoints(a[1]!, b[1]!))).toEqual([
      ["YAML_INVALID", "legacy-bad.md"],
      ["FRONTMATTER_UNCLOSED", "unclosed/SKILL.md"],
    ]);
    expect(buildCatalog(skills).text).not.toContain("Never closed");
  });
});

describe("descriptions over the Agent Skills limit (1,024)", () => {
  const long = "word ".repeat(300).trim(); // 1,499 characters

  it("are kept whole on the skill, warned about at load, and cut with … in the catalog", () => {
    const result = parsed(md("name: a", `description: ${long}`));
    expect(result.skill.description).toBe(long);
    expect(result.diagnostics).toMatchObject([{ code: "DESCRIPTION_TOO_LONG", severity: "warning", line: 3 }]);
    const text = buildCatalog([result.skill]).text;
    const shown = /<description>(.*)<\/description>/.exec(text)![1]!;
    expect([...shown]).toHaveLength(1024);
    expect(shown.endsWith("…")).toBe(true);
    expect(long.startsWith(shown.slice(0, -1).trimEnd())).toBe(true);
  });

  it("count code points, as the validator does: 1,024 emoji are not too long", () => {
    const emoji = "😀".repeat(1024);
    const result = parsed(md("name: a", `description: "${emoji}"`));
    expect(codes(result)).toEqual([]);
    expect(buildCatalog([result.skill], { format: "markdown" }).text).toBe(`- **a**: ${emoji}`);
    const over = parsed(md("name: a", `description: "${emoji}😀"`));
    expect(codes(over)).toEqual(["DESCRIPTION_TOO_LONG"]);
    expect(buildCatalog([over.skill], { format: "markdown" }).text).toBe(`- **a**: ${"😀".repeat(1023)}…`);
  });

  it("keep the reference validator's error with --strict; without it, list's warning (it loads the skill)", () => {
    const strict = validateSkillMd(md("name: a", `description: ${long}`), { strict: true, dirName: "a" });
    expect(strict.valid).toBe(false);
    expect(strict.diagnostics.map((d) => [d.code, d.severity])).toEqual([["DESCRIPTION_TOO_LONG", "error"]]);
    const lenient = validateSkillMd(md("name: a", `description: ${long}`), { dirName: "a" });
    expect(lenient.valid).toBe(true);
    expect(lenient.diagnostics.map((d) => [d.code, d.severity])).toEqual([["DESCRIPTION_TOO_LONG", "warning"]]);
  });

  it("cut a body line standing in for a missing description", () => {
    const result = parsed(`---\ntriggers: [x]\n---\n${"y".repeat(5000)}\n`, { path: "/r/k.md", root: "/r" });
    expect([...result.skill.description!]).toHaveLength(1024);
    expect(result.skill.description!.endsWith("…")).toBe(true);
  });
});

describe("names written with spaces", () => {
  it("are trimmed, as the reference validator judges them (its name checks run on name.strip())", () => {
    const result = parsed(md('name: " foo "', "description: d"), { path: "/s/foo/SKILL.md" });
    expect(result.skill.name).toBe("foo");
    expect(codes(result)).toEqual([]);
    expect(validateSkillMd(md('name: " foo "', "description: d"), { strict: true, dirName: "foo" }).valid).toBe(true);
  });
});

const tempDir = useTempDirs("peers");
