/**
 * One record of the persistent scan cache's file: what a scan derived from one skill file, as JSON, and
 * back. A record names its file's absolute path once: where the skill repeats it (`source.path`, the
 * record's and the skill's `dir`), the record holds `""` in its place, which keeps the key where it was
 * (a skill's key order shows in its JSON) and makes the file about a quarter smaller, so less to check,
 * parse and collect in the process that reads it (docs/decisions.md, issue 36). `""` is read so only in
 * those three places.
 */
import * as path from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { SkillctxError } from "../errors.js";
import type { CacheEntry, PersistedEntry, TextDigest } from "../skill-cache.js";
import type { Skill } from "../skill.js";
import type { FileStamp } from "./file-stamp.js";
import { isDiagnosticRecord, isErrorRecord, isScannedSkillMeta } from "./record-check.js";

/** The quoted key no record may hold: a copy key by key would set an object's prototype. */
export const PROTO = '"__proto__"';
/**
 * Where a record's value is the one its path gives (the file's path, or its folder). A string, so that the
 * objects JSON.parse makes keep one field type (a number there made V8 migrate every skill object's shape
 * as the path went back in); a path is never empty, and a record whose path or folder is empty is not kept.
 */
const SAME = "";

const STAMP_FIELDS = ["size", "mtimeMs", "ctimeMs", "ino", "dev", "mode"] as const;

/**
 * The JSON record of an entry, or undefined when it cannot be kept exactly (no full stamp, an ambiguous
 * stamp without a digest, or a value JSON would not give back as it is).
 */
export function recordOf(file: string, entry: CacheEntry): Record<string, unknown> | undefined {
  const { stamp } = entry;
  if (stamp === undefined || STAMP_FIELDS.some((f) => typeof stamp[f] !== "number")) return undefined;
  if (entry.ambiguous === true && entry.digest === undefined) return undefined;
  if (
    entry.dir === SAME ||
    (entry.result.ok && (entry.result.meta.dir === SAME || entry.result.meta.source.path === SAME))
  )
    return undefined;
  const result = entry.result.ok
    ? { ok: true, meta: entry.result.meta, diagnostics: entry.result.diagnostics }
    : { ok: false, error: errorRecord(entry.result.error) };
  const record = {
    path: file,
    stamp: STAMP_FIELDS.map((f) => stamp[f]),
    format: entry.format,
    ...(entry.root !== undefined && { root: entry.root }),
    ...(entry.dir !== undefined && { dir: entry.dir }),
    ...(entry.digest !== undefined && { digest: entry.digest }),
    result,
  };
  return jsonExact(record, 0) ? compact(record) : undefined;
}

/** Whether the file keeps `entry` (a scan saves it): {@link recordOf} gives a record, and it holds no quoted `__proto__`. */
export function isKept(file: string, entry: CacheEntry): boolean {
  const record = recordOf(file, entry);
  return record !== undefined && !holdsProto(record);
}

/** Whether `record` holds a quoted `__proto__` (the loader refuses a file holding one). */
export function holdsProto(record: unknown): boolean {
  return JSON.stringify(record).includes(PROTO);
}

/** The entry of a parsed record, keyed by its path, or undefined when the record is malformed. */
export function entryOf(value: unknown): [string, PersistedEntry] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const { path: file, stamp, format, root, digest, result } = r;
  if (typeof file !== "string" || (format !== "skill-md" && format !== "legacy")) return undefined;
  const dir = r["dir"] === SAME && format === "skill-md" ? folderOf(file) : r["dir"];
  if (!Array.isArray(stamp) || stamp.length !== 6 || !stamp.every((n) => typeof n === "number")) return undefined;
  if ((root !== undefined && typeof root !== "string") || (dir !== undefined && typeof dir !== "string"))
    return undefined;
  if (digest !== undefined && !isDigest(digest)) return undefined;
  if (typeof result !== "object" || result === null) return undefined;
  const res = result as Record<string, unknown>;
  let entryResult: CacheEntry["result"];
  if (res["ok"] === true) {
    const { meta, diagnostics } = res;
    expand(meta, file, dir);
    if (!isScannedSkillMeta(meta) || !Array.isArray(diagnostics) || !diagnostics.every(isDiagnosticRecord))
      return undefined;
    entryResult = { ok: true, meta: meta as Skill, diagnostics: diagnostics as Diagnostic[] };
  } else if (res["ok"] === false && isErrorRecord(res["error"])) {
    const e = res["error"] as { code: SkillctxError["code"]; message: string; path?: string; line?: number };
    const where: { path?: string; line?: number } = {};
    if (e.path !== undefined) where.path = e.path;
    if (e.line !== undefined) where.line = e.line;
    entryResult = { ok: false, error: new SkillctxError(e.code, e.message, where) };
  } else {
    return undefined;
  }
  const [size, mtimeMs, ctimeMs, ino, dev, mode] = stamp as number[];
  const full = { size: size!, mtimeMs: mtimeMs!, ctimeMs: ctimeMs!, ino: ino!, dev: dev!, mode: mode! };
  const entry: CacheEntry = {
    size: full.size,
    mtimeMs: full.mtimeMs,
    format,
    root: root as string | undefined,
    dir: dir as string | undefined,
    result: entryResult,
    stamp: full,
  };
  if (digest !== undefined) entry.digest = digest as TextDigest;
  return [file, { stamp: full, entry }];
}

/** Whether a stamp taken now (`b`) is the persisted one (`a`), all six fields. */
export function sameStamp(a: Required<FileStamp>, b: FileStamp): boolean {
  return (
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.dev === b.dev &&
    a.mode === b.mode
  );
}

// The record with `""` where the skill repeats the file's path or folder (copies: the skill object is the cache's).
function compact(record: {
  path: string;
  dir?: string;
  result: { ok: boolean; meta?: Skill };
}): Record<string, unknown> {
  const out: Record<string, unknown> = { ...record };
  const { dir } = record;
  if (dir !== undefined && folderOf(record.path) === dir) out["dir"] = SAME;
  const meta = record.result.meta;
  if (meta === undefined) return out;
  const skill: Record<string, unknown> = { ...meta };
  if (meta.source.path === record.path) skill["source"] = { ...meta.source, path: SAME };
  if (dir !== undefined && meta.dir === dir) skill["dir"] = SAME;
  out["result"] = { ...record.result, meta: skill };
  return out;
}

// Puts back, in place, what {@link compact} left out of a parsed skill (only where it holds `""`).
function expand(meta: unknown, file: string, dir: unknown): void {
  if (typeof meta !== "object" || meta === null) return;
  const skill = meta as Record<string, unknown>;
  const source = skill["source"];
  if (typeof source === "object" && source !== null && (source as Record<string, unknown>)["path"] === SAME)
    (source as Record<string, unknown>)["path"] = file;
  if (skill["dir"] === SAME && typeof dir === "string") skill["dir"] = dir;
}

// The file's folder as a record's "" stands for it, written and read alike: the path up to its last separator
// (cheaper than path.dirname, which a cold process runs uncompiled once per record; only the file's folder, which
// the walk made by appending the file's name, is ever written as "").
function folderOf(file: string): string {
  return file.slice(0, file.lastIndexOf(path.sep));
}

function errorRecord(error: SkillctxError): Record<string, unknown> {
  return {
    code: error.code,
    message: error.message,
    ...(error.path !== undefined && { path: error.path }),
    ...(error.line !== undefined && { line: error.line }),
  };
}

// Whether JSON gives `value` back as it is: plain objects and arrays, finite numbers other than -0, no
// `undefined` anywhere (an absent key and an undefined one differ to `in` and `Object.keys`).
function jsonExact(value: unknown, depth: number): boolean {
  if (depth > 64) return false;
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !jsonExact(value[i], depth + 1)) return false;
        return true;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key of Object.keys(value)) {
        if (key === "__proto__" || !jsonExact((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function isDigest(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { of, sha256: hex, ...rest } = value as Record<string, unknown>;
  return (
    (of === "head" || of === "whole") &&
    typeof hex === "string" &&
    /^[0-9a-f]{64}$/.test(hex) &&
    Object.keys(rest).length === 0
  );
}
