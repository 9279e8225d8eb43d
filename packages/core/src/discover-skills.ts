import { existsSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { loadSkillSources } from "./load-skills.js";
import type { LoadSkillsResult } from "./load-skills.js";
import type { SkillCache } from "./skill-cache.js";
import type { SkillSourceInput, SourceEntry } from "./skill-sources.js";

/** Project folders searched for skills, in precedence order, relative to cwd and to the git root. */
export const PROJECT_SKILL_DIRS: readonly string[] = [".agents/skills", ".claude/skills", ".openhands/skills", ".openhands/microagents"];

/** User folders searched when `userSkills` is true, relative to the home folder, in precedence order. */
export const USER_SKILL_DIRS: readonly string[] = [".agents/skills", ".claude/skills", ".openhands/skills"];

/** Options for {@link discoverSkills}. */
export interface DiscoverSkillsOptions {
  /** The working folder: project skill folders are searched here and at its git root. */
  cwd: string;
  /** Programmatic sources (folders, files, Skill objects); they take precedence over everything. Relative paths resolve against `cwd`. */
  skills?: SkillSourceInput[];
  /**
   * User skill folders: `true` searches `~/.agents/skills`, `~/.claude/skills` and `~/.openhands/skills`;
   * a list searches those folders instead (`~/` expands to the home folder). @default false
   */
  userSkills?: boolean | string[];
  /** The home folder for user skills. @default os.homedir() */
  homeDir?: string;
  /** Parsed metadata kept between scans. @default defaultSkillCache */
  cache?: SkillCache;
  signal?: AbortSignal;
}

/**
 * Finds every skill an agent working in `cwd` should see: programmatic sources first, then the
 * project folders (`.agents/skills`, `.claude/skills`, `.openhands/skills`, `.openhands/microagents`)
 * of `cwd` and then of its git root when that differs, then the user folders. On a name clash the
 * first wins and a `NAME_CLASH` warning names both files. Metadata only, as {@link loadSkills}.
 *
 * @example
 * const { skills, diagnostics } = await discoverSkills({ cwd: process.cwd(), userSkills: true });
 */
export async function discoverSkills(options: DiscoverSkillsOptions): Promise<LoadSkillsResult> {
  const cwd = path.resolve(options.cwd);
  const sources: SourceEntry[] = (options.skills ?? []).map((input) => ({ input, scope: "programmatic" }));

  const gitRoot = findGitRoot(cwd);
  const projectRoots = gitRoot === undefined || gitRoot === cwd ? [cwd] : [cwd, gitRoot];
  for (const root of projectRoots) {
    for (const folder of PROJECT_SKILL_DIRS) {
      sources.push({ input: path.join(root, folder), scope: "project", optional: true });
    }
  }

  const home = path.resolve(options.homeDir ?? homedir());
  if (options.userSkills === true) {
    for (const folder of USER_SKILL_DIRS) sources.push({ input: path.join(home, folder), scope: "user", optional: true });
  } else if (Array.isArray(options.userSkills)) {
    for (const folder of options.userSkills) {
      const expanded = folder === "~" || folder.startsWith("~/") ? path.join(home, folder.slice(1)) : folder;
      sources.push({ input: path.resolve(cwd, expanded), scope: "user" });
    }
  }

  return loadSkillSources(sources, { baseDir: cwd, cache: options.cache, signal: options.signal });
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
