/**
 * Collects a stream's bytes up to a limit and drops the rest, so a command that prints without end costs at
 * most `limit` bytes (plus the chunk being read).
 */
export class OutputCollector {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #full = false;

  constructor(readonly limit: number) {}

  /** True once more than `limit` bytes arrived. */
  get truncated(): boolean {
    return this.#full;
  }

  /** Adds a chunk; returns false once the limit is passed (the caller may stop the producer). */
  push(chunk: Buffer | string): boolean {
    if (this.#full) return false;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    const room = this.limit - this.#size;
    if (bytes.length <= room) {
      this.#chunks.push(bytes);
      this.#size += bytes.length;
      return true;
    }
    // Copy the kept part so the large chunk it came from can be freed.
    if (room > 0) this.#chunks.push(Buffer.from(bytes.subarray(0, room)));
    this.#size = this.limit;
    this.#full = true;
    return false;
  }

  /** The collected text; when truncated, cut back so no UTF-8 character is split. */
  text(): string {
    const all = Buffer.concat(this.#chunks, this.#size);
    return (this.#full ? all.subarray(0, utf8Boundary(all)) : all).toString("utf8");
  }
}

/** Length of the longest prefix of `bytes` that does not end inside a multi-byte UTF-8 sequence. */
export function utf8Boundary(bytes: Uint8Array): number {
  const length = bytes.length;
  for (let back = 1; back <= Math.min(4, length); back++) {
    const byte = bytes[length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead byte
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? length - back : length;
  }
  return length;
}

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character; says whether it cut. */
export function capUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return { text, cut: false };
  const head = bytes.subarray(0, maxBytes);
  return { text: head.subarray(0, utf8Boundary(head)).toString("utf8"), cut: true };
}
