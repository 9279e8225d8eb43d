/**
 * The header of an on-disk cache file: what the file claims to be, checked before its payload is
 * handed to a caller. Layout (integers little-endian):
 *
 *   magic "SKCTXDC\n" (8 bytes) · store format (uint16) · skillctx version (uint8 length + UTF-8) ·
 *   caller version (uint8 + UTF-8) · name (uint8 + UTF-8) · scope (uint16 + UTF-8) ·
 *   payload length (uint32) · payload checksum (MurmurHash3 x86 32, uint32, checksum.ts) · payload
 *
 * The name and scope are kept whole (the file name holds only a hash of the scope), so a file copied
 * or renamed to another scope's place is refused rather than read as that scope's.
 */
import { murmur3 } from "./checksum.js";

/** The store's own format; a change of this layout changes it. */
export const STORE_FORMAT = 2;
const MAGIC = Buffer.from("SKCTXDC\n", "latin1");
const CHECKSUM_BYTES = 4;
/** Most bytes a header can take (every length field at its maximum). */
export const MAX_HEADER_BYTES = MAGIC.length + 2 + (1 + 255) * 3 + (2 + 65_535) + 4 + CHECKSUM_BYTES;

/** What a header must say for its payload to be read. */
export interface HeaderFields {
  skillctxVersion: string;
  version: string;
  name: string;
  scope: string;
}

/** Why a file's header or payload was refused; `foreign` is a cache of another version (not damage). */
export type Refusal = { ok: false; kind: "damaged" | "foreign"; reason: string };

/** The file's bytes: header then payload. Throws a RangeError when a field is longer than its length field allows. */
export function encodeCacheFile(fields: HeaderFields, payload: Uint8Array): Buffer {
  const parts: Buffer[] = [MAGIC, uint(2, STORE_FORMAT)];
  for (const text of [fields.skillctxVersion, fields.version, fields.name]) parts.push(...field(1, text));
  parts.push(...field(2, fields.scope));
  parts.push(uint(4, payload.length), uint(4, murmur3(payload)), Buffer.from(payload));
  return Buffer.concat(parts);
}

/** The payload of `file` when its header says exactly `expected` and its checksum holds; a refusal otherwise. */
export function decodeCacheFile(file: Buffer, expected: HeaderFields): { ok: true; payload: Uint8Array } | Refusal {
  const reader = new Reader(file);
  const magic = reader.bytes(MAGIC.length);
  if (magic === undefined || !magic.equals(MAGIC)) return damaged("it is not a skillctx cache file (no magic)");
  const format = reader.uint(2);
  if (format === undefined) return damaged("its header is truncated");
  if (format !== STORE_FORMAT) return foreign(`its store format is ${format}, this skillctx writes ${STORE_FORMAT}`);
  const skillctxVersion = reader.text(1);
  const version = reader.text(1);
  const name = reader.text(1);
  const scope = reader.text(2);
  const length = reader.uint(4);
  const checksum = reader.uint(CHECKSUM_BYTES);
  if (
    skillctxVersion === undefined ||
    version === undefined ||
    name === undefined ||
    scope === undefined ||
    length === undefined ||
    checksum === undefined
  ) {
    return damaged("its header is truncated");
  }
  if (skillctxVersion !== expected.skillctxVersion) {
    return foreign(`it was written by skillctx ${quoted(skillctxVersion)}, this is ${expected.skillctxVersion}`);
  }
  if (version !== expected.version) return foreign(`its format is ${quoted(version)}, expected ${expected.version}`);
  if (name !== expected.name || scope !== expected.scope) {
    return damaged(`it claims to be the ${quoted(name)} cache of ${quoted(scope)}`);
  }
  const rest = file.length - reader.offset;
  if (length !== rest) return damaged(`its header gives ${length} payload bytes, the file holds ${rest}`);
  const payload = file.subarray(reader.offset);
  if (murmur3(payload) !== checksum) return damaged("its payload fails its checksum");
  return { ok: true, payload };
}

function damaged(reason: string): Refusal {
  return { ok: false, kind: "damaged", reason };
}

function foreign(reason: string): Refusal {
  return { ok: false, kind: "foreign", reason };
}

// A value read from the file, shown in a message: JSON-quoted (no control characters) and cut.
function quoted(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function uint(bytes: 1 | 2 | 4, value: number): Buffer {
  const out = Buffer.alloc(bytes);
  out.writeUIntLE(value, 0, bytes);
  return out;
}

function field(lengthBytes: 1 | 2, text: string): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length >= 2 ** (8 * lengthBytes))
    throw new RangeError(`disk cache header field too long: ${bytes.length} bytes`);
  return [uint(lengthBytes, bytes.length), bytes];
}

/** Reads fields off a buffer; each read is undefined past the end. */
class Reader {
  offset = 0;
  constructor(private readonly buffer: Buffer) {}

  bytes(count: number): Buffer | undefined {
    if (this.offset + count > this.buffer.length) return undefined;
    const out = this.buffer.subarray(this.offset, this.offset + count);
    this.offset += count;
    return out;
  }

  uint(count: 1 | 2 | 4): number | undefined {
    const bytes = this.bytes(count);
    return bytes?.readUIntLE(0, count);
  }

  text(lengthBytes: 1 | 2): string | undefined {
    const length = this.uint(lengthBytes);
    if (length === undefined) return undefined;
    return this.bytes(length)?.toString("utf8");
  }
}
