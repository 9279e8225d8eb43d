import { checkRelativePath as checkPath, resolveInside as resolveInFolder } from "@skillctx/core/internal";
import type { CheckedPath } from "@skillctx/core/internal";
import type { Stats } from "node:fs";

export type { CheckedPath };

/** A file resolved inside a skill folder: its real path and stats. */
export type ResolvedFile =
  | { ok: true; realPath: string; stats: Stats }
  | { ok: false; reason: string; missing?: boolean };

/**
 * Checks a path the model asked for with core's `checkRelativePath` (no `..`, no absolute or encoded
 * paths, no NUL or backslash), with reasons worded for a skill folder.
 */
export function checkRelativePath(input: string): CheckedPath {
  const checked = checkPath(input);
  return checked.ok ? checked : { ok: false, reason: forSkill(checked.reason) };
}

/**
 * Resolves `relative` (a path the model gave) under a skill folder `root` with core's `resolveInside`:
 * checked, symlinks followed, and refused when its real path leaves the real `root`.
 */
export async function resolveInside(root: string, relative: string): Promise<ResolvedFile> {
  const resolved = await resolveInFolder(root, relative);
  if (resolved.ok) return { ok: true, realPath: resolved.realPath, stats: resolved.stats };
  const reason = forSkill(resolved.reason);
  return resolved.missing === true ? { ok: false, reason, missing: true } : { ok: false, reason };
}

// Core words its reasons for any folder; the model is told about the skill's folder.
function forSkill(reason: string): string {
  return reason
    .replace("give a relative path", "give a path relative to the skill folder")
    .replace(/\bthe folder\b/g, "the skill folder");
}
