/**
 * Issue 24, class 2 and class 10: the skill folders other agents read, found where they find them.
 * Sources: Codex scans `.agents/skills` "in every directory from your current working directory up to
 * the repository root" (https://developers.openai.com/codex/skills) and takes a file cwd's folder
 * (openai/codex codex-rs/core/src/skills/loader.rs repo_skills_root); `project_root_markers`
 * (https://developers.openai.com/codex/config-reference); GitHub Copilot `.github/skills`
 * (https://docs.github.com/en/copilot/concepts/agents/about-agent-skills); Gemini CLI `.gemini/skills`
 * (google-gemini/gemini-cli packages/core/src/config/storage.ts getProjectSkillsDir); Cline
 * `.cline/skills` and `.clinerules/skills` (cline/cline apps/vscode/src/core/context/instructions/
 * user-instructions/__tests__/skills.test.ts).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSkills } from "./discover-skills.js";
import { HAS_GIT, useTempDirs } from "./testing/temp-dir.js";

const tempDir = useTempDirs("discover-peers");
const skillMd = (name: string) => `---\nname: ${name}\ndescription: ${name} skill\n---\nBody.\n`;
const names = (skills: Array<{ name: string }>) => skills.map((s) => s.name).sort();

describe("skill folders of other agents", () => {
  it("reads .github/skills, .gemini/skills, .cline/skills and .clinerules/skills at cwd", async () => {
    const repo = await tempDir({
      ".github/skills/copilot-skill/SKILL.md": skillMd("copilot-skill"),
      ".gemini/skills/gemini-skill/SKILL.md": skillMd("gemini-skill"),
      ".cline/skills/cline-skill/SKILL.md": skillMd("cline-skill"),
      ".clinerules/skills/clinerules-skill/SKILL.md": skillMd("clinerules-skill"),
    });
    const { skills, diagnostics } = await discoverSkills({ cwd: repo });
    expect(names(skills)).toEqual(["clinerules-skill", "cline-skill", "copilot-skill", "gemini-skill"].sort());
    expect(diagnostics).toEqual([]);
  });

  it("a .clinerules file (Cline's single-file rules) is no folder: .clinerules/skills is absent, not an error", async () => {
    // https://docs.cline.bot/features/cline-rules: `.clinerules` is a file or a folder.
    const repo = await tempDir({
      ".clinerules": "# Cline rules\nWrite tests.\n",
      ".cline/skills/cline-skill/SKILL.md": skillMd("cline-skill"),
    });
    const { skills, diagnostics } = await discoverSkills({ cwd: repo });
    expect(names(skills)).toEqual(["cline-skill"]);
    expect(diagnostics).toEqual([]);
  });

  it("a loose .md in a SKILL.md-only skill folder is no skill: one info SKILL_FILE_LOOSE names it", async () => {
    // Copilot and Claude Code load only <name>/SKILL.md folders there
    // (https://docs.github.com/en/copilot/concepts/agents/about-agent-skills,
    // https://code.claude.com/docs/en/skills); OpenHands reads loose .md files as legacy skills
    // (OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/context/skills/skill.py load_skills_from_dir).
    const loose = [
      ".agents/skills/notes.md",
      ".claude/skills/review.md",
      ".github/skills/issue-review.md",
      ".gemini/skills/g.md",
      ".cline/skills/c.md",
      ".claude/skills/group/deep.md",
    ];
    const repo = await tempDir({
      ...Object.fromEntries(loose.map((file) => [file, "Always do this.\n"])),
      ".claude/skills/real/SKILL.md": skillMd("real"),
      ".claude/skills/README.md": "# About these skills\n",
      ".openhands/microagents/legacy.md": "Legacy microagent.\n",
      ".openhands/skills/flat.md": "Flat OpenHands skill.\n",
    });
    const { skills, diagnostics } = await discoverSkills({ cwd: repo });
    expect(names(skills)).toEqual(["flat", "legacy", "real"]);
    const notes = diagnostics.filter((d) => d.code === "SKILL_FILE_LOOSE");
    expect(notes.map((d) => d.path).sort()).toEqual(loose.map((f) => path.join(repo, f)).sort());
    expect(notes.every((d) => d.severity === "info")).toBe(true);
    expect(diagnostics.filter((d) => d.code !== "SKILL_FILE_LOOSE")).toEqual([]);
  });

  it("user folders too: a loose ~/.claude/skills/x.md is no skill, ~/.openhands/skills/x.md is", async () => {
    const home = await tempDir({
      ".claude/skills/mine.md": "Mine.\n",
      ".openhands/skills/theirs.md": "Theirs.\n",
    });
    const repo = await tempDir({});
    const { skills, diagnostics } = await discoverSkills({ cwd: repo, homeDir: home, userSkills: true });
    expect(names(skills)).toEqual(["theirs"]);
    expect(diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["SKILL_FILE_LOOSE", path.join(home, ".claude/skills/mine.md")],
    ]);
  });

  it("opencode: .opencode/skills (and the older .opencode/skill), ~/.config/opencode/skills with user skills", async () => {
    // https://opencode.ai/docs/skills
    const repo = await tempDir({
      ".opencode/skills/local-explorer/SKILL.md": skillMd("local-explorer"),
      ".opencode/skill/old-style/SKILL.md": skillMd("old-style"),
    });
    const home = await tempDir({ ".config/opencode/skills/global-one/SKILL.md": skillMd("global-one") });
    const { skills, diagnostics } = await discoverSkills({ cwd: repo, homeDir: home, userSkills: true });
    expect(names(skills)).toEqual(["global-one", "local-explorer", "old-style"]);
    expect(diagnostics).toEqual([]);
  });

  it.runIf(HAS_GIT)(".agents/skills in every folder from cwd up to the root, the nearest winning a name", async () => {
    const repo = await tempDir({
      ".agents/skills/root/SKILL.md": skillMd("root"),
      "services/.agents/skills/between/SKILL.md": skillMd("between"),
      "services/.agents/skills/shared/SKILL.md": "---\nname: shared\ndescription: from services\n---\nx\n",
      "services/pay/.agents/skills/shared/SKILL.md": "---\nname: shared\ndescription: from cwd\n---\nx\n",
      // Only .agents/skills is searched between cwd and the root (Codex's rule), not .claude/skills.
      "services/.claude/skills/claude-between/SKILL.md": skillMd("claude-between"),
      "services/pay/src/index.ts": "export {};\n",
    });
    execFileSync("git", ["init", "--quiet", repo], { stdio: "ignore" });
    const cwd = path.join(repo, "services/pay");
    const { skills } = await discoverSkills({ cwd });
    expect(names(skills)).toEqual(["between", "root", "shared"]);
    expect(skills.find((s) => s.name === "shared")?.description).toBe("from cwd");
    // A cwd that is a file stands for its folder, as in Codex.
    const fromFile = await discoverSkills({ cwd: path.join(cwd, "src/index.ts") });
    expect(names(fromFile.skills)).toEqual(["between", "root", "shared"]);
    expect(fromFile.diagnostics.map((d) => d.code)).toEqual(["NAME_CLASH"]); // shared: cwd's wins, no READ_FAILED
  });

  it("configured root markers besides .git (Codex's project_root_markers); the default stays .git", async () => {
    const repo = await tempDir({
      ".hg/store": "",
      ".agents/skills/hg-root/SKILL.md": skillMd("hg-root"),
      "pkg/.agents/skills/pkg/SKILL.md": skillMd("pkg"),
    });
    const cwd = path.join(repo, "pkg");
    expect(names((await discoverSkills({ cwd })).skills)).toEqual(["pkg"]);
    expect(names((await discoverSkills({ cwd, rootMarkers: [".git", ".hg"] })).skills)).toEqual(["hg-root", "pkg"]);
    // `..` or a path is not a marker: a configuration cannot point the root elsewhere.
    expect(names((await discoverSkills({ cwd, rootMarkers: ["..", "../.hg"] })).skills)).toEqual(["pkg"]);
  });
});
