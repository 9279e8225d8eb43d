import { realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { SkillctxError } from "@skillctx/core";
import { findGitRoot, projectRoot, toPosix } from "@skillctx/core/internal";

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
  /** The folders from `root` down to `cwd`, root first, each with its root-relative path (`""` for the root). */
  levels: Array<{ dir: string; folder: string }>;
}

/**
 * Lays out the folders to read. The root is core's `projectRoot` (as skill discovery uses), so guidance
 * and skills agree on the repository and on its boundary. Throws `PATH_NOT_FOUND` / `NOT_A_DIRECTORY`
 * when cwd is unusable.
 */
export async function repoLayout(cwd: string, options: { homeDir?: string | undefined } = {}): Promise<RepoLayout> {
  const resolved = path.resolve(cwd);
  const info = await stat(resolved).catch((error: unknown) => {
    throw new SkillctxError("PATH_NOT_FOUND", `cwd does not exist: ${resolved}`, { path: resolved, cause: error });
  });
  if (!info.isDirectory())
    throw new SkillctxError("NOT_A_DIRECTORY", `cwd is not a folder: ${resolved}`, { path: resolved });

  const anyGitRoot = findGitRoot(resolved);
  const root = projectRoot(resolved, { homeDir: options.homeDir });
  const gitRoot = anyGitRoot === root ? anyGitRoot : undefined;
  const levels: RepoLayout["levels"] = [];
  for (let dir = resolved; ; dir = path.dirname(dir)) {
    levels.unshift({ dir, folder: toPosix(path.relative(root, dir)) });
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const realRoot = await realpath(root).catch(() => root);
  return { cwd: resolved, root, realRoot, gitRoot, inGitWorkTree: anyGitRoot !== undefined, levels };
}
