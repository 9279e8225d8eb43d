import { readdirSync, realpathSync, statSync } from "node:fs";
import type { Dirent } from "node:fs";
import * as path from "node:path";
import { compareCodePoints } from "./code-point-order.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./diagnostics.js";
import type { ScanPacer } from "./scan-pacer.js";
import type { SkillScope } from "./skill.js";

/** How deep sub-folders of a parent folder are searched for skills (the parent is depth 0). */
export const MAX_SKILL_DEPTH = 4;

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
  /** Size and mtime when the walk already stat'ed the file. */
  stat?: { size: number; mtimeMs: number };
  /** Given as a source itself, rather than found in a parent folder. */
  explicit?: boolean;
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
}

/**
 * The SKILL.md (or skill.md) of `dir` with its stat, or undefined when `dir` is not a skill folder
 * (or cannot be searched: reading it as a parent folder then reports why).
 */
export function findSkillFile(dir: string): { path: string; size: number; mtimeMs: number } | undefined {
  const prefix = withSep(dir);
  for (const name of ["SKILL.md", "skill.md"]) {
    const file = prefix + name;
    let stats;
    try {
      stats = statSync(file, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (stats?.isFile()) return { path: file, size: stats.size, mtimeMs: stats.mtimeMs };
  }
  return undefined;
}

/** Whether a file found in a parent folder is a legacy (OpenHands) skill. */
export function isLegacySkillName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.endsWith(".md") && !NOT_SKILLS.has(lower);
}

/**
 * Searches a parent folder: each sub-folder with a SKILL.md is a skill (its files are resources
 * and are not searched), other `.md` files are legacy skills named relative to `root`. Entries are
 * visited in code-point order; dot-entries and `node_modules` are skipped; symlinks are followed
 * and a folder whose real path was already searched is skipped.
 */
export async function walkParentFolder(
  root: string,
  realRoot: string,
  scope: SkillScope,
  context: WalkContext,
  out: FoundSkillFile[],
): Promise<void> {
  context.visitedDirs.add(realRoot);
  await visit(root, realRoot, 0);

  async function visit(dir: string, realDir: string, depth: number): Promise<void> {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      context.diagnostics.push(
        diagnostic("READ_FAILED", "warning", `cannot read folder ${dir}: ${reason(error)}`, { path: dir }),
      );
      return;
    }
    if (context.pacer.tick()) await context.pacer.pause();
    entries.sort((a, b) => compareCodePoints(a.name, b.name));
    // Names from readdir hold no separator: plain concatenation is path.join here, and cheaper.
    const dirPrefix = withSep(dir);
    const realPrefix = withSep(realDir);
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(".") || name === "node_modules") continue;
      const full = dirPrefix + name;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      let real = realPrefix + name;
      if (entry.isSymbolicLink()) {
        try {
          const target = statSync(full);
          isDirectory = target.isDirectory();
          isFile = target.isFile();
          real = realpathSync.native(full);
        } catch (error) {
          context.diagnostics.push(
            diagnostic("BROKEN_SYMLINK", "warning", `skipped ${full}: ${reason(error)}`, { path: full }),
          );
          continue;
        } finally {
          if (context.pacer.tick(2)) await context.pacer.pause();
        }
      }
      if (isDirectory) {
        if (depth + 1 > MAX_SKILL_DEPTH || context.visitedDirs.has(real)) continue;
        context.visitedDirs.add(real);
        const skillFile = findSkillFile(full);
        if (context.pacer.tick(skillFile === undefined ? 2 : 1)) await context.pacer.pause();
        if (skillFile === undefined) {
          await visit(full, real, depth + 1);
          continue;
        }
        context.skillDirs.add(real);
        out.push({
          path: skillFile.path,
          format: "skill-md",
          scope,
          dir: full,
          stat: { size: skillFile.size, mtimeMs: skillFile.mtimeMs },
        });
      } else if (isFile && isLegacySkillName(name) && !context.seenFiles.has(real)) {
        context.seenFiles.add(real);
        out.push({ path: full, realPath: real, format: "legacy", scope, root });
      }
    }
  }
}

/** A short reason for a file-system error (its code when it has one). */
export function reason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message : String(error);
}

function withSep(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}
