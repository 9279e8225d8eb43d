import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { Skill } from "@skillctx/core";
import { unreadSkillFolders } from "./unread-skill-folders.js";

const cwd = path.resolve("/r");
const file = (relative: string) => path.join(cwd, relative);

describe("unreadSkillFolders", () => {
  it("names at most 20 folders and counts the rest in one more note, in code-point order", () => {
    const files = Array.from({ length: 25 }, (_, i) => file(`pkg${String(i).padStart(2, "0")}/skills/x/SKILL.md`));
    const notes = unreadSkillFolders(files, [], [], cwd);
    expect(notes).toHaveLength(21);
    expect(notes[0]!.message).toMatch(/^a SKILL\.md under pkg00\/skills\/ not loaded/);
    expect(notes[19]!.message).toMatch(/^a SKILL\.md under pkg19\/skills\//);
    expect(notes[20]!.message).toBe("SKILL.md files under 5 more folders not loaded either");
    expect(notes.every((n) => n.code === "SKILL_FOLDER_UNREAD" && n.severity === "info")).toBe(true);
  });

  it("skips a loaded skill's file and resources, and files a diagnostic already names", () => {
    const skill = {
      name: "a",
      content: "",
      source: { kind: "file", format: "skill-md", scope: "project", path: file(".claude/skills/a/SKILL.md") },
      trigger: { type: "on-demand" },
      metadata: {},
      dir: file(".claude/skills/a"),
    } as Skill;
    const notes = unreadSkillFolders(
      [file(".claude/skills/a/SKILL.md"), file(".claude/skills/a/deep/b/SKILL.md"), file(".x/skills/bad/SKILL.md")],
      [skill],
      [{ code: "FRONTMATTER_UNCLOSED", severity: "error", message: "m", path: file(".x/skills/bad/SKILL.md") }],
      cwd,
    );
    expect(notes).toEqual([]);
  });
});
