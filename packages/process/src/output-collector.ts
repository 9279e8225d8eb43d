/** Options of {@link OutputCollector}. */
export interface OutputCollectorOptions {
  /** Keep the bytes (false: only count them, for a caller that streams them on). @default true */
  keep?: boolean | undefined;
}

/**
 * Collects a stream's bytes up to a limit and drops the rest, so a command that prints without end costs at
 * most `limit` bytes (plus the chunk being read).
 */
export class OutputCollector {
  readonly #chunks: Buffer[] = [];
  readonly #keep: boolean;
  #size = 0;
  #full = false;

  constructor(
    readonly limit: number,
    options: OutputCollectorOptions = {},
  ) {
    this.#keep = options.keep ?? true;
  }

  /** True once more than `limit` bytes arrived. */
  get truncated(): boolean {
    return this.#full;
  }

  /** Bytes taken so far (at most `limit`). */
  get size(): number {
    return this.#size;
  }

  /**
   * Adds a chunk; returns the part of it that was taken (all of it while there is room, then the part that
   * fits, then nothing). `truncated` turns true once a byte had to be dropped.
   */
  push(chunk: Buffer | string): Buffer {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    if (this.#full) return EMPTY;
    const room = this.limit - this.#size;
    if (bytes.length <= room) {
      if (this.#keep) this.#chunks.push(bytes);
      this.#size += bytes.length;
      return bytes;
    }
    // Copy the kept part so the large chunk it came from can be freed.
    const head = Buffer.from(bytes.subarray(0, Math.max(0, room)));
    if (this.#keep && head.length > 0) this.#chunks.push(head);
    this.#size = this.limit;
    this.#full = true;
    return head;
  }

  /** The collected text; when truncated, cut back so no UTF-8 character is split. */
  text(): string {
    const all = Buffer.concat(this.#chunks);
    return (this.#full ? all.subarray(0, utf8Boundary(all)) : all).toString("utf8");
  }
}

const EMPTY = Buffer.alloc(0);

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
  const head = bytes.subarray(0, Math.max(0, maxBytes));
  return { text: head.subarray(0, utf8Boundary(head)).toString("utf8"), cut: true };
}
