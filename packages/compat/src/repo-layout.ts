import { realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { SkillctxError, findGitRoot } from "@skillctx/core";
import { toPosix } from "./paths.js";

/** Where guidance is looked for. */
export interface RepoLayout {
  /** The caller's cwd, resolved. */
  cwd: string;
  /** The git work-tree root above (or at) cwd, else cwd: names and labels are relative to it. */
  root: string;
  /** Real path of `root`, for containment checks. */
  realRoot: string;
  /** Set when cwd is inside a git work tree. */
  gitRoot: string | undefined;
  /** The folders from `root` down to `cwd`, root first, each with its root-relative path (`""` for the root). */
  levels: Array<{ dir: string; folder: string }>;
}

/**
 * Lays out the folders to read. The git root is core's `findGitRoot` (the nearest folder with a `.git`,
 * as skill discovery uses), so guidance and skills agree on the repository. Throws `PATH_NOT_FOUND` / `NOT_A_DIRECTORY` when cwd is unusable.
 */
export async function repoLayout(cwd: string): Promise<RepoLayout> {
  const resolved = path.resolve(cwd);
  const info = await stat(resolved).catch((error: unknown) => {
    throw new SkillctxError("PATH_NOT_FOUND", `cwd does not exist: ${resolved}`, { path: resolved, cause: error });
  });
  if (!info.isDirectory()) throw new SkillctxError("NOT_A_DIRECTORY", `cwd is not a folder: ${resolved}`, { path: resolved });

  const gitRoot = findGitRoot(resolved);
  const root = gitRoot ?? resolved;
  const levels: RepoLayout["levels"] = [];
  for (let dir = resolved; ; dir = path.dirname(dir)) {
    levels.unshift({ dir, folder: toPosix(path.relative(root, dir)) });
    if (dir === root || path.dirname(dir) === dir) break;
  }
  const realRoot = await realpath(root).catch(() => root);
  return { cwd: resolved, root, realRoot, gitRoot, levels };
}
