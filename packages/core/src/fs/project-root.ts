import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

/** Options of {@link projectRoot}. */
export interface ProjectRootOptions {
  /** The user's home folder: a git repository there (dotfiles) is not a project root. @default os.homedir() */
  homeDir?: string | undefined;
}

/**
 * The nearest folder at or above `from` that holds a `.git` entry (a folder, or a file in
 * worktrees and submodules), or undefined outside a repository. Reads the file system only.
 */
export function findGitRoot(from: string): string | undefined {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The root of the project an agent in `cwd` works on, the boundary of containment: the git root
 * ({@link findGitRoot}), or `cwd` when there is none. A git root at the home folder or at `/` is
 * ignored and `cwd` is used: a dotfiles repository at `~` must not make `~/.ssh` part of every
 * project below it.
 */
export function projectRoot(cwd: string, options: ProjectRootOptions = {}): string {
  const resolved = path.resolve(cwd);
  const gitRoot = findGitRoot(resolved);
  if (gitRoot === undefined || isBroadRoot(gitRoot, options.homeDir)) return resolved;
  return gitRoot;
}

/** The git root `projectRoot` uses, or undefined when there is none or it is ignored (home folder, `/`). */
export function projectGitRoot(cwd: string, options: ProjectRootOptions = {}): string | undefined {
  const gitRoot = findGitRoot(cwd);
  return gitRoot === undefined || isBroadRoot(gitRoot, options.homeDir) ? undefined : gitRoot;
}

function isBroadRoot(dir: string, homeDir: string | undefined): boolean {
  if (path.dirname(dir) === dir) return true;
  const home = path.resolve(homeDir ?? homedir());
  if (dir === home) return true;
  // The same folder spelt another way (a symlinked /home, say).
  const real = realOrSelf(dir);
  return path.dirname(real) === real || real === realOrSelf(home);
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}
