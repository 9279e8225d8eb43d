import { describe, expect, it } from "vitest";
import { safeParseSkill } from "./parse-skill.js";

// Load-time rules, as deepagents' loader applies them (langchain-ai/deepagents
// libs/deepagents/deepagents/middleware/skills.py `_parse_skill_metadata`: warn about the name and keep it,
// cut `compatibility` past 500 characters with a warning). docs/conventions.md, "Load-time name rules".
const md = (...lines: string[]) => `---\n${lines.join("\n")}\n---\n# Body\n`;
const codes = (r: ReturnType<typeof safeParseSkill>) =>
  r.ok ? r.diagnostics.map((d) => [d.code, d.severity, d.line]) : [["refused", r.error.code]];

describe("name rules at load time", () => {
  it("a name that differs from its folder loads under its own name, with an info note", () => {
    const r = safeParseSkill(md("name: pdf", "description: Reads PDF files"), { path: "/s/pdf-tools/SKILL.md" });
    expect(r.ok && r.skill.name).toBe("pdf");
    expect(codes(r)).toEqual([["NAME_DIR_MISMATCH", "info", 2]]);
  });

  it("a name that breaks the rules is a warning and keeps the name as written", () => {
    const r = safeParseSkill(md("name: My--Skill", "description: Does things"), { path: "/s/My--Skill/SKILL.md" });
    expect(r.ok && r.skill.name).toBe("My--Skill");
    expect(codes(r)).toEqual([
      ["NAME_NOT_LOWERCASE", "warning", 2],
      ["NAME_CONSECUTIVE_HYPHENS", "warning", 2],
    ]);
  });

  it("a name derived from the folder, a legacy file and a conforming name get none of these", () => {
    expect(codes(safeParseSkill(md("description: d"), { path: "/s/Some_Folder/SKILL.md" }))).toEqual([
      ["NAME_MISSING", "warning", undefined],
    ]);
    expect(codes(safeParseSkill(md("name: Python Tips"), { path: "/r/.openhands/microagents/python.md" }))).toEqual([]);
    expect(codes(safeParseSkill(md("name: pdf", "description: d"), { path: "/s/pdf/SKILL.md" }))).toEqual([]);
    // No path: no folder to compare with.
    expect(codes(safeParseSkill(md("name: pdf", "description: d")))).toEqual([]);
  });
});

describe("compatibility over 500 characters", () => {
  it("is cut to 500 code points with a warning; 500 exactly is kept whole", () => {
    const long = "é".repeat(600);
    const r = safeParseSkill(md("name: pdf", "description: d", `compatibility: ${long}`), { path: "/s/pdf/SKILL.md" });
    if (!r.ok) throw r.error;
    expect(r.skill.compatibility).toBe("é".repeat(500));
    expect(codes(r)).toEqual([["COMPATIBILITY_TOO_LONG", "warning", 4]]);
    expect(r.diagnostics[0]!.message).toContain("600 characters");
    // Astral characters count once each (Python's len), as the specification's validator counts them.
    const astral = "😀".repeat(500);
    const exact = safeParseSkill(md("name: pdf", "description: d", `compatibility: ${astral}`), {
      path: "/s/pdf/SKILL.md",
    });
    if (!exact.ok) throw exact.error;
    expect(exact.skill.compatibility).toBe(astral);
    expect(exact.diagnostics).toEqual([]);
  });
});
