import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { Stats } from "node:fs";

/** A relative path the model gave, checked and normalised (`/`-separated, no `.` segments). */
export type CheckedPath = { ok: true; path: string } | { ok: false; reason: string };

// Percent-escapes of `.`, `/`, `\`, `%` (double encoding), NUL and the overlong-UTF-8 lead bytes.
const ENCODED = /%(?:2e|2f|5c|25|00|c0|c1)/i;

/**
 * Checks a path the model asked for, before touching the disk. Refused: empty paths, NUL bytes,
 * backslashes, percent-encoded dots or separators (`%2e%2e%2f`, `..%2f`, `%252e`), absolute paths
 * (`/x`, `~/x`, `C:x`) and any `..` segment. `./` and repeated slashes are dropped.
 */
export function checkRelativePath(input: string): CheckedPath {
  if (input.trim() === "") return { ok: false, reason: "the path is empty" };
  if (input.includes("\0")) return { ok: false, reason: "NUL bytes are not allowed in paths" };
  if (input.includes("\\")) return { ok: false, reason: "backslashes are not allowed; separate folders with /" };
  if (ENCODED.test(input)) return { ok: false, reason: "percent-encoded dots or separators are not allowed" };
  if (input.startsWith("/") || input.startsWith("~") || /^[A-Za-z]:/.test(input)) {
    return { ok: false, reason: "absolute paths are not allowed; give a path relative to the skill folder" };
  }
  const segments = input.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return { ok: false, reason: "`..` is not allowed; paths stay inside the skill folder" };
  if (segments.length === 0) return { ok: false, reason: "the path names the skill folder itself, not a file" };
  return { ok: true, path: segments.join("/") };
}

/** A file resolved inside a folder: its real path and stats. */
export type ResolvedFile = { ok: true; realPath: string; stats: Stats } | { ok: false; reason: string; missing?: boolean };

/**
 * Resolves `relative` (already checked) under `root` and follows symlinks; refuses a result whose
 * real path leaves the real `root`.
 */
export async function resolveInside(root: string, relative: string): Promise<ResolvedFile> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, reason: `the skill folder ${root} cannot be read`, missing: true };
  }
  let realTarget: string;
  try {
    realTarget = await realpath(path.join(realRoot, relative));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: `no file ${relative}`, missing: true };
    if (code === "ELOOP") return { ok: false, reason: `${relative} is a symlink loop` };
    return { ok: false, reason: `${relative} cannot be read (${code ?? "error"})` };
  }
  if (!isInside(realRoot, realTarget)) {
    return { ok: false, reason: `${relative} resolves (through a symlink) to a place outside the skill folder` };
  }
  try {
    return { ok: true, realPath: realTarget, stats: await stat(realTarget) };
  } catch {
    return { ok: false, reason: `no file ${relative}`, missing: true };
  }
}

/** Whether `child` is `parent` or below it (both absolute, already real). */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}
