import * as path from "node:path";
import { compareCodePoints } from "./code-point-order.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { PROJECT_SKILL_DIRS, looseFilesOf } from "./discover-skills.js";
import { isInside, realPathOrSelf, statIfPresentSync } from "./fs/paths.js";
import { projectRoot } from "./fs/project-root.js";
import { ScanPacer } from "./scan-pacer.js";
import { collectSource } from "./skill-sources.js";
import type { FoundSkill, SourceEntry } from "./skill-sources.js";
import type { WalkContext } from "./walk-skill-dirs.js";

/** Options for {@link skillFoldersIn}. */
export interface SkillFoldersInOptions {
  /** The agent's working folder: a target inside its project is contained in that project. */
  cwd: string;
  /** The home folder, whose git repository is never a project root. @default os.homedir() */
  homeDir?: string | undefined;
  signal?: AbortSignal | undefined;
}

/** The SKILL.md folders a path holds, as list's discovery finds them, and what the search reported. */
export interface SkillFoldersIn {
  /** Skill folders (as reached, not resolved), in code-point order. */
  folders: string[];
  /** Legacy (single-file OpenHands) skills found beside them: list loads them, the validator has no rules for them. */
  legacy: string[];
  /** The real path of the project root the folders were contained in. */
  root: string;
  /** Why a path was not searched or a folder not followed: `PATH_NOT_FOUND`, `PATH_OUTSIDE_ROOT`, loops... */
  diagnostics: Diagnostic[];
}

/**
 * The skill folders inside `target` that `skillctx list` would find there, for `skillctx validate`: the
 * target itself when it is a skill folder or a SKILL.md; else the folders below it (to depth 4, dot-folders
 * and `node_modules` skipped, as discovery's walk does) and the project skill folders it holds by name
 * (`.agents/skills`, `.claude/skills`, ... {@link PROJECT_SKILL_DIRS}). Everything is contained in the
 * project of `cwd` when `target` lies inside it, else in the target's own project: a symlink inside the
 * repository is followed, one that leaves it is refused (`PATH_OUTSIDE_ROOT`), as list refuses it.
 */
export async function skillFoldersIn(target: string, options: SkillFoldersInOptions): Promise<SkillFoldersIn> {
  const cwd = path.resolve(options.cwd);
  const absolute = path.resolve(cwd, target);
  const cwdRoot = projectRoot(cwd, { homeDir: options.homeDir });
  const info = statIfPresentSync(absolute);
  const base = isInside(absolute, cwdRoot)
    ? cwdRoot
    : projectRoot(info?.isDirectory() === true ? absolute : path.dirname(absolute), { homeDir: options.homeDir });
  const root = realPathOrSelf(base);
  const result: SkillFoldersIn = { folders: [], legacy: [], root, diagnostics: [] };
  if (info === undefined) {
    result.diagnostics.push(
      diagnostic("PATH_NOT_FOUND", "error", `${absolute} does not exist: nothing checked`, { path: absolute }),
    );
    return result;
  }
  const context: WalkContext = {
    pacer: new ScanPacer(options.signal),
    diagnostics: result.diagnostics,
    visitedDirs: new Set(),
    seenFiles: new Set(),
    skillDirs: new Set(),
  };
  // The project skill folders first, as list reads them: a skill folder reached there and again through the
  // walk (a symlink into shared/) is checked once, at the path list shows.
  const sources: SourceEntry[] = [];
  if (info.isDirectory()) {
    for (const folder of PROJECT_SKILL_DIRS)
      sources.push({
        input: path.join(absolute, folder),
        scope: "project",
        optional: true,
        containRoot: root,
        loose: looseFilesOf(folder),
      });
  }
  sources.push({ input: absolute, scope: "project", containRoot: root });
  const found: FoundSkill[] = [];
  for (const source of sources) await collectSource(source, undefined, context, found);
  for (const item of found) {
    if (item.kind !== "file") continue;
    if (item.file.format === "skill-md" && item.file.dir !== undefined) result.folders.push(item.file.dir);
    else result.legacy.push(item.file.path);
  }
  result.folders.sort(compareCodePoints);
  return result;
}
