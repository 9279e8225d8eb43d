import { MAX_LOCKFILE_BYTES } from "./limits.js";
import { randomBytes } from "@skillctx/core/internal";
import { rename, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import { compareCodePoints, diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { readTextFile } from "@skillctx/core/internal";
import type { ResolvedRemote } from "./types.js";
import { safeParseJson } from "@skillctx/core/internal";
import { stableStringify } from "./stable-stringify.js";

/** The lockfile's name, at the project root (the context's `cwd`). */
export const LOCKFILE_NAME = "skills.lock.json";

// Built on first use (zod loads then).
const schemas = lazySchemas((z) => {
  const digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);
  /** What one remote source resolved to when the lock was written. */
  const lockedSource = z.object({
    /** The git ref the source named (`HEAD` when none). */
    ref: z.string().optional(),
    /** Git: the commit checked out. */
    commit: z
      .string()
      .regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/)
      .optional(),
    /** URL and MCP sources: the digest of the index (or listing) bytes. */
    revision: digest.optional(),
    /** Each skill's folder digest (`folderDigest` of its files), by skill name. */
    skills: z.record(z.string(), digest),
  });
  /** `skills.lock.json`: format version 1, one entry per source key (`git:<url>#<path>`, `url:<url>`, `mcp:<name>`). */
  const lockfile = z.object({ version: z.literal(1), sources: z.record(z.string(), lockedSource) });
  return { lockedSource, lockfile };
});

/** What one remote source resolved to when the lock was written. */
export type LockedSource = z.infer<ReturnType<typeof schemas>["lockedSource"]>;
/** `skills.lock.json`: format version 1, one entry per source key (`git:<url>#<path>`, `url:<url>`, `mcp:<name>`). */
export type Lockfile = z.infer<ReturnType<typeof schemas>["lockfile"]>;

/** The lock read from disk: its entries, and whether the file existed. */
export interface LoadedLockfile {
  file: string;
  lock: Lockfile;
  exists: boolean;
  diagnostics: Diagnostic[];
}

/**
 * Reads `<cwd>/skills.lock.json` through the one file reader (regular files only, capped). A missing
 * file is an empty lock; an unreadable or invalid one is an empty lock and a `LOCK_INVALID` error
 * (under `frozen` every source is then refused, since none matches).
 */
export async function readLockfile(cwd: string): Promise<LoadedLockfile> {
  const file = path.join(cwd, LOCKFILE_NAME);
  const empty: Lockfile = { version: 1, sources: {} };
  // Contained in the project: a lockfile symlinked out of the repository is refused before it is opened.
  const read = await readTextFile(file, { maxBytes: MAX_LOCKFILE_BYTES, root: cwd });
  if (!read.ok) {
    if (read.code === "NOT_FOUND") return { file, lock: empty, exists: false, diagnostics: [] };
    return {
      file,
      lock: empty,
      exists: true,
      diagnostics: [
        diagnostic("LOCK_INVALID", "error", `${LOCKFILE_NAME} cannot be read: ${read.message}`, { path: file }),
      ],
    };
  }
  const jsonRead = safeParseJson(read.text);
  if (!jsonRead.ok) {
    return {
      file,
      lock: empty,
      exists: true,
      diagnostics: [
        diagnostic("LOCK_INVALID", "error", `${LOCKFILE_NAME} is not JSON: ${jsonRead.error}`, {
          path: file,
        }),
      ],
    };
  }
  const json = jsonRead.value;
  const parsed = schemas().lockfile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? "" : ` at ${issue.path.join(".") || "(root)"}: ${issue.message}`;
    return {
      file,
      lock: empty,
      exists: true,
      diagnostics: [
        diagnostic("LOCK_INVALID", "error", `${LOCKFILE_NAME} is not a version 1 lockfile${where}`, { path: file }),
      ],
    };
  }
  return { file, lock: parsed.data, exists: true, diagnostics: [] };
}

/** The lock entry a resolved source gives. */
export function lockEntryOf(resolved: ResolvedRemote, ref?: string): LockedSource {
  const entry: LockedSource = { skills: Object.fromEntries(resolved.skills.map((s) => [s.name, s.digest])) };
  if (ref !== undefined) entry.ref = ref;
  if (resolved.resolved.commit !== undefined) entry.commit = resolved.resolved.commit;
  if (resolved.resolved.revision !== undefined) entry.revision = resolved.resolved.revision;
  return entry;
}

/**
 * How a resolved source differs from its lock entry, in words, or undefined when it matches. Drift is:
 * a different ref (git), a different commit (git), a skill added or removed, or a skill whose folder
 * digest changed. A different index revision alone (URL, MCP) is not drift: the bytes loaded are the
 * skills' files, and those are compared one by one.
 */
export function lockDrift(locked: LockedSource, resolved: ResolvedRemote, ref?: string): string | undefined {
  if (ref !== undefined && locked.ref !== undefined && locked.ref !== ref)
    return `the ref is ${ref}, the lock has ${locked.ref}`;
  if (
    locked.commit !== undefined &&
    resolved.resolved.commit !== undefined &&
    locked.commit !== resolved.resolved.commit
  ) {
    return `the commit is ${resolved.resolved.commit}, the lock has ${locked.commit}`;
  }
  const now = new Map(resolved.skills.map((s) => [s.name, s.digest]));
  const changes: string[] = [];
  for (const [name, digest] of Object.entries(locked.skills)) {
    const current = now.get(name);
    if (current === undefined) changes.push(`${name} removed`);
    else if (current !== digest) changes.push(`${name} changed`);
  }
  for (const name of now.keys()) if (!(name in locked.skills)) changes.push(`${name} added`);
  return changes.length === 0
    ? undefined
    : `skills differ from the lock: ${changes.sort(compareCodePoints).join(", ")}`;
}

/** The lockfile's text: keys sorted at every level, two-space indent, a trailing newline (stable diffs). */
export function lockfileText(lock: Lockfile): string {
  return `${stableStringify(lock, 2)}\n`;
}

/**
 * Writes the lock when its text changed: a temp file beside it, then a rename, so a reader never sees
 * half a lockfile. Returns whether it wrote.
 */
export async function writeLockfile(cwd: string, lock: Lockfile, previous?: Lockfile): Promise<boolean> {
  const text = lockfileText(lock);
  if (previous !== undefined && lockfileText(previous) === text) return false;
  const file = path.join(cwd, LOCKFILE_NAME);
  const temp = path.join(cwd, `.${LOCKFILE_NAME}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return true;
}

/**
 * Removes the entries whose key is not in `keys` (sources no longer listed), as `npm install` prunes
 * its lock. Returns the keys removed; writes only when something was removed.
 */
export async function pruneLockfile(cwd: string, keys: ReadonlySet<string>): Promise<string[]> {
  const loaded = await readLockfile(cwd);
  if (!loaded.exists || loaded.diagnostics.length > 0) return [];
  const removed = Object.keys(loaded.lock.sources).filter((key) => !keys.has(key));
  if (removed.length === 0) return [];
  const kept: Lockfile = {
    version: 1,
    sources: Object.fromEntries(Object.entries(loaded.lock.sources).filter(([key]) => keys.has(key))),
  };
  await writeLockfile(cwd, kept);
  return removed.sort(compareCodePoints);
}
