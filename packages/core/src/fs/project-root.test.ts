import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { findGitRoot, projectGitRoot, projectRoot } from "./project-root.js";
import { HAS_GIT, useTempDirs } from "../testing/temp-dir.js";

const tempDir = useTempDirs("root");

describe("projectRoot", () => {
  it.runIf(HAS_GIT)("is the git root above cwd, or cwd outside a repository", async () => {
    const repo = await tempDir();
    execFileSync("git", ["init", "--quiet", repo]);
    await mkdir(path.join(repo, "a/b"), { recursive: true });
    expect(projectRoot(path.join(repo, "a/b"))).toBe(repo);
    expect(projectGitRoot(path.join(repo, "a/b"))).toBe(repo);
    const plain = await tempDir();
    expect(projectRoot(plain)).toBe(plain);
    expect(projectGitRoot(plain)).toBeUndefined();
  });

  it.runIf(HAS_GIT)(
    "ignores a git repository at the home folder (dotfiles): cwd below it is its own root",
    async () => {
      const home = await tempDir();
      execFileSync("git", ["init", "--quiet", home]);
      const cwd = path.join(home, "code/project");
      await mkdir(cwd, { recursive: true });
      expect(findGitRoot(cwd)).toBe(home);
      expect(projectRoot(cwd, { homeDir: home })).toBe(cwd);
      expect(projectGitRoot(cwd, { homeDir: home })).toBeUndefined();
      // Spelt with a trailing separator, or reached through a symlink, it is the same home.
      expect(projectRoot(cwd, { homeDir: `${home}/` })).toBe(cwd);
      // A repository of its own below home is the root as usual.
      execFileSync("git", ["init", "--quiet", cwd]);
      expect(projectRoot(path.join(cwd), { homeDir: home })).toBe(cwd);
    },
  );

  it("takes a .git file (worktrees, submodules) as a git root", async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, "sub/deep"), { recursive: true });
    await writeFile(path.join(dir, "sub/.git"), "gitdir: elsewhere\n");
    expect(projectRoot(path.join(dir, "sub/deep"), { homeDir: "/nonexistent-home" })).toBe(path.join(dir, "sub"));
  });
});
