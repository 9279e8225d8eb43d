import { mkdir, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { gunzipSync, inflateRawSync } from "node:zlib";
import { checkRelativePath } from "@skillctx/core/internal";

/** Caps of {@link unpackArchive}. */
export interface ArchiveLimits {
  /** Most bytes of all files once unpacked (a decompression bomb stops here). */
  maxUnpackedBytes: number;
  /** Most files. */
  maxFiles: number;
}

/** One file of an archive, checked: a clean relative path and its bytes. */
interface ArchiveFile {
  path: string;
  bytes: Buffer;
  /** Whether the archive marks it executable (any x bit): written 0755, else 0644. */
  executable: boolean;
}

/** What an archive held: its regular files, and the entries left out (links, special files) by path. */
export type ArchiveContents = { ok: true; files: ArchiveFile[]; skipped: string[] } | { ok: false; reason: string };

/**
 * Reads a skill archive of the well-known index (`.tar.gz` or `.zip`, told apart by their first
 * bytes) into memory within caps, without writing anything. The whole archive is refused when an
 * entry's path is absolute, has a `..` segment, a backslash or a NUL, when the caps are passed, when
 * it is zip64 or uses a compression other than stored/deflate, or when `SKILL.md` is not at its root.
 * Symlinks, hard links and special files are left out (listed in `skipped`): the cache holds regular
 * files only.
 */
export function readArchive(bytes: Buffer, limits: ArchiveLimits): ArchiveContents {
  if (bytes.length < 4) return { ok: false, reason: "not a .tar.gz or .zip archive" };
  try {
    if (bytes[0] === 0x1f && bytes[1] === 0x8b)
      return finish(readTar(gunzipSync(bytes, { maxOutputLength: limits.maxUnpackedBytes + 1024 * 1024 }), limits));
    if (bytes.readUInt32LE(0) === 0x04034b50 || bytes.readUInt32LE(0) === 0x06054b50)
      return finish(readZip(bytes, limits));
    return { ok: false, reason: "not a .tar.gz or .zip archive" };
  } catch (error) {
    if (error instanceof ArchiveError) return { ok: false, reason: error.message };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError)
      return { ok: false, reason: `unpacks to more than ${limits.maxUnpackedBytes} bytes` };
    return { ok: false, reason: `cannot be unpacked (${(error as Error).message})` };
  }
}

/** Writes checked archive files below `dir` (which must be a fresh, empty folder). */
export async function writeArchiveFiles(dir: string, files: readonly ArchiveFile[]): Promise<void> {
  for (const file of files) {
    const target = path.join(dir, ...file.path.split("/"));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.bytes, { flag: "wx", mode: file.executable ? 0o755 : 0o644 });
  }
}

class ArchiveError extends Error {}

function finish(contents: { files: ArchiveFile[]; skipped: string[] }): ArchiveContents {
  if (!contents.files.some((f) => f.path === "SKILL.md"))
    return { ok: false, reason: "it has no SKILL.md at its root" };
  return { ok: true, ...contents };
}

class Collector {
  readonly files: ArchiveFile[] = [];
  readonly skipped: string[] = [];
  private readonly seen = new Set<string>();
  private total = 0;
  constructor(private readonly limits: ArchiveLimits) {}

  checkedPath(raw: string): string | undefined {
    const name = raw.replace(/^(?:\.\/)+/, "");
    if (name === "" || name === ".") return undefined;
    const checked = checkRelativePath(name.replace(/\/+$/, ""));
    if (!checked.ok) throw new ArchiveError(`entry ${JSON.stringify(raw.slice(0, 200))}: ${checked.reason}`);
    return checked.path;
  }

  add(raw: string, bytes: Buffer, mode: number): void {
    const file = this.checkedPath(raw);
    if (file === undefined) return;
    if (this.seen.has(file)) throw new ArchiveError(`entry ${file} appears twice`);
    if (this.files.length >= this.limits.maxFiles)
      throw new ArchiveError(`it has more than ${this.limits.maxFiles} files`);
    this.total += bytes.length;
    if (this.total > this.limits.maxUnpackedBytes)
      throw new ArchiveError(`unpacks to more than ${this.limits.maxUnpackedBytes} bytes`);
    this.seen.add(file);
    this.files.push({ path: file, bytes, executable: (mode & 0o111) !== 0 });
  }

  skip(raw: string): void {
    const file = this.checkedPath(raw);
    if (file !== undefined) this.skipped.push(file);
  }
}

// --- tar (ustar, pax and GNU long names) -------------------------------------------------------------

function readTar(tar: Buffer, limits: ArchiveLimits): { files: ArchiveFile[]; skipped: string[] } {
  const out = new Collector(limits);
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = tarSize(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] ?? 0);
    const dataStart = offset + 512;
    if (dataStart + size > tar.length) throw new ArchiveError("the tar archive is cut short");
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    const magic = header.subarray(257, 263).toString("latin1");
    const prefix = magic.startsWith("ustar") ? cString(header.subarray(345, 500)) : "";
    let name =
      longName ?? (prefix === "" ? cString(header.subarray(0, 100)) : `${prefix}/${cString(header.subarray(0, 100))}`);
    longName = undefined;
    if (type === "x") {
      longName = paxPath(data);
      continue;
    }
    if (type === "L") {
      longName = cString(data);
      continue;
    }
    if (type === "g") continue;
    name = name.replace(/\0.*$/s, "");
    if (type === "0" || type === "\0" || type === "7")
      out.add(name, Buffer.from(data), Number.parseInt(cString(header.subarray(100, 108)).trim() || "0", 8) || 0);
    else if (type === "5") out.checkedPath(name);
    else out.skip(name);
  }
  return { files: out.files, skipped: out.skipped };
}

function tarSize(field: Buffer): number {
  if ((field[0]! & 0x80) !== 0) {
    // base-256: a size this large is over any cap anyway
    throw new ArchiveError("a tar entry is too large");
  }
  const text = cString(field).trim();
  const size = text === "" ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveError("a tar header is damaged");
  return size;
}

function paxPath(data: Buffer): string | undefined {
  let found: string | undefined;
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(at, space).toString("latin1"), 10);
    if (!Number.isSafeInteger(length) || length <= 0) throw new ArchiveError("a pax header is damaged");
    const record = data.subarray(space + 1, at + length - 1).toString("utf8");
    if (record.startsWith("path=")) found = record.slice(5);
    at += length;
  }
  return found;
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString("utf8");
}

// --- zip (stored and deflate; no zip64, no encryption) ------------------------------------------------

function readZip(zip: Buffer, limits: ArchiveLimits): { files: ArchiveFile[]; skipped: string[] } {
  const out = new Collector(limits);
  const end = findEndOfCentralDirectory(zip);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new ArchiveError("zip64 archives are not supported");
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50)
      throw new ArchiveError("the zip central directory is damaged");
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const mode = zip.readUInt32LE(at + 38) >>> 16;
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) {
      out.checkedPath(name);
      continue;
    }
    const fileType = mode & 0o170000;
    if (fileType !== 0 && fileType !== 0o100000) {
      out.skip(name);
      continue;
    }
    if ((flags & 1) !== 0) throw new ArchiveError(`entry ${name} is encrypted`);
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50)
      throw new ArchiveError("a zip entry is damaged");
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (dataStart + compressed > zip.length) throw new ArchiveError("the zip archive is cut short");
    const raw = zip.subarray(dataStart, dataStart + compressed);
    if (size > limits.maxUnpackedBytes) throw new ArchiveError(`unpacks to more than ${limits.maxUnpackedBytes} bytes`);
    let bytes: Buffer;
    if (method === 0) bytes = Buffer.from(raw);
    else if (method === 8) bytes = inflateRawSync(raw, { maxOutputLength: Math.max(1, size) });
    else
      throw new ArchiveError(`entry ${name} uses compression method ${method} (only stored and deflate are supported)`);
    if (bytes.length !== size) throw new ArchiveError(`entry ${name} does not have the size its header says`);
    out.add(name, bytes, mode);
  }
  return { files: out.files, skipped: out.skipped };
}

function findEndOfCentralDirectory(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 65_535); at--) {
    if (zip.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw new ArchiveError("no zip end of central directory");
}
