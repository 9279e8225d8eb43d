/**
 * The persistent scan cache: what a scan derived from each skill file (its metadata with an empty body,
 * its diagnostics, or the error that stopped its parse) kept on disk between processes through the one
 * on-disk store (`disk-cache/`), one file per scan configuration. An entry is used only when the file's
 * stamp now (size, mtime, ctime, inode, device, mode, from the scan's own `stat`) equals the stamp taken
 * before it was read, and, where that stamp is ambiguous (the file changed less than 2 seconds before it
 * was read, or the file system gives no ctime), when the text it was parsed from still has the same SHA-256.
 * The file is untrusted: decoded strictly, bounded, shape-checked record by record (scan-record.ts,
 * record-check.ts); a file that fails is ignored whole with a diagnostic and rewritten by the scan.
 */
import { createHash } from "../crypto-lib.js";
import { diagnostic } from "../diagnostics.js";
import type { Diagnostic } from "../diagnostics.js";
import { defaultCacheDir, diskCacheFile, openDiskCache } from "../disk-cache/store.js";
import type { DiskCacheStore } from "../disk-cache/store.js";
import { decodeStrict } from "../fs/utf8.js";
import { safeParseJson } from "../json/parse-json.js";
import { MAX_SCAN_CACHE_BYTES, MAX_SCAN_CACHE_ENTRIES } from "../limits.js";
import type { CacheEntry, PersistedEntry, PersistedMemo, TextDigest } from "../skill-cache.js";
import type { FileStamp } from "./file-stamp.js";
import { entryOf, holdsProto, isKept, PROTO, recordOf, sameStamp } from "./scan-record.js";

/** The payload format; a change of the record layout or of what a parse yields changes it. */
export const SCAN_CACHE_VERSION = "scan-2";
/** A file changed less than this long before it was read may change again with the same stamp. */
const AMBIGUOUS_MS = 2_000;
const NAME = "scan";

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
   * head or the whole file as the parse did). An entry whose digest matched and whose stamp is no longer
   * ambiguous comes back without its digest (saved so).
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
    if (entry.digest === undefined) return entry;
    try {
      if (sha256(readText(entry.digest.of)) !== entry.digest.sha256) return undefined;
    } catch {
      return undefined;
    }
    // The text is the one parsed, and the stamp, taken before it was read, is no longer ambiguous: the entry is
    // what a parse now would give, without a digest, so the next process need not read the file again.
    if (isAmbiguous(stamp, Date.now())) return entry;
    const { digest: _digest, ambiguous: _ambiguous, ...settled } = entry;
    return settled;
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
      // A digest dropped (lookup): its file is read no more once the file says so.
      if (before.entry.digest !== undefined && entry.digest === undefined) return true;
      same++;
    }
    return same !== this.persisted.size;
  }
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
