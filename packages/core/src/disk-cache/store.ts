/**
 * The one owner of the files skillctx keeps between processes (the persistent scan cache, the persisted
 * search index). A cache file is untrusted input: it is read only when it is a regular file of this user,
 * writable by no one else, within the caller's cap, of this store format, skillctx version and caller
 * version, made for the same name and scope, and its payload matches its checksum. Anything else is ignored
 * with a `DISK_CACHE_IGNORED` diagnostic (and the caller rewrites it). Callers still parse the payload
 * through a schema: the checks here say the file is ours and whole, not that its content is sound.
 */
import { constants } from "node:fs";
import type { Stats } from "node:fs";
import { mkdir, open, rename, unlink } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import * as path from "node:path";
import { randomBytes } from "../crypto-lib.js";
import { hexKey } from "./checksum.js";
import { diagnostic } from "../diagnostics.js";
import type { Diagnostic, Severity } from "../diagnostics.js";
import type { DiagnosticCode } from "../diagnostic-codes.js";
import { errorText } from "../error-text.js";
import { errorCode, fileTypeOf } from "../fs/open-file.js";
import { SKILLCTX_VERSION } from "../version.js";
import { decodeCacheFile, encodeCacheFile, MAX_HEADER_BYTES } from "./header.js";
import type { HeaderFields } from "./header.js";
import { defaultCacheDir } from "./cache-dir.js";

export { defaultCacheDir } from "./cache-dir.js";

/** Bytes kept between processes, one file per (name, scope). Never throws. */
export interface DiskCacheStore {
  /**
   * The bytes kept under `name` ("scan", "search-index", ...) for `scope` (an absolute project/skill root), or
   * undefined when absent, unreadable, not a regular file, owned by another user, writable by group/others,
   * over `maxBytes`, of another format/skillctx version, or failing its integrity check; every case but "absent"
   * reports a diagnostic (code DISK_CACHE_IGNORED) through onDiagnostic. Never throws.
   */
  read(name: string, scope: string): Promise<Uint8Array | undefined>;
  /**
   * Keeps `bytes` atomically (temp file in the same folder + rename), folder 0700, file 0600. Never throws;
   * a failure is a diagnostic (DISK_CACHE_WRITE_FAILED).
   */
  write(name: string, scope: string, bytes: Uint8Array): Promise<void>;
}

/** Options of {@link openDiskCache}. */
export interface DiskCacheOptions {
  /** The cache folder. @default defaultCacheDir() */
  dir?: string;
  /** The caller's format version; skillctx's own version is added by the store. */
  version: string;
  /** Largest payload read or written, in bytes (a cap from the caller's limits.ts). */
  maxBytes: number;
  /** Where ignored files and failed writes are reported. */
  onDiagnostic?: (d: Diagnostic) => void;
}

/** The file kept for (name, scope) in `dir`: `<dir>/<name>-<16 hex of the scope's hash (checksum.ts)>.bin`. */
export function diskCacheFile(dir: string, name: string, scope: string): string {
  const key = hexKey(scope);
  return path.join(dir, `${name}-${key}.bin`);
}

/** Opens the store in `options.dir` (nothing is touched until the first read or write). */
export function openDiskCache(options: DiskCacheOptions): DiskCacheStore {
  return new FileStore(options);
}

// Names are fixed by skillctx's own code ("scan", "search-index"): a file-name-safe word.
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const READ_FLAGS =
  constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
// Mode and owner checks mean nothing on Windows (Node reports 0o666 and uid 0 there).
const POSIX = process.platform !== "win32";

class FileStore implements DiskCacheStore {
  private readonly dir: string;
  private readonly version: string;
  private readonly maxBytes: number;
  private readonly onDiagnostic: ((d: Diagnostic) => void) | undefined;

  constructor(options: DiskCacheOptions) {
    this.dir = options.dir ?? defaultCacheDir();
    this.version = options.version;
    this.maxBytes = options.maxBytes;
    this.onDiagnostic = options.onDiagnostic;
  }

  async read(name: string, scope: string): Promise<Uint8Array | undefined> {
    if (!NAME.test(name)) {
      this.report("DISK_CACHE_IGNORED", "warning", `cache name ${JSON.stringify(name)} is not a file-name-safe word`);
      return undefined;
    }
    const file = diskCacheFile(this.dir, name, scope);
    const ignore = (why: string, severity: Severity = "warning"): undefined => {
      this.report("DISK_CACHE_IGNORED", severity, `cache file ignored (it will be rewritten): ${why}`, file);
      return undefined;
    };
    let handle: FileHandle;
    try {
      handle = await open(file, READ_FLAGS);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      if (code === "ELOOP" || code === "EMLINK") return ignore("it is a symlink");
      if (code === "ENXIO" || code === "ENODEV" || code === "EOPNOTSUPP") return ignore("it is not a regular file");
      return ignore(`it cannot be opened: ${code ?? errorText(error)}`);
    }
    try {
      const stats = await handle.stat();
      const refusal = this.refuseStats(stats);
      if (refusal !== undefined) return ignore(refusal);
      const bytes = await readAtMost(handle, this.maxBytes + MAX_HEADER_BYTES, stats.size);
      if (bytes === undefined) return ignore(`it is larger than ${this.maxBytes} bytes of payload`);
      const decoded = decodeCacheFile(bytes, this.fields(name, scope));
      if (!decoded.ok) return ignore(decoded.reason, decoded.kind === "foreign" ? "info" : "warning");
      return decoded.payload;
    } catch (error) {
      return ignore(`it cannot be read: ${errorText(error)}`);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  async write(name: string, scope: string, bytes: Uint8Array): Promise<void> {
    const fail = (why: string, file?: string) =>
      this.report("DISK_CACHE_WRITE_FAILED", "warning", `cache not written: ${why}`, file);
    if (!NAME.test(name)) return fail(`cache name ${JSON.stringify(name)} is not a file-name-safe word`);
    const file = diskCacheFile(this.dir, name, scope);
    if (bytes.length > this.maxBytes) return fail(`${bytes.length} bytes is over the cap of ${this.maxBytes}`, file);
    const temp = path.join(this.dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
    let handle: FileHandle | undefined;
    try {
      const content = encodeCacheFile(this.fields(name, scope), bytes);
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      handle = await open(temp, WRITE_FLAGS, 0o600);
      await handle.writeFile(content);
      await handle.close();
      handle = undefined;
      await rename(temp, file);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      fail(errorText(error), file);
    }
  }

  private fields(name: string, scope: string): HeaderFields {
    return { skillctxVersion: SKILLCTX_VERSION, version: this.version, name, scope };
  }

  // Why a file's stats (of the open handle) rule it out, if they do.
  private refuseStats(stats: Stats): string | undefined {
    if (!stats.isFile()) return `it is a ${fileTypeOf(stats)}, not a regular file`;
    if (POSIX) {
      const uid = process.getuid?.();
      if (uid !== undefined && stats.uid !== uid) return `it is owned by another user (uid ${stats.uid})`;
      if ((stats.mode & 0o022) !== 0)
        return `it is writable by group or others (mode ${(stats.mode & 0o777).toString(8)})`;
    }
    if (stats.size > this.maxBytes + MAX_HEADER_BYTES) return `it is larger than ${this.maxBytes} bytes of payload`;
    return undefined;
  }

  private report(code: DiagnosticCode, severity: Severity, message: string, file?: string): void {
    try {
      this.onDiagnostic?.(diagnostic(code, severity, message, { path: file }));
    } catch {
      // A listener that throws must not make the store throw.
    }
  }
}

/** The whole content of `handle`, or undefined when it holds more than `limit` bytes (it may grow while read). */
async function readAtMost(handle: FileHandle, limit: number, expected: number): Promise<Buffer | undefined> {
  // One buffer of the size the file had when opened, and one byte more to see it grow: no copy of a
  // 1 MB cache file when it did not change meanwhile (the usual case).
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(expected, 0), limit) + 1);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      if (total > limit) return undefined;
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
      buffer.copy(grown, 0, 0, total);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    if (total > limit) return undefined;
  }
  return buffer.subarray(0, total);
}
