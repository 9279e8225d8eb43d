import { realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { SkillctxError } from "@skillctx/core";
import { findGitRoot, isHomeFolder, projectRoot, toPosix } from "@skillctx/core/internal";

/** Where guidance is looked for. */
export interface RepoLayout {
  /** The caller's cwd, resolved. */
  cwd: string;
  /**
   * The project root (core's `projectRoot`): the git root above (or at) cwd, else cwd; a git root at
   * the home folder or `/` does not count. Names and labels are relative to it; nothing outside it is read.
   */
  root: string;
  /** Real path of `root`, for containment checks. */
  realRoot: string;
  /** The git root when it is the project root. */
  gitRoot: string | undefined;
  /** cwd is inside a git work tree (even one that is not the project root): nested files are listed with git. */
  inGitWorkTree: boolean;
  /**
   * The folders from `root` down to `cwd`, root first, each with its root-relative path (`""` for the root).
   * Empty when cwd is the home folder: home is never a project (its files are the user's, read as such).
   */
  levels: Array<{ dir: string; folder: string }>;
  /** cwd is the user's home folder: no project files are read there, nor nested ones below it. */
  atHome: boolean;
}

/**
 * Lays out the folders to read. The root is core's `projectRoot` (as skill discovery uses), so guidance
 * and skills agree on the repository and on its boundary. Throws `PATH_NOT_FOUND` when cwd does
 * not exist; a cwd that is a file stands for its folder.
 */
export async function repoLayout(
  cwd: string,
  options: { homeDir?: string | undefined; rootMarkers?: readonly string[] | undefined } = {},
): Promise<RepoLayout> {
  const given = path.resolve(cwd);
  const info = await stat(given).catch((error: unknown) => {
    throw new SkillctxError("PATH_NOT_FOUND", `cwd does not exist: ${given}`, { path: given, cause: error });
  });
  // A file stands for its folder, as Codex's skill loader does (`if cwd.is_dir() { cwd } else { cwd.parent() }`,
  // openai/codex codex-rs/core/src/skills/loader.rs repo_skills_root).
  const resolved = info.isDirectory() ? given : path.dirname(given);

  const anyGitRoot = findGitRoot(resolved);
  const root = projectRoot(resolved, { homeDir: options.homeDir, rootMarkers: options.rootMarkers });
  const gitRoot = anyGitRoot === root ? anyGitRoot : undefined;
  const levels: RepoLayout["levels"] = [];
  for (let dir = resolved; ; dir = path.dirname(dir)) {
    levels.unshift({ dir, folder: toPosix(path.relative(root, dir)) });
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const realRoot = await realpath(root).catch(() => root);
  const atHome = isHomeFolder(resolved, options.homeDir);
  return {
    cwd: resolved,
    root,
    realRoot,
    gitRoot,
    inGitWorkTree: anyGitRoot !== undefined,
    levels: atHome ? [] : levels,
    atHome,
  };
}
