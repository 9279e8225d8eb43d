/**
 * MurmurHash3 (x86, 32-bit; Austin Appleby's public-domain reference, `MurmurHash3_x86_32` in
 * https://github.com/aappleby/smhasher/blob/master/src/MurmurHash3.cpp) over bytes: the disk cache's
 * check that a file is whole, and the key in its file names. Not a cryptographic hash: whoever can write
 * the cache folder can write any file there (the store refuses files other users could write); the
 * checksum catches a torn or damaged file. `node:crypto` costs more to load in a fresh process (about
 * 10 ms on Node 20) than the scan cache saves on 1,000 skills; this needs no module.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

/** MurmurHash3_x86_32 of `bytes` with `seed`, as an unsigned 32-bit integer. */
export function murmur3(bytes: Uint8Array, seed = 0): number {
  let h = seed >>> 0;
  const length = bytes.length;
  const blocks = length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  const tail = length & 3;
  if (tail > 0) {
    let k = bytes[blocks]!;
    if (tail > 1) k ^= bytes[blocks + 1]! << 8;
    if (tail > 2) k ^= bytes[blocks + 2]! << 16;
    k = Math.imul(k, C1);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, C2);
  }
  h ^= length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 16 hex digits naming `text` (two seeds of {@link murmur3} over its UTF-8): a file-name key. */
export function hexKey(text: string): string {
  const bytes = Buffer.from(text, "utf8");
  return hex8(murmur3(bytes, 0)) + hex8(murmur3(bytes, 0x9747b28c));
}

function hex8(value: number): string {
  return value.toString(16).padStart(8, "0");
}
