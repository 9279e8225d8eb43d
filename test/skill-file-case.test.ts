/**
 * A skill file in another case (`skill.MD`, `Skill.md`) names the skill after its folder, as OpenHands finds
 * it (OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/context/skills/skill.py `find_skill_md`, and
 * its test `test_find_skill_md`: "skill.MD" is found, case-insensitively). The folder's other files are its
 * resources, never legacy skills; `validate` checks the same file list reads.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSkillCache, discoverSkills, validateSkill } from "@skillctx/core";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";

const tempDir = useTempDirs("skill-file-case");

describe("a skill file in another case", () => {
  it("names the skill after its folder; the folder's other .md files are its resources", async () => {
    const repo = await tempDir();
    const skills = path.join(repo, ".openhands/skills");
    await put(path.join(skills, "pdf-tools"), "skill.MD", "---\ndescription: Works with PDF files.\n---\nBody.\n");
    await put(path.join(skills, "pdf-tools"), "guide.md", "# A reference page of the skill\n");
    await put(path.join(skills, "pdf-tools/nested"), "SKILL.md", "---\nname: nested\ndescription: inside\n---\n");
    await put(path.join(skills, "Review"), "Skill.md", "---\nname: review\ndescription: Reviews.\n---\nBody.\n");
    const { skills: found, diagnostics } = await discoverSkills({ cwd: repo, cache: createSkillCache() });
    expect(found.map((s) => [s.name, s.source.format, path.relative(repo, s.source.path ?? "")])).toEqual([
      ["pdf-tools", "skill-md", path.join(".openhands/skills/pdf-tools/skill.MD")],
      ["review", "skill-md", path.join(".openhands/skills/Review/Skill.md")],
    ]);
    expect(found[0]?.description).toBe("Works with PDF files.");
    // The name comes from the folder, with the loader's warning; "review" in the folder "Review" gets the
    // load-time info note that a name differs from its folder (the Agent Skills rule); nothing else is said.
    expect(diagnostics.map((d) => [d.code, d.severity]).sort()).toEqual([
      ["NAME_DIR_MISMATCH", "info"],
      ["NAME_MISSING", "warning"],
    ]);
    const checked = await validateSkill(path.join(skills, "pdf-tools"));
    expect(checked.diagnostics.map((d) => [d.code, d.severity])).toEqual([["NAME_MISSING", "warning"]]);
  });
});
