/**
 * The persistent scan cache: what a scan derived from each skill file (its metadata with an empty body,
 * its diagnostics, or the error that stopped its parse) kept on disk between processes through the one
 * on-disk store (`disk-cache/`), one file per scan configuration. An entry is used only when the file's
 * stamp now (size, mtime, ctime, inode, device, mode, from the scan's own `stat`) equals the stamp taken
 * before it was read, and, where that stamp is ambiguous (the file changed less than 2 seconds before it
 * was read, or the file system gives no ctime), when the text it was parsed from still has the same SHA-256.
 * The file is untrusted: decoded strictly, bounded, shape-checked record by record (record-check.ts); a
 * file that fails is ignored whole with a diagnostic and rewritten by the scan.
 */
import { createHash } from "../crypto-lib.js";
import { diagnostic } from "../diagnostics.js";
import type { Diagnostic } from "../diagnostics.js";
import { defaultCacheDir, diskCacheFile, openDiskCache } from "../disk-cache/store.js";
import type { DiskCacheStore } from "../disk-cache/store.js";
import { SkillctxError } from "../errors.js";
import { decodeStrict } from "../fs/utf8.js";
import { safeParseJson } from "../json/parse-json.js";
import { MAX_SCAN_CACHE_BYTES, MAX_SCAN_CACHE_ENTRIES } from "../limits.js";
import type { CacheEntry, PersistedEntry, PersistedMemo, TextDigest } from "../skill-cache.js";
import type { Skill } from "../skill.js";
import type { FileStamp } from "./file-stamp.js";
import { isDiagnosticRecord, isErrorRecord, isScannedSkillMeta } from "./record-check.js";

/** The payload format; a change of the record layout or of what a parse yields changes it. */
export const SCAN_CACHE_VERSION = "scan-1";
/** A file changed less than this long before it was read may change again with the same stamp. */
const AMBIGUOUS_MS = 2_000;
const NAME = "scan";
const PROTO = '"__proto__"';

/** Where a scan keeps its cache: `dir` (default: `defaultCacheDir()`), its findings going to `report`. */
export interface PersistentScanOptions {
  dir?: string | undefined;
  report: (d: Diagnostic) => void;
}

/** One scan's view of its persistent cache: loaded before the walk, saved after it when anything changed. */
export class PersistentScan {
  private readonly kept = new Map<string, CacheEntry>();

  private constructor(
    private readonly store: DiskCacheStore,
    private readonly scope: string,
    private readonly persisted: Map<string, PersistedEntry>,
    private readonly memo: PersistedMemo,
  ) {}

  /**
   * The cache of the scan configuration `scope`: what this process last read or wrote for it (`memo`), else
   * the file; an absent or refused file is an empty cache.
   */
  static async open(
    scope: string,
    memory: { memo: PersistedMemo; readsDisk: boolean },
    options: PersistentScanOptions,
  ): Promise<PersistentScan> {
    const { memo } = memory;
    const store = openDiskCache({
      dir: options.dir,
      version: SCAN_CACHE_VERSION,
      maxBytes: MAX_SCAN_CACHE_BYTES,
      onDiagnostic: options.report,
    });
    const known = memo.get(scope);
    if (known !== undefined) return new PersistentScan(store, scope, known, memo);
    const bytes = memory.readsDisk ? await store.read(NAME, scope) : undefined;
    let persisted = new Map<string, PersistedEntry>();
    if (bytes !== undefined) {
      const decoded = decodePayload(bytes);
      if (typeof decoded === "string") {
        const message = `cache file ignored (it will be rewritten): the scan cache ${decoded}`;
        options.report(
          diagnostic("DISK_CACHE_IGNORED", "warning", message, {
            path: diskCacheFile(options.dir ?? defaultCacheDir(), NAME, scope),
          }),
        );
      } else {
        persisted = decoded;
      }
    }
    return new PersistentScan(store, scope, persisted, memo);
  }

  /** Whether the walk should `stat` this path rather than read it (the cache may hold it). */
  has(path: string): boolean {
    return this.persisted.has(path);
  }

  /**
   * The persisted entry of `path` when the file is still the one it was made from: same stamp (all six
   * fields), same parse options, and for an ambiguous stamp the same text digest (`readText` reads the
   * head or the whole file as the parse did).
   */
  lookup(
    path: string,
    stamp: FileStamp,
    options: { format: CacheEntry["format"]; root?: string | undefined; dir?: string | undefined },
    readText: (of: TextDigest["of"]) => string,
  ): CacheEntry | undefined {
    const found = this.persisted.get(path);
    if (found === undefined || !sameStamp(found.stamp, stamp)) return undefined;
    const { entry } = found;
    if (entry.format !== options.format || entry.root !== options.root || entry.dir !== options.dir) return undefined;
    if (entry.digest !== undefined) {
      try {
        if (sha256(readText(entry.digest.of)) !== entry.digest.sha256) return undefined;
      } catch {
        return undefined;
      }
    }
    return entry;
  }

  /** Records the entry the scan used for `path` (to be saved). */
  keep(path: string, entry: CacheEntry): void {
    this.kept.set(path, entry);
  }

  /** Writes the entries of this scan when they differ from what was persisted: a new, changed or gone file. */
  async save(): Promise<void> {
    if (!this.changed()) {
      this.memo.set(this.scope, this.persisted);
      return;
    }
    let records: unknown[] = [];
    // What this process remembers holds every entry with a stamp, those the file cannot keep too.
    const next = new Map<string, PersistedEntry>();
    for (const [path, entry] of this.kept) {
      if (entry.stamp === undefined) continue;
      next.set(path, { stamp: entry.stamp as Required<FileStamp>, entry });
      const record = recordOf(path, entry);
      if (record !== undefined) records.push(record);
    }
    this.memo.set(this.scope, next);
    if (records.length > MAX_SCAN_CACHE_ENTRIES) return;
    let text = JSON.stringify({ entries: records });
    // A quoted `__proto__`, key or value, makes the loader refuse the whole file: such records are not kept.
    if (text.includes(PROTO)) {
      records = records.filter((r) => !holdsProto(r));
      text = JSON.stringify({ entries: records });
    }
    await this.store.write(NAME, this.scope, new TextEncoder().encode(text));
  }

  // Whether the entries this scan used differ from the persisted ones: a file new, changed or gone.
  private changed(): boolean {
    let same = 0;
    for (const [path, entry] of this.kept) {
      const before = this.persisted.get(path);
      if (before === undefined) {
        // A file the cache cannot keep (recordOf) is no change: otherwise every process would rewrite the cache.
        if (isKept(path, entry)) return true;
        continue;
      }
      if (before.entry !== entry && (entry.stamp === undefined || !sameStamp(before.stamp, entry.stamp))) return true;
      if (!sameOptions(before.entry, entry)) return true;
      same++;
    }
    return same !== this.persisted.size;
  }
}

// Whether the file keeps `entry` (save writes it): a full stamp, a value JSON gives back exactly, no quoted `__proto__`.
function isKept(path: string, entry: CacheEntry): boolean {
  const record = recordOf(path, entry);
  return record !== undefined && !holdsProto(record);
}

function holdsProto(record: unknown): boolean {
  return JSON.stringify(record).includes(PROTO);
}

function sameOptions(a: CacheEntry, b: CacheEntry): boolean {
  return a.format === b.format && a.root === b.root && a.dir === b.dir;
}

/** Whether a file stamped `stamp`, read at `readAtMs`, may change again without its stamp changing. */
export function isAmbiguous(stamp: FileStamp, readAtMs: number): boolean {
  if (stamp.ctimeMs === undefined || stamp.ctimeMs === 0) return true;
  return readAtMs - Math.max(stamp.mtimeMs, stamp.ctimeMs) < AMBIGUOUS_MS;
}

/** The digest of a parsed text, for {@link TextDigest}. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

// --- records ---------------------------------------------------------------------------------------

function sameStamp(a: Required<FileStamp>, b: FileStamp): boolean {
  return (
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.dev === b.dev &&
    a.mode === b.mode
  );
}

const STAMP_FIELDS = ["size", "mtimeMs", "ctimeMs", "ino", "dev", "mode"] as const;

// The JSON record of an entry, or undefined when it cannot be kept exactly (no full stamp, an ambiguous
// stamp without a digest, or a value JSON would not give back as it is).
function recordOf(path: string, entry: CacheEntry): unknown {
  const { stamp } = entry;
  if (stamp === undefined || STAMP_FIELDS.some((f) => typeof stamp[f] !== "number")) return undefined;
  if (entry.ambiguous === true && entry.digest === undefined) return undefined;
  const result = entry.result.ok
    ? { ok: true, meta: entry.result.meta, diagnostics: entry.result.diagnostics }
    : { ok: false, error: errorRecord(entry.result.error) };
  const record = {
    path,
    stamp: STAMP_FIELDS.map((f) => stamp[f]),
    format: entry.format,
    ...(entry.root !== undefined && { root: entry.root }),
    ...(entry.dir !== undefined && { dir: entry.dir }),
    ...(entry.digest !== undefined && { digest: entry.digest }),
    result,
  };
  return jsonExact(record, 0) ? record : undefined;
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

// The entries of a payload, or why it is refused.
function decodePayload(bytes: Uint8Array): Map<string, PersistedEntry> | string {
  const text = decodeStrict(bytes);
  if (!text.ok) return "is not UTF-8";
  // No object of a record may own a `__proto__` key (a copy key by key would set its prototype): the scan never
  // writes the word quoted (recordOf), so a file holding it was not written by a scan.
  if (text.text.includes(PROTO)) return "holds a __proto__ key";
  const parsed = safeParseJson(text.text);
  if (!parsed.ok) return `is not JSON (${parsed.error})`;
  const value = parsed.value;
  if (typeof value !== "object" || value === null || !Array.isArray((value as { entries?: unknown }).entries))
    return "has no entries list";
  const list = (value as { entries: unknown[] }).entries;
  if (list.length > MAX_SCAN_CACHE_ENTRIES) return `has ${list.length} entries, over ${MAX_SCAN_CACHE_ENTRIES}`;
  const entries = new Map<string, PersistedEntry>();
  for (let i = 0; i < list.length; i++) {
    const entry = entryOf(list[i]);
    if (entry === undefined) return `has a malformed entry (#${i + 1})`;
    entries.set(entry[0], entry[1]);
  }
  return entries;
}

function entryOf(value: unknown): [string, PersistedEntry] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const { path, stamp, format, root, dir, digest, result } = r;
  if (typeof path !== "string" || (format !== "skill-md" && format !== "legacy")) return undefined;
  if (!Array.isArray(stamp) || stamp.length !== 6 || !stamp.every((n) => typeof n === "number")) return undefined;
  if ((root !== undefined && typeof root !== "string") || (dir !== undefined && typeof dir !== "string"))
    return undefined;
  if (digest !== undefined && !isDigest(digest)) return undefined;
  if (typeof result !== "object" || result === null) return undefined;
  const res = result as Record<string, unknown>;
  let entryResult: CacheEntry["result"];
  if (res["ok"] === true) {
    const { meta, diagnostics } = res;
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
  return [path, { stamp: full, entry }];
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
