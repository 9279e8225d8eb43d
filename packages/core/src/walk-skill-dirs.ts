import { lstatSync, realpathSync, statSync } from "node:fs";
import * as path from "node:path";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import { errorCode } from "./fs/open-file.js";
import { isInside } from "./fs/paths.js";
import { walk } from "./fs/walk.js";
import type { WalkEntry } from "./fs/walk.js";
import { MAX_SKILL_DIR_DEPTH } from "./limits.js";
import { readSkillHeadSync } from "./read-head.js";
import type { FileHead } from "./read-head.js";
import type { ScanPacer } from "./scan-pacer.js";
import type { SkillScope } from "./skill.js";
import { stampOf } from "./scan-cache/file-stamp.js";
import type { FileStamp } from "./scan-cache/file-stamp.js";
import { errorText } from "./error-text.js";

/** How deep sub-folders of a parent folder are searched for skills (the parent is depth 0). */
export const MAX_SKILL_DEPTH = MAX_SKILL_DIR_DEPTH;

/** File names (lower case) that are never legacy skills: repository meta files. */
const NOT_SKILLS = new Set([
  "readme.md",
  "license.md",
  "licence.md",
  "changelog.md",
  "contributing.md",
  "code_of_conduct.md",
  "security.md",
]);

/** A skill file found on disk, before it is read. */
export interface FoundSkillFile {
  /** Absolute path of the file, as reached (through symlinks, if any). */
  path: string;
  /** legacy: real path of the file (skill folders are de-duplicated by their folder's real path). */
  realPath?: string;
  format: "skill-md" | "legacy";
  scope: SkillScope;
  /** skill-md: the skill's folder, as reached. */
  dir?: string;
  /** legacy: the scanned folder the skill's name is relative to. */
  root?: string;
  /** Size and mtime (and the rest of its stamp) when the walk already stat'ed the file. */
  stat?: FileStamp;
  /** Given as a source itself, rather than found in a parent folder. */
  explicit?: boolean;
  /**
   * The frontmatter head, when the walk already read it (a SKILL.md its cache did not hold: see
   * {@link readSkillHeadSync}); the loader takes it instead of reading the file again, then drops it.
   */
  head?: FileHead;
  /** Real path of the project root the file must stay inside when read (project scope), else unset. */
  containRoot?: string;
  /** A remote source's name (`remote` scope), kept as `skill.source.origin`. */
  origin?: string;
}

/** The paths a scan's caches (in-process, persisted) may hold. */
export interface CachedPaths {
  readonly size: number;
  has(path: string): boolean;
}

/** What one scan shares across all of its sources. */
export interface WalkContext {
  pacer: ScanPacer;
  diagnostics: Diagnostic[];
  /** Real paths of folders already searched (stops symlink cycles, de-duplicates). */
  visitedDirs: Set<string>;
  /** Real paths of legacy files already found. */
  seenFiles: Set<string>;
  /** Real paths of skill folders: files inside them are resources, never skills. */
  skillDirs: Set<string>;
  /**
   * The scan's cache, by file path. A SKILL.md it holds is found with one `stat` (unchanged, it is not
   * read); any other is opened and its head read at once, saving the `stat`. Unset: every file is stat'ed.
   */
  cached?: CachedPaths;
}

/** A SKILL.md found in a folder, or why the folder's SKILL.md may not be read. */
export type SkillFileProbe =
  | { path: string; size: number; mtimeMs: number; stamp: FileStamp; refused?: undefined }
  | { refused: Diagnostic; path: string };

/**
 * The SKILL.md (or skill.md) of `dir` with its stat, or undefined when `dir` is not a skill folder
 * (or cannot be searched: reading it as a parent folder then reports why). With `containRoot` (a real
 * path), a SKILL.md that is a symlink leaving it is refused with a `PATH_OUTSIDE_ROOT` diagnostic,
 * and one that is not a regular file (a FIFO, a device) with `NOT_A_FILE`.
 */
export function findSkillFile(dir: string, containRoot?: string): SkillFileProbe | undefined {
  const prefix = withSep(dir);
  for (const name of ["SKILL.md", "skill.md"]) {
    const file = prefix + name;
    let stats: import("node:fs").Stats | undefined;
    try {
      if (containRoot === undefined) {
        stats = statSync(file, { throwIfNoEntry: false });
      } else {
        stats = lstatSync(file, { throwIfNoEntry: false });
        if (stats?.isSymbolicLink() === true) {
          const real = realpathSync.native(file);
          if (!isInside(real, containRoot)) {
            return {
              path: file,
              refused: diagnostic(
                "PATH_OUTSIDE_ROOT",
                "warning",
                `${file} resolves to ${real}, outside the project (${containRoot}); not read`,
                { path: file },
              ),
            };
          }
          stats = statSync(real);
        }
      }
    } catch {
      return undefined;
    }
    if (stats === undefined) continue;
    if (stats.isFile()) return { path: file, size: stats.size, mtimeMs: stats.mtimeMs, stamp: stampOf(stats) };
    if (!stats.isDirectory()) {
      return {
        path: file,
        refused: diagnostic("NOT_A_FILE", "warning", `${file} is not a regular file; not read`, { path: file }),
      };
    }
  }
  return undefined;
}

/** Whether a file found in a parent folder is a legacy (OpenHands) skill. */
export function isLegacySkillName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith(".md") && !NOT_SKILLS.has(lower);
}

/**
 * Searches a parent folder with the one walker (`fs/walk.ts`): each sub-folder with a SKILL.md is a
 * skill (its files are resources and are not searched), other `.md` files are legacy skills named
 * relative to `root`. Entries are visited in code-point order; dot-entries and `node_modules` are
 * skipped; symlinks are followed (only inside `containRoot` when given) and a folder whose real path
 * was already searched is skipped. Folders deeper than {@link MAX_SKILL_DEPTH} are not searched.
 */
export async function walkParentFolder(
  root: string,
  scope: SkillScope,
  context: WalkContext,
  out: FoundSkillFile[],
  containRoot?: string,
  loose: LooseFiles = "legacy",
): Promise<void> {
  const { pacer, cached } = context;
  const start = out.length;
  // Folders whose skill file is spelt in another case (found only once the walk is inside them).
  const variants: string[] = [];
  const visit = (entry: WalkEntry): boolean => {
    if (entry.type === "dir") {
      const probe =
        cached === undefined || isCached(cached, entry.path) ? "ask-stat" : readSkillHeadSync(entry.path, containRoot);
      if (probe !== "ask-stat") {
        pacer.tick(probe === undefined ? 2 : 4);
        if (probe === undefined) return true;
        context.skillDirs.add(entry.realPath);
        const { head } = probe;
        const found: FoundSkillFile = {
          path: probe.path,
          format: "skill-md",
          scope,
          dir: entry.path,
          stat: head.stamp,
          head,
        };
        if (containRoot !== undefined) found.containRoot = containRoot;
        out.push(found);
        return false;
      }
      const skillFile = findSkillFile(entry.path, containRoot);
      pacer.tick(skillFile === undefined ? 2 : 1);
      if (skillFile === undefined) return true;
      context.skillDirs.add(entry.realPath);
      if (skillFile.refused !== undefined) {
        context.diagnostics.push(skillFile.refused);
        return false;
      }
      const found: FoundSkillFile = {
        path: skillFile.path,
        format: "skill-md",
        scope,
        dir: entry.path,
        stat: skillFile.stamp,
      };
      if (containRoot !== undefined) found.containRoot = containRoot;
      out.push(found);
      return false;
    }
    if (entry.type === "file" && isSkillMdVariant(entry.name)) {
      // `skill.MD`, `Skill.md`: OpenHands finds a skill's file in any case (`find_skill_md`). Its folder is
      // the skill, named after the folder; what the walk found in it is its resources (dropped below).
      const dir = path.dirname(entry.path);
      variants.push(dir);
      context.skillDirs.add(path.dirname(entry.realPath));
      const found: FoundSkillFile = { path: entry.path, format: "skill-md", scope, dir };
      if (containRoot !== undefined) found.containRoot = containRoot;
      out.push(found);
      return false;
    }
    if (!isLegacySkillName(entry.name)) return false;
    if (entry.type === "other") {
      context.diagnostics.push(
        diagnostic("NOT_A_FILE", "warning", `skipped ${entry.path}: not a regular file (a FIFO, socket or device)`, {
          path: entry.path,
        }),
      );
      return false;
    }
    if (context.seenFiles.has(entry.realPath)) return false;
    context.seenFiles.add(entry.realPath);
    if (loose === "note") {
      context.diagnostics.push(looseFileNote(entry.path, root));
      return false;
    }
    const found: FoundSkillFile = { path: entry.path, realPath: entry.realPath, format: "legacy", scope, root };
    if (containRoot !== undefined) found.containRoot = containRoot;
    out.push(found);
    return false;
  };
  const walked = await walk(root, {
    maxDepth: MAX_SKILL_DEPTH,
    containRoot,
    skip: isSkipped,
    visit,
    visited: context.visitedDirs,
    pacer,
  });
  context.diagnostics.push(...walked.diagnostics);
  if (variants.length > 0) dropInsideVariants(out, start, variants);
}

/**
 * What a loose `.md` file (not `<name>/SKILL.md`) in a parent folder is: a `legacy` (OpenHands) skill, or,
 * in a skill folder whose agents read only `<name>/SKILL.md` there (`.claude/skills`, `.github/skills`,
 * `.agents/skills`...), not a skill: one info `SKILL_FILE_LOOSE` names it (`note`).
 */
export type LooseFiles = "legacy" | "note";

function looseFileNote(file: string, root: string): Diagnostic {
  const folder = `${path.basename(path.dirname(root))}/${path.basename(root)}`;
  return diagnostic(
    "SKILL_FILE_LOOSE",
    "info",
    `${file} is not read: ${folder} holds skills as <name>/SKILL.md folders, and a loose .md there is no skill nor guidance`,
    { path: file },
  );
}

/** `skill.md` in another case than the two a folder is probed for (`SKILL.md`, `skill.md`). */
export function isSkillMdVariant(name: string): boolean {
  return name.length === 8 && name !== "SKILL.md" && name !== "skill.md" && name.toLowerCase() === "skill.md";
}

/** Drops what the walk found inside a skill folder found late (its resources), keeping the skill files themselves. */
function dropInsideVariants(out: FoundSkillFile[], start: number, variants: readonly string[]): void {
  const inside = (file: FoundSkillFile) =>
    variants.some((dir) => {
      if (file.format === "skill-md" && file.dir === dir) return false;
      const where = file.format === "skill-md" && file.dir !== undefined ? file.dir : file.path;
      return where.startsWith(withSep(dir));
    });
  let keep = start;
  for (let i = start; i < out.length; i++) if (!inside(out[i]!)) out[keep++] = out[i]!;
  out.length = keep;
}

/** A short reason for a file-system error (its code when it has one). */
export function reason(error: unknown): string {
  return errorCode(error) ?? errorText(error);
}

function isCached(cached: CachedPaths, dir: string): boolean {
  if (cached.size === 0) return false;
  const prefix = withSep(dir);
  return cached.has(`${prefix}SKILL.md`) || cached.has(`${prefix}skill.md`);
}

/**
 * The one rule for which folders a search for skill folders does not enter: `node_modules` always, and
 * dot-folders (`.git`, `.venv`, caches) in a discovery root, whose own skill roots (`.claude/skills`,
 * `.agents/skills`) are searched by name. A fetched source (`dotFolders: "search"`) keeps its skills
 * under such folders, so there only `.git` is left out.
 */
export function skipsSkillSearch(name: string, dotFolders: "skip" | "search"): boolean {
  if (name === "node_modules") return true;
  return dotFolders === "skip" ? name.charCodeAt(0) === 0x2e /* . */ : name === ".git";
}

function isSkipped(name: string): boolean {
  return skipsSkillSearch(name, "skip");
}

function withSep(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}
