/**
 * Home is never a project (issue 35, item 4). A service or a cron job starts in `$HOME`; the break:
 * `list --no-user`, `build --no-user` and the library default read the home's `~/.claude/skills`,
 * `~/.agents/skills`, `~/.claude/CLAUDE.md` and `~/.claude/commands` labelled "project". Now the home
 * folder's files are the user's own: read only when user files are asked for, and then labelled user.
 * The folders are the agents' user-level locations: Claude Code's `~/.claude/skills`, `~/.claude/CLAUDE.md`
 * and `~/.claude/commands` (https://docs.claude.com/en/docs/claude-code/skills,
 * https://docs.claude.com/en/docs/claude-code/memory, https://docs.claude.com/en/docs/claude-code/slash-commands),
 * Codex's `~/.agents/skills` (https://developers.openai.com/codex/skills). Runs the BUILT CLI with a temporary HOME.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { discoverSkills } from "../../packages/core/src/discover-skills.js";
import { useTempDirs } from "../../packages/core/src/testing/temp-dir.js";
import { loadCommands } from "../../packages/compat/src/load-commands.js";
import { loadGuidance } from "../../packages/compat/src/load-guidance.js";
import { assertBuilt, cliJson, runCli } from "../helpers/cli.js";

const tempDir = useTempDirs("adv-home");
beforeAll(assertBuilt);

// A home with a skill in each user skill folder, user guidance and a user command.
async function home(): Promise<string> {
  const dir = await tempDir();
  const put = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), text);
  };
  put(".claude/skills/homeskill/SKILL.md", "---\nname: homeskill\ndescription: Home skill.\n---\nBody\n");
  put(".agents/skills/agentskill/SKILL.md", "---\nname: agentskill\ndescription: Agents skill.\n---\nBody\n");
  put(".claude/CLAUDE.md", "HOME GUIDANCE\n");
  put(".claude/commands/deploy.md", "Deploy it.\n");
  put("notes/CLAUDE.md", "NESTED IN HOME\n");
  return dir;
}

type Listed = { skills: Array<{ name: string; scope: string }> };

describe("home is never a project", () => {
  it("`list --no-user` and `build --no-user` with cwd = HOME, or a folder in it with no project root, read none of the home's files", async () => {
    const dir = await home();
    mkdirSync(path.join(dir, "scratch"));
    for (const cwd of [dir, path.join(dir, "scratch")]) {
      const listed = await runCli(["list", "--cwd", cwd, "--no-user", "--json"], { home: dir, cwd });
      expect(listed.code, listed.stderr).toBe(0);
      expect(cliJson<Listed>(listed.stdout).skills).toEqual([]);
      const built = await runCli(["build", "--cwd", cwd, "--no-user", "-m", "hello", "--json"], { home: dir, cwd });
      expect(built.code, built.stderr).toBe(0);
      for (const marker of ["HOME GUIDANCE", "NESTED IN HOME", "Home skill.", "Agents skill.", "/deploy"])
        expect(built.stdout, `${cwd}: ${marker}`).not.toContain(marker);
    }
  });

  it("with user files asked for (`list --user`), the home's skills, guidance and commands are there, labelled user", async () => {
    const dir = await home();
    const listed = await runCli(["list", "--cwd", dir, "--user", "--json"], { home: dir, cwd: dir });
    expect(listed.code, listed.stderr).toBe(0);
    const skills = cliJson<Listed>(listed.stdout).skills;
    expect(skills.filter((s) => s.scope === "project")).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(expect.arrayContaining(["homeskill", "agentskill"]));
  });

  it("the library default (discoverSkills, loadGuidance, loadCommands) with cwd = home reads no project file there", async () => {
    const dir = await home();
    const found = await discoverSkills({ cwd: dir, homeDir: dir });
    expect(found.skills.map((s) => s.name)).toEqual([]);
    const guidance = await loadGuidance(dir, { homeDir: dir });
    expect(guidance.skills.map((s) => s.source.path)).toEqual([]);
    const commands = await loadCommands(dir, { homeDir: dir });
    expect(commands.skills.map((s) => s.name)).toEqual([]);
    // Asked for, the user's guidance and commands are there, as user files.
    const userGuidance = await loadGuidance(dir, { homeDir: dir, userGuidance: true });
    expect(userGuidance.skills.map((s) => s.source.scope)).toEqual(["user"]);
    const userCommands = await loadCommands(dir, { homeDir: dir, userCommands: true });
    expect(userCommands.skills.map((s) => [s.name, s.source.scope])).toEqual([["deploy", "user"]]);
    const asked = await discoverSkills({ cwd: dir, homeDir: dir, userSkills: true });
    expect(asked.skills.map((s) => [s.name, s.source.scope]).sort()).toEqual([
      ["agentskill", "user"],
      ["homeskill", "user"],
    ]);
  });
});
