import { compareCodePoints } from "@skillctx/core";
import { walk } from "@skillctx/core/internal";
import { MAX_SKILL_FOLDER_ENTRIES } from "../limits.js";

/** The files of a skill folder, as listed after its body. */
export interface SkillFileList {
  /** Paths relative to the folder, `/`-separated, in code-point order; at most `max`. */
  files: string[];
  /** Files found but not listed. */
  omitted: number;
  /** The walk stopped at its entry limit, so `omitted` is a lower bound. */
  incomplete: boolean;
}

// Folders that hold tooling, not skill material.
const SKIPPED_DIRS = new Set(["node_modules", "__pycache__", ".git", ".venv", "venv"]);

/**
 * Lists the files of a skill folder (`scripts/`, `references/`, `assets/` and the rest), leaving out
 * the root SKILL.md, hidden entries, special files and tooling folders (`node_modules`, `__pycache__`,
 * virtualenvs). Walked with core's one walker: symlinks are followed only while they stay inside the
 * skill folder, every folder once, at most `MAX_SKILL_FOLDER_ENTRIES` (5,000) entries looked at.
 * At most `max` paths are returned; the rest is counted.
 */
export async function listSkillFiles(
  dir: string,
  options: { max: number; maxEntries?: number | undefined; signal?: AbortSignal | undefined },
): Promise<SkillFileList> {
  const found: string[] = [];
  const walked = await walk(dir, {
    containRoot: dir,
    maxEntries: options.maxEntries ?? MAX_SKILL_FOLDER_ENTRIES,
    signal: options.signal,
    skip: (name) => name.startsWith(".") || SKIPPED_DIRS.has(name),
    visit: (entry) => {
      if (entry.type === "dir") return true;
      if (entry.type === "file" && entry.relative !== "SKILL.md" && entry.relative !== "skill.md")
        found.push(entry.relative);
      return false;
    },
  });
  found.sort(compareCodePoints);
  const max = Math.max(0, Math.floor(options.max));
  return { files: found.slice(0, max), omitted: Math.max(0, found.length - max), incomplete: !walked.complete };
}
