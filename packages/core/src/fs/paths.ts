import { realpath, stat } from "node:fs/promises";
import { realpathSync, statSync } from "node:fs";
import type { Stats } from "node:fs";
import * as path from "node:path";

/**
 * Whether `child` is `parent` or lies below it. Both must be absolute and already real (or both
 * resolved the same way): this compares paths, it does not touch the disk.
 */
export function isInside(child: string, parent: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  // Fast path for real paths; one with a `.` or `..` segment takes the slow one (a dot-folder such as `.claude` does not).
  if (child.startsWith(prefix) && !hasDotSegment(child)) return true;
  const relative = path.relative(parent, child);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** A relative path with `/` separators (on POSIX it is returned as is). */
export function toPosix(relative: string): string {
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}

/**
 * `file` relative to `root` with `/` separators: `""` when `file` is `root` itself, undefined when it
 * lies outside `root` (a `..` segment first, or another drive on Windows). Names that merely begin
 * with two dots (`..notes`) are inside. Like `path.relative`, both are resolved against the process's
 * folder when relative; the disk is not touched.
 */
export function toPosixRelative(root: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  if (relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return toPosix(relative);
}

/**
 * `path.join(dir, relative)` for a `relative` path of plain names (no `.` or `..` segments), by plain
 * concatenation when `dir` needs no normalising: an absolute POSIX folder with no `.` or `..` segment, no
 * empty segment and no trailing separator, as the walker and the skill loader give them (elsewhere, and on
 * Windows, it is `path.join`).
 * Scans of thousands of skill folders probe files beside each SKILL.md, and in a fresh process
 * `path.join` costs several times the `stat` it names a file for.
 */
export function childPath(dir: string, relative: string): string {
  return isNormalAbsolute(dir) ? `${dir}/${relative}` : path.join(dir, relative);
}

// An absolute POSIX path that `path.normalize` leaves as it is, and without a trailing `/`.
function isNormalAbsolute(dir: string): boolean {
  if (path.sep !== "/" || dir.charCodeAt(0) !== 0x2f || dir.endsWith("/") || dir.includes("//")) return false;
  return !hasDotSegment(dir);
}

// Whether `p` has a `.` or `..` segment between separators. Dot-folders (`.claude`, `.git`) are common
// in skill paths and are ordinary names.
function hasDotSegment(p: string): boolean {
  const marker = `${path.sep}.`;
  for (let at = p.indexOf(marker); at !== -1; at = p.indexOf(marker, at + 1)) {
    const next = p.indexOf(path.sep, at + 1);
    const length = (next === -1 ? p.length : next) - at - 1;
    if (length === 1 || (length === 2 && p.charCodeAt(at + 2) === 0x2e)) return true;
  }
  return false;
}

/** A relative path the model gave, checked and normalised (`/`-separated, no `.` segments). */
export type CheckedPath = { ok: true; path: string } | { ok: false; reason: string };

// Percent-escapes of `.`, `/`, `\`, `%` (double encoding), NUL and the overlong-UTF-8 lead bytes.
const ENCODED = /%(?:2e|2f|5c|25|00|c0|c1)/i;

/**
 * Checks a relative path given by a model or a repository, before touching the disk. Refused: empty
 * paths, NUL bytes, backslashes, percent-encoded dots or separators (`%2e%2e%2f`, `..%2f`, `%252e`),
 * absolute paths (`/x`, `~/x`, `C:x`) and any `..` segment. `./` and repeated slashes are dropped.
 */
export function checkRelativePath(input: string): CheckedPath {
  if (input.trim() === "") return { ok: false, reason: "the path is empty" };
  if (input.includes("\0")) return { ok: false, reason: "NUL bytes are not allowed in paths" };
  if (input.includes("\\")) return { ok: false, reason: "backslashes are not allowed; separate folders with /" };
  if (ENCODED.test(input)) return { ok: false, reason: "percent-encoded dots or separators are not allowed" };
  if (input.startsWith("/") || input.startsWith("~") || /^[A-Za-z]:/.test(input)) {
    return { ok: false, reason: "absolute paths are not allowed; give a relative path" };
  }
  const segments = input.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return { ok: false, reason: "`..` is not allowed; paths stay inside the folder" };
  if (segments.length === 0) return { ok: false, reason: "the path names the folder itself, not a file" };
  return { ok: true, path: segments.join("/") };
}

/** Why {@link resolveInside} refused a path. */
export type ResolveInsideCode = "PATH_INVALID" | "PATH_OUTSIDE_ROOT" | "NOT_FOUND" | "SYMLINK_LOOP" | "READ_FAILED";

/** A path resolved inside a folder: its normalised relative path, real path and stats. */
export type ResolvedInside =
  | { ok: true; path: string; realPath: string; stats: Stats }
  | { ok: false; code: ResolveInsideCode; reason: string; missing?: true };

/**
 * Resolves a relative path given by a model (or a repository) under `root`: checks it
 * ({@link checkRelativePath}), follows symlinks, and refuses a result whose real path leaves `root`'s
 * real path (`PATH_OUTSIDE_ROOT`). Never throws for bad input. The stats are those of the target.
 */
export async function resolveInside(root: string, relative: string): Promise<ResolvedInside> {
  const checked = checkRelativePath(relative);
  if (!checked.ok) return { ok: false, code: "PATH_INVALID", reason: checked.reason };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, code: "NOT_FOUND", reason: `the folder ${root} cannot be read`, missing: true };
  }
  let realTarget: string;
  try {
    realTarget = await realpath(path.join(realRoot, checked.path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR")
      return { ok: false, code: "NOT_FOUND", reason: `no file ${checked.path}`, missing: true };
    if (code === "ELOOP") return { ok: false, code: "SYMLINK_LOOP", reason: `${checked.path} is a symlink loop` };
    return { ok: false, code: "READ_FAILED", reason: `${checked.path} cannot be read (${code ?? "error"})` };
  }
  if (!isInside(realTarget, realRoot)) {
    return {
      ok: false,
      code: "PATH_OUTSIDE_ROOT",
      reason: `${checked.path} resolves (through a symlink) to a place outside the folder`,
    };
  }
  try {
    return { ok: true, path: checked.path, realPath: realTarget, stats: await stat(realTarget) };
  } catch {
    return { ok: false, code: "NOT_FOUND", reason: `no file ${checked.path}`, missing: true };
  }
}

/**
 * `dir`'s real path (symlinks resolved), or `dir` itself when it cannot be resolved (missing, no access):
 * the one fallback the containment roots and project-root checks use.
 */
export function realPathOrSelf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}

/**
 * Whether a file-system error means "nothing there": `ENOENT`, or `ENOTDIR` (a path under a file, such
 * as `.clinerules/skills` when `.clinerules` is Cline's single rule file). A probe for a folder that may
 * exist treats both alike; every other error (no access, a loop) is still trouble to report.
 */
export function isAbsentError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * `statSync(file)`, or undefined when nothing is there ({@link isAbsentError}: a missing path, or one
 * under a file). Other errors throw. `throwIfNoEntry: false` alone still throws `ENOTDIR`.
 */
export function statIfPresentSync(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    if (isAbsentError(error)) return undefined;
    throw error;
  }
}
