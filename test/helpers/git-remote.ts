import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** A real git remote for tests: a work tree that commits and pushes to a bare repository served at a file:// URL. */
export interface GitRemote {
  /** `file:///.../remote.git` */
  url: string;
  bare: string;
  work: string;
  /** Writes (text) or removes (null) files, commits on the current branch, pushes it; returns the commit id. */
  commit(files: Record<string, string | null>, message?: string): string;
  /** Adds a symlink in the work tree (committed by the next `commit`). */
  symlink(relative: string, target: string): void;
  git(...args: string[]): string;
}

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** Creates `<dir>/remote.git` (bare) and `<dir>/work` (branch main, pushed to the remote). */
export function gitRemote(dir: string): GitRemote {
  const bare = path.join(dir, "remote.git");
  const work = path.join(dir, "work");
  mkdirSync(work, { recursive: true });
  const run = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: ENV, encoding: "utf8" }).trim();
  run(dir, "init", "--quiet", "--bare", "--initial-branch=main", bare);
  run(work, "init", "--quiet", "--initial-branch=main");
  run(work, "remote", "add", "origin", bare);
  return {
    url: pathToFileURL(bare).href,
    bare,
    work,
    git: (...args) => run(work, ...args),
    symlink(relative, target) {
      const file = path.join(work, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      symlinkSync(target, file);
    },
    commit(files, message = "change") {
      for (const [relative, text] of Object.entries(files)) {
        const file = path.join(work, relative);
        if (text === null) rmSync(file, { recursive: true, force: true });
        else {
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
      }
      run(work, "add", "--all");
      run(work, "commit", "--quiet", "--allow-empty", "-m", message);
      const branch = run(work, "rev-parse", "--abbrev-ref", "HEAD");
      run(work, "push", "--quiet", "--force", "origin", branch);
      return run(work, "rev-parse", "HEAD");
    },
  };
}

/** A SKILL.md with the given name. */
export function skillMd(name: string, body = "Instructions."): string {
  return `---\nname: ${name}\ndescription: The ${name} skill.\n---\n${body}\n`;
}
