import { readdir } from "node:fs/promises";
import path from "node:path";
import { compareCodePoints } from "@skillctx/core";

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
const WALK_LIMIT = 5_000;

/**
 * Lists the files of a skill folder (`scripts/`, `references/`, `assets/` and the rest), leaving out
 * the root SKILL.md, hidden entries and tooling folders (`node_modules`, `__pycache__`, virtualenvs).
 * Symlinked folders are not followed. At most `max` paths are returned; the rest is counted.
 */
export async function listSkillFiles(dir: string, options: { max: number; signal?: AbortSignal | undefined }): Promise<SkillFileList> {
  const found: string[] = [];
  let incomplete = false;
  const pending: string[] = [""];
  while (pending.length > 0) {
    options.signal?.throwIfAborted();
    const relative = pending.shift()!;
    let entries;
    try {
      entries = await readdir(path.join(dir, relative), { withFileTypes: true });
    } catch {
      continue; // an unreadable sub-folder is left out of a listing, not an error
    }
    entries.sort((a, b) => compareCodePoints(a.name, b.name));
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) pending.push(child);
        continue;
      }
      if (child === "SKILL.md" || child === "skill.md") continue;
      if (found.length >= WALK_LIMIT) {
        incomplete = true;
        break;
      }
      found.push(child);
    }
    if (incomplete) break;
  }
  found.sort(compareCodePoints);
  const max = Math.max(0, Math.floor(options.max));
  return { files: found.slice(0, max), omitted: Math.max(0, found.length - max), incomplete };
}
