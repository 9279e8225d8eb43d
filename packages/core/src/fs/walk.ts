import { readdirSync, realpathSync, statSync } from "node:fs";
import type { Dirent } from "node:fs";
import * as path from "node:path";
import { compareCodePoints } from "../code-point-order.js";
import { diagnostic } from "../diagnostics.js";
import type { Diagnostic } from "../diagnostics.js";
import { WALK_MAX_DEPTH, WALK_MAX_ENTRIES } from "../limits.js";
import { ScanPacer } from "../scan-pacer.js";
import { errorCode } from "./open-file.js";
import { isInside } from "./paths.js";

/** One entry a walk reached. */
export interface WalkEntry {
  /** Absolute path as reached (through symlinks, if any). */
  path: string;
  /** Real path: every symlink on the way resolved. */
  realPath: string;
  /** Path relative to the walked folder, `/`-separated. */
  relative: string;
  name: string;
  /** 1 for the walked folder's own entries. */
  depth: number;
  /** `other`: a FIFO, socket or device (never opened by the walk; readers refuse it). */
  type: "file" | "dir" | "other";
  /** The entry itself is a symlink (its `type` is that of its target). */
  symlink: boolean;
}

/** Options of {@link walk}. */
export interface WalkOptions {
  /**
   * Deepest folder entered, the walked folder being depth 0: entries of a folder at `maxDepth` are
   * visited (at depth `maxDepth + 1`), but folders below it are skipped with `WALK_TOO_DEEP`.
   * @default WALK_MAX_DEPTH (16)
   */
  maxDepth?: number | undefined;
  /** Most entries read (files and folders alike, skipped names included); then `WALK_LIMIT`. @default WALK_MAX_ENTRIES (100,000) */
  maxEntries?: number | undefined;
  /**
   * Containment: a symlink whose real path leaves this folder's real path is not followed
   * (`PATH_OUTSIDE_ROOT`), and nor is the walked folder itself when it lies outside. Unset: symlinks
   * are followed anywhere (still once per real folder).
   */
  containRoot?: string | undefined;
  /** Names left alone before any file-system call (dot-entries, `node_modules`, ...). */
  skip?: ((name: string, depth: number) => boolean) | undefined;
  /**
   * Whether a symlink the walk does not follow (out of `containRoot`, broken, a loop) is worth a
   * diagnostic; walks over whole repositories report only the names they look for. @default every one
   */
  report?: ((relative: string, name: string) => boolean) | undefined;
  /**
   * Called for each entry, folders before their contents, in code-point order of name within a
   * folder. For a folder, returning `false` keeps the walk out of it. A folder whose real path was
   * already walked is not visited again.
   */
  visit?: ((entry: WalkEntry) => boolean | void) | undefined;
  /** Real paths of folders already walked: shared by walks that must not walk a folder twice. */
  visited?: Set<string> | undefined;
  /** Paces the walk's synchronous calls (a new one from `signal` when unset); visitors may tick it too. */
  pacer?: ScanPacer | undefined;
  signal?: AbortSignal | undefined;
}

/** What a walk did. */
export interface WalkResult {
  /** What it skipped and why: `PATH_OUTSIDE_ROOT`, `BROKEN_SYMLINK`, `WALK_TOO_DEEP`, `WALK_LIMIT`, `READ_FAILED`. */
  diagnostics: Diagnostic[];
  /** Entries read. */
  entries: number;
  /** False when a cap stopped the walk (`WALK_LIMIT`), so some entries were never seen. */
  complete: boolean;
}

/**
 * The one directory walker of skillctx: depth-first, entries in code-point order, every folder once
 * by real path (symlink loops end), symlinks followed only while they stay inside `containRoot`,
 * special files reported as `other` and never opened, and caps on depth and entries. Synchronous
 * `readdir` in batches that yield to the event loop (`pacer`), which keeps large scans fast.
 * Never throws for bad input; rejects only with the signal's reason.
 *
 * @example
 * const { diagnostics } = await walk(dir, { containRoot: root, visit: (e) => { if (e.type === "file") files.push(e.relative); } });
 */
export async function walk(root: string, options: WalkOptions = {}): Promise<WalkResult> {
  const maxDepth = Math.max(0, options.maxDepth ?? WALK_MAX_DEPTH);
  const maxEntries = Math.max(0, options.maxEntries ?? WALK_MAX_ENTRIES);
  const pacer = options.pacer ?? new ScanPacer(options.signal);
  const visited = options.visited ?? new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const result: WalkResult = { diagnostics, entries: 0, complete: true };
  const { skip, visit, report } = options;
  const tooDeep: string[] = [];
  let tooDeepCount = 0;

  const start = path.resolve(root);
  let realStart: string;
  let realContain: string | undefined;
  try {
    realStart = realpathSync.native(start);
    realContain =
      options.containRoot === undefined ? undefined : realpathSync.native(path.resolve(options.containRoot));
  } catch (error) {
    diagnostics.push(
      diagnostic("READ_FAILED", "warning", `cannot walk ${start}: ${errorCode(error) ?? String(error)}`, {
        path: start,
      }),
    );
    return result;
  }
  if (realContain !== undefined && !isInside(realStart, realContain)) {
    diagnostics.push(outside(start, realStart, realContain));
    return result;
  }
  if (visited.has(realStart)) return result;
  visited.add(realStart);
  await walkDir(start, realStart, "", 0);
  if (tooDeepCount > 0) {
    const more = tooDeepCount > tooDeep.length ? ` and ${tooDeepCount - tooDeep.length} more` : "";
    diagnostics.push(
      diagnostic(
        "WALK_TOO_DEEP",
        "warning",
        `folders deeper than ${maxDepth} levels below ${start} were not searched: ${tooDeep.join(", ")}${more}`,
        { path: path.join(start, ...(tooDeep[0] ?? "").split("/")) },
      ),
    );
  }
  return result;

  // Returns false once the entry cap stopped the walk.
  async function walkDir(dir: string, realDir: string, relative: string, depth: number): Promise<boolean> {
    let dirents: Dirent[];
    try {
      dirents = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      diagnostics.push(
        diagnostic("READ_FAILED", "warning", `cannot read folder ${dir}: ${errorCode(error) ?? String(error)}`, {
          path: dir,
        }),
      );
      return true;
    }
    if (pacer.tick()) await pacer.pause();
    if (result.entries + dirents.length > maxEntries) {
      result.entries = maxEntries;
      result.complete = false;
      diagnostics.push(
        diagnostic(
          "WALK_LIMIT",
          "warning",
          `stopped walking at ${dir}: more than ${maxEntries} entries below ${start}`,
          { path: dir },
        ),
      );
      return false;
    }
    result.entries += dirents.length;
    dirents = inNameOrder(dirents);
    // Names from readdir hold no separator: plain concatenation is path.join here, and cheaper.
    const dirPrefix = withSep(dir);
    const realPrefix = withSep(realDir);
    const relPrefix = relative === "" ? "" : `${relative}/`;
    const childDepth = depth + 1;
    for (const dirent of dirents) {
      const name = dirent.name;
      if (skip?.(name, childDepth)) continue;
      const full = dirPrefix + name;
      let type: WalkEntry["type"] = dirent.isDirectory() ? "dir" : dirent.isFile() ? "file" : "other";
      let real = realPrefix + name;
      const symlink = dirent.isSymbolicLink();
      if (symlink) {
        const worth = report === undefined || report(relPrefix + name, name);
        try {
          real = realpathSync.native(full);
        } catch (error) {
          const code = errorCode(error);
          const why =
            code === "ELOOP"
              ? "a symlink loop"
              : code === "ENOENT"
                ? "a symlink to nothing"
                : `unreadable (${code ?? String(error)})`;
          if (worth)
            diagnostics.push(diagnostic("BROKEN_SYMLINK", "warning", `skipped ${full}: ${why}`, { path: full }));
          if (pacer.tick()) await pacer.pause();
          continue;
        }
        if (realContain !== undefined && !isInside(real, realContain)) {
          if (worth) diagnostics.push(outside(full, real, realContain));
          if (pacer.tick()) await pacer.pause();
          continue;
        }
        try {
          const target = statSync(real);
          type = target.isDirectory() ? "dir" : target.isFile() ? "file" : "other";
        } catch (error) {
          if (worth)
            diagnostics.push(
              diagnostic("BROKEN_SYMLINK", "warning", `skipped ${full}: ${errorCode(error) ?? String(error)}`, {
                path: full,
              }),
            );
          continue;
        } finally {
          if (pacer.tick(2)) await pacer.pause();
        }
      }
      const entry: WalkEntry = {
        path: full,
        realPath: real,
        relative: relPrefix + name,
        name,
        depth: childDepth,
        type,
        symlink,
      };
      if (type !== "dir") {
        visit?.(entry);
        continue;
      }
      if (childDepth > maxDepth) {
        tooDeepCount++;
        if (tooDeep.length < 3) tooDeep.push(entry.relative);
        continue;
      }
      if (visited.has(real)) continue;
      visited.add(real);
      const enter = visit === undefined || visit(entry) !== false;
      if (pacer.tick(0)) await pacer.pause();
      if (enter && !(await walkDir(full, real, entry.relative, childDepth))) return false;
    }
    return true;
  }
}

function byName(a: Dirent, b: Dirent): number {
  return compareCodePoints(a.name, b.name);
}

// A UTF-16 surrogate: where code-unit order and code-point order part.
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * `dirents` in code-point order of name. Without a surrogate in any name, code-unit order is code-point order,
 * and the built-in sort of the names (no comparator, compared natively) does it; `compareCodePoints` called from
 * the sort, 10,000 times over a folder of 1,000 skills, ran mostly uncompiled in a fresh process (about 10 ms).
 */
function inNameOrder(dirents: Dirent[]): Dirent[] {
  if (dirents.length < 2) return dirents;
  for (const dirent of dirents) if (SURROGATE.test(dirent.name)) return dirents.sort(byName);
  const byKey = new Map<string, Dirent>();
  for (const dirent of dirents) byKey.set(dirent.name, dirent);
  if (byKey.size !== dirents.length) return dirents.sort(byName);
  const names = [...byKey.keys()].sort();
  return names.map((name) => byKey.get(name)!);
}

function outside(file: string, real: string, root: string): Diagnostic {
  return diagnostic(
    "PATH_OUTSIDE_ROOT",
    "warning",
    `skipped ${file}: it resolves to ${real}, outside the project (${root})`,
    { path: file },
  );
}

function withSep(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}
