import { existsSync } from "node:fs";
import { realPathOrSelf } from "./paths.js";
import { homedir } from "node:os";
import * as path from "node:path";

/** Options of {@link projectRoot}. */
export interface ProjectRootOptions {
  /** The user's home folder: a git repository there (dotfiles) is not a project root. @default os.homedir() */
  homeDir?: string | undefined;
  /**
   * Names whose presence in a folder marks the project root, as Codex's `project_root_markers`
   * (https://developers.openai.com/codex/config-reference): the nearest folder at or above cwd holding
   * any of them is the root; `[]` makes cwd the root. @default [".git"]
   */
  rootMarkers?: readonly string[] | undefined;
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
  const gitRoot = findMarkedRoot(resolved, options.rootMarkers);
  if (gitRoot === undefined || isBroadRoot(gitRoot, options.homeDir)) return resolved;
  return gitRoot;
}

/** The root `projectRoot` uses, or undefined when there is none or it is ignored (home folder, `/`). */
export function projectGitRoot(cwd: string, options: ProjectRootOptions = {}): string | undefined {
  const gitRoot = findMarkedRoot(cwd, options.rootMarkers);
  return gitRoot === undefined || isBroadRoot(gitRoot, options.homeDir) ? undefined : gitRoot;
}

// The nearest folder at or above `from` holding one of `markers` (`.git` by default).
function findMarkedRoot(from: string, markers: readonly string[] | undefined): string | undefined {
  if (markers === undefined) return findGitRoot(from);
  // A marker is a plain name: `..` or a path would let a configuration point the root anywhere.
  const names = markers.filter((m) => m !== "" && m !== "." && m !== ".." && !/[/\\]/.test(m));
  if (names.length === 0) return undefined;
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (names.some((name) => existsSync(path.join(dir, name)))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether `dir` is the user's home folder (however it is spelt: a symlinked /home too). Home is never a
 * project: its `.claude/skills`, `.agents/skills`, `.claude/CLAUDE.md` and `.claude/commands` are the
 * user's own files, read only when user files are asked for (and then labelled user), never as the
 * project files of an agent that happens to start there (a service or a cron job).
 */
export function isHomeFolder(dir: string, homeDir?: string | undefined): boolean {
  const home = path.resolve(homeDir ?? homedir());
  const resolved = path.resolve(dir);
  return resolved === home || realPathOrSelf(resolved) === realPathOrSelf(home);
}

function isBroadRoot(dir: string, homeDir: string | undefined): boolean {
  if (path.dirname(dir) === dir) return true;
  const home = path.resolve(homeDir ?? homedir());
  if (dir === home) return true;
  // The same folder spelt another way (a symlinked /home, say).
  const real = realPathOrSelf(dir);
  return path.dirname(real) === real || real === realPathOrSelf(home);
}
