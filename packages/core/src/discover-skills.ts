import { statSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { cacheDirSeenFrom } from "./disk-cache/cache-dir.js";
import { findGitRoot, isHomeFolder, projectRoot } from "./fs/project-root.js";
import { realPathOrSelf } from "./fs/paths.js";
import { loadSkillSources } from "./load-skills.js";
import type { LoadSkillsResult, PersistentCacheOption } from "./load-skills.js";
import type { SkillCache } from "./skill-cache.js";
import type { SkillSourceInput, SourceEntry } from "./skill-sources.js";
import type { LooseFiles } from "./walk-skill-dirs.js";
import { mayReadOutsideProject } from "./trust.js";
import type { Trust } from "./trust.js";

export { findGitRoot };

/**
 * Project folders searched for skills, in precedence order, relative to cwd and to the project root:
 * Agent Skills and Codex (`.agents/skills`), Claude Code, OpenHands, GitHub Copilot (`.github/skills`,
 * https://docs.github.com/en/copilot/concepts/agents/about-agent-skills), Gemini CLI (`.gemini/skills`,
 * google-gemini/gemini-cli packages/core/src/config/storage.ts getProjectSkillsDir) and Cline
 * (`.cline/skills`, `.clinerules/skills`, cline/cline apps/vscode/src/core/context/instructions/
 * user-instructions/__tests__/skills.test.ts).
 */
export const PROJECT_SKILL_DIRS: readonly string[] = [
  ".agents/skills",
  ".claude/skills",
  ".openhands/skills",
  ".openhands/microagents",
  ".github/skills",
  ".gemini/skills",
  ".cline/skills",
  ".clinerules/skills",
  // opencode (https://opencode.ai/docs/skills: `.opencode/skills/<name>/SKILL.md`; `.opencode/skill`, the
  // older singular name, in its v1 loader anomalyco/opencode packages/opencode/src/skill/skill.ts).
  ".opencode/skills",
  ".opencode/skill",
];

/**
 * Searched in every folder between cwd and the project root too (cwd and the root search all of
 * PROJECT_SKILL_DIRS): Codex "scans .agents/skills in every directory from your current working
 * directory up to the repository root" (https://developers.openai.com/codex/skills).
 */
export const BETWEEN_SKILL_DIRS: readonly string[] = [".agents/skills", ".opencode/skills"];

/**
 * The skill folders whose loose `.md` files are skills (OpenHands' legacy microagents and its skills
 * folder, which reads `*.md` beside `<name>/SKILL.md`: OpenHands/software-agent-sdk
 * openhands-sdk/openhands/sdk/context/skills/skill.py `load_skills_from_dir`). In every other known skill
 * folder only `<name>/SKILL.md` is a skill (Claude Code: https://code.claude.com/docs/en/skills, Copilot:
 * https://docs.github.com/en/copilot/concepts/agents/about-agent-skills, Codex:
 * https://developers.openai.com/codex/skills); a loose `.md` there gets an info `SKILL_FILE_LOOSE`.
 */
export const LEGACY_FILE_DIRS: readonly string[] = [".openhands/skills", ".openhands/microagents"];

/** How the loose `.md` files of the well-known skill folder `folder` (home- or project-relative) are read. */
export function looseFilesOf(folder: string): LooseFiles {
  return LEGACY_FILE_DIRS.includes(folder) ? "legacy" : "note";
}

/** User folders searched when `userSkills` is true, relative to the home folder, in precedence order. */
export const USER_SKILL_DIRS: readonly string[] = [
  ".agents/skills",
  ".claude/skills",
  ".openhands/skills",
  // Cline's global skills (cline/cline src/core/context/instructions/user-instructions/skills.ts).
  ".cline/skills",
  // opencode's global skills (https://opencode.ai/docs/skills).
  ".config/opencode/skills",
];

/** Options for {@link discoverSkills}. */
export interface DiscoverSkillsOptions {
  /**
   * The working folder: project skill folders are searched here and at the project root (its git
   * root, or the nearest folder with one of `rootMarkers`; a repository at the home folder or at `/`
   * does not count), and `.agents/skills` in every folder between.
   */
  cwd: string;
  /** Programmatic sources (folders, files, Skill objects); they take precedence over everything. Relative paths resolve against `cwd`. */
  skills?: SkillSourceInput[];
  /**
   * User skill folders: `true` searches `~/.agents/skills`, `~/.claude/skills`, `~/.openhands/skills`, `~/.cline/skills`
   * and `~/.config/opencode/skills`;
   * a list searches those folders instead (`~/` expands to the home folder). @default false
   */
  userSkills?: boolean | string[];
  /** The home folder for user skills (and the folder whose git repository is never a project root). @default os.homedir() */
  homeDir?: string;
  /** Names that mark the project root (Codex's `project_root_markers`). @default [".git"] */
  rootMarkers?: readonly string[];
  /**
   * Trust: with `user: true` given explicitly, project skill folders may follow symlinks out of the
   * project root. Otherwise a project skill file or folder whose real path leaves the project root
   * is not read (`PATH_OUTSIDE_ROOT`). User folders and programmatic sources always follow symlinks.
   * @default { project: false, user: true }
   */
  trust?: Trust;
  /** Parsed metadata kept between scans. @default defaultSkillCache */
  cache?: SkillCache;
  /**
   * Keep what the scan derives on disk for the next process (see `LoadSkillsOptions.persistentCache`); `true`
   * keeps it in `defaultCacheDir()` as seen from `homeDir` when given (`$HOME/.cache/skillctx` there, unless
   * `SKILLCTX_CACHE_DIR` or `XDG_CACHE_HOME` says otherwise). @default false
   */
  persistentCache?: PersistentCacheOption;
  signal?: AbortSignal;
}

/**
 * Finds every skill an agent working in `cwd` should see: programmatic sources first, then the
 * project folders ({@link PROJECT_SKILL_DIRS}) of `cwd`, `.agents/skills` of each folder between cwd and
 * the project root (Codex), the project folders of the root, then the user folders. A cwd that is a file
 * stands for its folder. On a name clash the
 * first wins and a `NAME_CLASH` warning names both files. Metadata only, as {@link loadSkills}.
 *
 * Project folders are untrusted input: nothing whose real path leaves the project root is read
 * (a committed symlink to `~/.ssh/id_rsa` is skipped with a `PATH_OUTSIDE_ROOT` warning), skill files
 * over 4 MiB are `TOO_LARGE`, and FIFOs, devices and sockets are never opened.
 *
 * @example
 * const { skills, diagnostics } = await discoverSkills({ cwd: process.cwd(), userSkills: true });
 */
export async function discoverSkills(options: DiscoverSkillsOptions): Promise<LoadSkillsResult> {
  const cwd = folderOf(path.resolve(options.cwd));
  const sources: SourceEntry[] = (options.skills ?? []).map((input) => ({ input, scope: "programmatic" }));

  const home = path.resolve(options.homeDir ?? homedir());
  const root = projectRoot(cwd, { homeDir: home, rootMarkers: options.rootMarkers });
  const containRoot = mayReadOutsideProject(options.trust) ? undefined : realPathOrSelf(root);
  // cwd first, then each folder above it up to the root (nearest wins a name clash, as in Codex).
  const projectRoots: string[] = [cwd];
  for (let dir = cwd; dir !== root && path.dirname(dir) !== dir; ) {
    dir = path.dirname(dir);
    projectRoots.push(dir);
  }
  for (const dir of projectRoots) {
    // The home folder's skill folders are the user's (below, when asked for), never project folders.
    if (isHomeFolder(dir, home)) continue;
    const folders = dir === cwd || dir === root ? PROJECT_SKILL_DIRS : BETWEEN_SKILL_DIRS;
    for (const folder of folders) {
      const entry: SourceEntry = {
        input: path.join(dir, folder),
        scope: "project",
        optional: true,
        loose: looseFilesOf(folder),
      };
      if (containRoot !== undefined) entry.containRoot = containRoot;
      sources.push(entry);
    }
  }

  if (options.userSkills === true) {
    for (const folder of USER_SKILL_DIRS)
      sources.push({ input: path.join(home, folder), scope: "user", optional: true, loose: looseFilesOf(folder) });
  } else if (Array.isArray(options.userSkills)) {
    for (const folder of options.userSkills) {
      const expanded = folder === "~" || folder.startsWith("~/") ? path.join(home, folder.slice(1)) : folder;
      sources.push({ input: path.resolve(cwd, expanded), scope: "user" });
    }
  }

  return loadSkillSources(sources, {
    baseDir: cwd,
    cache: options.cache,
    persistentCache:
      options.persistentCache === true && options.homeDir !== undefined
        ? { dir: cacheDirSeenFrom(options.homeDir) }
        : options.persistentCache,
    signal: options.signal,
  });
}

// A cwd that is a file stands for its folder (Codex: `if cwd.is_dir() { cwd } else { cwd.parent() }`).
function folderOf(dir: string): string {
  try {
    return statSync(dir).isFile() ? path.dirname(dir) : dir;
  } catch {
    return dir;
  }
}
