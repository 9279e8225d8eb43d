import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadSkillSet } from "../packages/engine/src/engine/skill-set.js";
import { useEngineFixture } from "./helpers/engine-fixture.js";

// A SKILL.md in a folder no skill source covers gets one info note per folder, from the guidance scan's
// own listing (git ls-files, or the walk): nothing is missed silently (issue 34; docs/conventions.md,
// "Not read"). `.foo/skills` and `.windsurf/skills` are not among the folders skillctx reads skills from.
const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill for tests.\n---\nBody.\n`;

describe("SKILL_FOLDER_UNREAD", () => {
  const fx = useEngineFixture();

  it("names each unread folder once, not the loaded skills, their resources or a refused file", async () => {
    const repo = await fx.repo({
      ".claude/skills/read/SKILL.md": skill("read"),
      // A SKILL.md inside a loaded skill's folder is one of its resources.
      ".claude/skills/read/examples/inner/SKILL.md": skill("inner"),
      ".foo/skills/x/SKILL.md": skill("x"),
      ".foo/skills/y/SKILL.md": skill("y"),
      ".windsurf/skills/w/SKILL.md": skill("w"),
      // Refused (unclosed frontmatter): already named by its own error.
      ".agents/skills/broken/SKILL.md": "---\nname: broken\n",
    });
    await promisify(execFile)("git", ["init", "-q", repo.dir]);
    const set = await loadSkillSet({ cwd: repo.dir });
    expect(set.skills.map((s) => s.name)).toContain("read");
    const unread = set.diagnostics.filter((d) => d.code === "SKILL_FOLDER_UNREAD");
    expect(unread.map((d) => [d.severity, d.message.split(" not loaded")[0]])).toEqual([
      ["info", "2 SKILL.md files under .foo/skills/"],
      ["info", "a SKILL.md under .windsurf/skills/"],
    ]);
    expect(unread[0]!.message).toContain("(e.g. .foo/skills/x/SKILL.md)");
  });

  it("outside a git work tree the walk finds them in ordinary folders; passing the folder as a source silences it", async () => {
    const repo = await fx.repo({ "docs/skills/pdf/SKILL.md": skill("pdf") });
    const plain = await loadSkillSet({ cwd: repo.dir });
    expect(plain.diagnostics.filter((d) => d.code === "SKILL_FOLDER_UNREAD").map((d) => d.message)).toEqual([
      expect.stringMatching(/^a SKILL\.md under docs\/skills\/ not loaded/),
    ]);
    const sourced = await loadSkillSet({ cwd: repo.dir, skills: ["docs/skills"] });
    expect(sourced.skills.map((s) => s.name)).toContain("pdf");
    expect(sourced.diagnostics.filter((d) => d.code === "SKILL_FOLDER_UNREAD")).toEqual([]);
  });
});
