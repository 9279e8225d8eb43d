import { describe, expect, it } from "vitest";
import { hexKey, murmur3 } from "./checksum.js";

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("murmur3 (MurmurHash3_x86_32)", () => {
  // Reference values of MurmurHash3_x86_32 (smhasher's MurmurHash3.cpp; the same vectors as the
  // `murmurhash3js` and Guava test suites).
  it.each([
    ["", 0, 0],
    ["", 1, 0x514e28b7],
    ["", 0xffffffff, 0x81f16f39],
    ["a", 0, 0x3c2569b2],
    ["ab", 0, 0x9bbfd75f],
    ["abc", 0, 0xb3dd93fa],
    ["abcd", 0, 0x43ed676a],
    ["hello", 0, 0x248bfa47],
    ["The quick brown fox jumps over the lazy dog", 0, 0x2e4ff723],
  ])("%j with seed %d", (text, seed, expected) => {
    expect(murmur3(utf8(text), seed)).toBe(expected);
  });

  it("changes with any flipped bit of a large buffer", () => {
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 31) & 0xff);
    const base = murmur3(bytes);
    for (const at of [0, 1, 50_000, 100_002]) {
      const copy = bytes.slice();
      copy[at]! ^= 0x10;
      expect(murmur3(copy)).not.toBe(base);
    }
  });

  it("hexKey gives 16 hex digits, different for different texts", () => {
    expect(hexKey("/project/a")).toMatch(/^[0-9a-f]{16}$/);
    expect(hexKey("/project/a")).toBe(hexKey("/project/a"));
    expect(hexKey("/project/a")).not.toBe(hexKey("/project/b"));
  });
});
