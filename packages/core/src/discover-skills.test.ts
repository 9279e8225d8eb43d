import { execFileSync } from "node:child_process";
import { mkdir, rm, symlink, truncate, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverSkills, findGitRoot } from "./discover-skills.js";
import { createSkillCache } from "./skill-cache.js";
import type { Skill } from "./skill.js";
import { HAS_GIT, useTempDirs } from "./testing/temp-dir.js";
import { compareCodePoints } from "./code-point-order.js";

const tempDir = useTempDirs("discover");

const skillMd = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;
const summary = (skills: Skill[]) => skills.map((s) => `${s.name}|${s.source.scope}|${s.description}`);

function gitInit(dir: string): void {
  execFileSync("git", ["init", "--quiet", dir], { stdio: "ignore" });
}

describe("discoverSkills", () => {
  it.runIf(HAS_GIT)(
    "searches programmatic, then project (cwd before git root, folders in order), then user sources; the first name wins",
    async () => {
      const repo = await tempDir({
        // git root
        ".agents/skills/root-only/SKILL.md": skillMd("root-only", "git root, .agents"),
        ".agents/skills/cwd-vs-root/SKILL.md": skillMd("cwd-vs-root", "git root, .agents"),
        // cwd = packages/app
        "packages/app/.agents/skills/folders/SKILL.md": skillMd("folders", "cwd, .agents"),
        "packages/app/.claude/skills/folders/SKILL.md": skillMd("folders", "cwd, .claude"),
        "packages/app/.claude/skills/cwd-vs-root/SKILL.md": skillMd("cwd-vs-root", "cwd, .claude"),
        "packages/app/.openhands/skills/oh/SKILL.md": skillMd("oh", "cwd, .openhands/skills"),
        "packages/app/.openhands/microagents/repo.md":
          "---\nname: repo\ndescription: cwd, microagent\n---\nRepo notes.\n",
        "packages/app/.openhands/microagents/shadowed.md":
          "---\nname: shadowed\ndescription: cwd, microagent\n---\nx\n",
        "packages/app/extra/shadowed/SKILL.md": skillMd("shadowed", "programmatic path"),
      });
      gitInit(repo);
      const home = await tempDir({
        ".agents/skills/user-only/SKILL.md": skillMd("user-only", "home, .agents"),
        ".claude/skills/root-only/SKILL.md": skillMd("root-only", "home, .claude"),
        ".openhands/skills/user-oh/SKILL.md": skillMd("user-oh", "home, .openhands"),
      });
      const cwd = path.join(repo, "packages/app");
      const inline = {
        name: "folders",
        description: "programmatic object",
        content: "In code.",
        source: { kind: "inline" as const, format: "inline" as const, scope: "programmatic" as const },
        trigger: { type: "on-demand" as const },
      };
      const result = await discoverSkills({
        cwd,
        skills: [inline, "extra/shadowed"],
        userSkills: true,
        homeDir: home,
        cache: createSkillCache(),
      });
      expect(summary(result.skills)).toEqual([
        "cwd-vs-root|project|cwd, .claude",
        "folders|programmatic|programmatic object",
        "oh|project|cwd, .openhands/skills",
        "repo|project|cwd, microagent",
        "root-only|project|git root, .agents",
        "shadowed|programmatic|programmatic path",
        "user-oh|user|home, .openhands",
        "user-only|user|home, .agents",
      ]);
      const clashes = result.diagnostics.filter((d) => d.code === "NAME_CLASH");
      expect(clashes.map((d) => d.path)).toEqual([
        path.join(cwd, ".agents/skills/folders/SKILL.md"),
        path.join(cwd, ".claude/skills/folders/SKILL.md"),
        path.join(cwd, ".openhands/microagents/shadowed.md"),
        path.join(repo, ".agents/skills/cwd-vs-root/SKILL.md"),
        path.join(home, ".claude/skills/root-only/SKILL.md"),
      ]);
      expect(clashes[3]!.message).toContain(path.join(cwd, ".claude/skills/cwd-vs-root/SKILL.md"));
      expect(clashes[4]!.message).toContain(path.join(repo, ".agents/skills/root-only/SKILL.md"));
      expect(result.diagnostics.filter((d) => d.code !== "NAME_CLASH")).toEqual([]);
    },
  );

  it("leaves user folders out unless asked", async () => {
    const project = await tempDir({ ".agents/skills/p/SKILL.md": skillMd("p", "project") });
    const home = await tempDir({ ".agents/skills/u/SKILL.md": skillMd("u", "user") });
    const off = await discoverSkills({ cwd: project, homeDir: home, cache: createSkillCache() });
    expect(summary(off.skills)).toEqual(["p|project|project"]);
    const on = await discoverSkills({ cwd: project, homeDir: home, userSkills: true, cache: createSkillCache() });
    expect(summary(on.skills)).toEqual(["p|project|project", "u|user|user"]);
  });

  it("takes a list of user folders, expanding ~/ to the home folder", async () => {
    const project = await tempDir();
    const home = await tempDir({
      "my-skills/mine/SKILL.md": skillMd("mine", "listed"),
      ".agents/skills/default/SKILL.md": skillMd("default", "not listed"),
    });
    const result = await discoverSkills({
      cwd: project,
      homeDir: home,
      userSkills: ["~/my-skills", "~/missing"],
      cache: createSkillCache(),
    });
    expect(summary(result.skills)).toEqual(["mine|user|listed"]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: "PATH_NOT_FOUND", path: path.join(home, "missing") }),
    ]);
  });

  it.runIf(HAS_GIT)("searches a cwd that is its own git root once", async () => {
    const repo = await tempDir({ ".agents/skills/only/SKILL.md": skillMd("only", "once") });
    gitInit(repo);
    const result = await discoverSkills({ cwd: repo, cache: createSkillCache() });
    expect(summary(result.skills)).toEqual(["only|project|once"]);
    expect(result.diagnostics).toEqual([]);
  });

  it("counts a skill folder linked into two project folders once", async () => {
    const repo = await tempDir({ ".agents/skills/shared/SKILL.md": skillMd("shared", "linked") });
    await mkdir(path.join(repo, ".claude"));
    await symlink(path.join(repo, ".agents/skills"), path.join(repo, ".claude/skills"));
    const result = await discoverSkills({ cwd: repo, cache: createSkillCache() });
    expect(summary(result.skills)).toEqual(["shared|project|linked"]);
    expect(result.diagnostics).toEqual([]);
  });

  it("finds nothing, and says nothing, where there are no skill folders", async () => {
    const empty = await tempDir();
    expect(await discoverSkills({ cwd: empty, homeDir: empty, userSkills: true, cache: createSkillCache() })).toEqual({
      skills: [],
      diagnostics: [],
    });
  });
});

describe("discoverSkills: containment of project folders", () => {
  const secretText = "-----BEGIN OPENSSH PRIVATE KEY----- not really";

  async function attack() {
    const home = await tempDir({
      ".ssh/id_rsa": secretText,
      "shared-skills/shared/SKILL.md": skillMd("shared", "outside the project"),
    });
    const repo = await tempDir({
      ".openhands/microagents/good.md": "---\nname: good\ndescription: a sibling that loads\n---\nGood.\n",
      ".agents/skills/fine/SKILL.md": skillMd("fine", "inside"),
      ".agents/skills/evil/README.txt": "x",
    });
    gitInit(repo);
    await symlink(path.join(home, ".ssh/id_rsa"), path.join(repo, ".openhands/microagents/notes.md"));
    await symlink(path.join(home, ".ssh/id_rsa"), path.join(repo, ".agents/skills/evil/SKILL.md"));
    await symlink(path.join(home, "shared-skills"), path.join(repo, ".agents/skills/linked"));
    await symlink("/", path.join(repo, ".openhands/microagents/root"));
    return { home, repo };
  }

  it.runIf(HAS_GIT)(
    "reads nothing whose real path leaves the project root, says so, and still loads the siblings",
    async () => {
      const { home, repo } = await attack();
      const result = await discoverSkills({ cwd: repo, homeDir: home, cache: createSkillCache() });
      expect(result.skills.map((s) => s.name)).toEqual(["fine", "good"]);
      expect(JSON.stringify(result)).not.toContain("OPENSSH");
      const outside = result.diagnostics.filter((d) => d.code === "PATH_OUTSIDE_ROOT").map((d) => d.path);
      expect(outside.sort((a, b) => compareCodePoints(String(a), String(b)))).toEqual(
        [
          path.join(repo, ".agents/skills/evil/SKILL.md"),
          path.join(repo, ".agents/skills/linked"),
          path.join(repo, ".openhands/microagents/notes.md"),
          path.join(repo, ".openhands/microagents/root"),
        ].sort(compareCodePoints),
      );
      expect(result.diagnostics.every((d) => d.severity === "warning")).toBe(true);
    },
  );

  it.runIf(HAS_GIT)("refuses a project skill folder that is itself a symlink out of the project", async () => {
    const elsewhere = await tempDir({ "x/SKILL.md": skillMd("x", "elsewhere") });
    const repo = await tempDir();
    gitInit(repo);
    await mkdir(path.join(repo, ".claude"));
    await symlink(elsewhere, path.join(repo, ".claude/skills"));
    const result = await discoverSkills({ cwd: repo, homeDir: elsewhere, cache: createSkillCache() });
    expect(result.skills).toEqual([]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: "PATH_OUTSIDE_ROOT", path: path.join(repo, ".claude/skills") }),
    ]);
  });

  it.runIf(HAS_GIT)(
    "follows them when the caller trusts the user scope explicitly, and always in user folders",
    async () => {
      const { home, repo } = await attack();
      await rm(path.join(repo, ".openhands/microagents/root")); // a walk of / is bounded, but slow for a unit test
      const trusted = await discoverSkills({
        cwd: repo,
        homeDir: home,
        trust: { user: true },
        cache: createSkillCache(),
      });
      expect(trusted.skills.map((s) => s.name)).toContain("shared");
      const userHome = await tempDir({ "store/mine/SKILL.md": skillMd("mine", "user skill through a symlink") });
      await mkdir(path.join(userHome, ".agents/skills"), { recursive: true });
      await symlink(path.join(userHome, "store/mine"), path.join(userHome, ".agents/skills/mine"));
      const user = await discoverSkills({ cwd: repo, homeDir: userHome, userSkills: true, cache: createSkillCache() });
      expect(user.skills.find((s) => s.name === "mine")?.source.scope).toBe("user");
    },
  );

  it.runIf(HAS_GIT)("a dotfiles repository at the home folder does not make the home folder the project", async () => {
    const home = await tempDir({
      ".ssh/id_rsa": secretText,
      ".agents/skills/dotfile-skill/SKILL.md": skillMd("dotfile-skill", "in ~"),
    });
    gitInit(home);
    const cwd = path.join(home, "code/project");
    await mkdir(path.join(cwd, ".openhands/microagents"), { recursive: true });
    await symlink("../../../../.ssh/id_rsa", path.join(cwd, ".openhands/microagents/notes.md"));
    const result = await discoverSkills({ cwd, homeDir: home, cache: createSkillCache() });
    expect(result.skills).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["PATH_OUTSIDE_ROOT"]);
    expect(JSON.stringify(result)).not.toContain("OPENSSH");
  });

  it("never opens a FIFO named like a skill, and reports an oversized skill file instead of reading it", async () => {
    const repo = await tempDir({ ".openhands/microagents/ok.md": "---\nname: ok\ndescription: fine\n---\nok\n" });
    execFileSync("mkfifo", [path.join(repo, ".openhands/microagents/pipe.md")]);
    await mkdir(path.join(repo, ".agents/skills/fifo-skill"), { recursive: true });
    execFileSync("mkfifo", [path.join(repo, ".agents/skills/fifo-skill/SKILL.md")]);
    const huge = path.join(repo, ".openhands/microagents/huge.md");
    await writeFile(huge, "");
    await truncate(huge, 600 * 1024 * 1024);
    const result = await discoverSkills({ cwd: repo, homeDir: path.join(repo, ".no-home"), cache: createSkillCache() });
    expect(result.skills.map((s) => s.name)).toEqual(["ok"]);
    expect(
      result.diagnostics
        .map((d) => [d.code, path.basename(d.path ?? "")])
        .sort((x, y) => compareCodePoints(String(x), String(y))),
    ).toEqual([
      ["NOT_A_FILE", "SKILL.md"],
      ["NOT_A_FILE", "pipe.md"],
      ["TOO_LARGE", "huge.md"],
    ]);
  });
});

describe("findGitRoot", () => {
  it.runIf(HAS_GIT)("walks up to the folder that holds .git, a folder or a file (worktrees, submodules)", async () => {
    const repo = await tempDir({ "a/b/c/file.txt": "x", "sub/.git": "gitdir: ../.git/modules/sub\n" });
    gitInit(repo);
    expect(findGitRoot(path.join(repo, "a/b/c"))).toBe(repo);
    expect(findGitRoot(repo)).toBe(repo);
    expect(findGitRoot(path.join(repo, "sub"))).toBe(path.join(repo, "sub"));
  });

  it("returns undefined outside any repository", async () => {
    // (The system temp folder is not inside a repository.)
    const dir = await tempDir({ "a/b/file.txt": "x" });
    expect(findGitRoot(path.join(dir, "a/b"))).toBeUndefined();
  });
});
