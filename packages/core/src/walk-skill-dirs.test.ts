import { describe, expect, it } from "vitest";
import { skipsSkillSearch } from "./walk-skill-dirs.js";

describe("skipsSkillSearch: the one rule for folders a skill-folder search does not enter", () => {
  it("discovery skips every dot-folder and node_modules, and enters the rest", () => {
    for (const name of [".git", ".venv", ".claude", ".agents", "node_modules"]) {
      expect(skipsSkillSearch(name, "skip"), name).toBe(true);
    }
    for (const name of ["skills", "pdf", "a.b", "node_modules2"])
      expect(skipsSkillSearch(name, "skip"), name).toBe(false);
  });

  it("a fetched source enters dot-folders (skills live under .claude/skills) but never .git or node_modules", () => {
    for (const name of [".claude", ".agents", ".github", ".venv"])
      expect(skipsSkillSearch(name, "search"), name).toBe(false);
    expect(skipsSkillSearch(".git", "search")).toBe(true);
    expect(skipsSkillSearch("node_modules", "search")).toBe(true);
  });
});
