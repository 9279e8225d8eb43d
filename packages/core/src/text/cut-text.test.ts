import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ellipsizeCodePoints,
  ellipsizeUtf8Bytes,
  ellipsizeUtf16,
  fitCodePoints,
  fitUtf16,
  headCodePoints,
  headUtf8Bytes,
  headUtf8BytesAtLine,
  headUtf16,
} from "./cut-text.js";

const SMILE = "\u{1F600}"; // two UTF-16 units, one code point, four UTF-8 bytes

describe("UTF-16 units", () => {
  it("headUtf16 keeps at most max units and never ends on a lead surrogate", () => {
    expect(headUtf16("abcdef", 3)).toBe("abc");
    expect(headUtf16("abc", 3)).toBe("abc");
    expect(headUtf16(`ab${SMILE}`, 3)).toBe("ab");
    expect(headUtf16(`ab${SMILE}`, 4)).toBe(`ab${SMILE}`);
    expect(headUtf16("abc", 0)).toBe("");
    expect(headUtf16("abc", -2)).toBe("");
  });

  it("ellipsizeUtf16 adds … after max units when cut (the inline slice(0, N) + … form)", () => {
    expect(ellipsizeUtf16("abcdef", 3)).toBe("abc…");
    expect(ellipsizeUtf16("abc", 3)).toBe("abc");
    expect(ellipsizeUtf16(`a${SMILE}b`, 2)).toBe("a…");
  });

  it("fitUtf16 fits … inside max units (the slice(0, N - 1) + … form)", () => {
    expect(fitUtf16("abcdef", 4)).toBe("abc…");
    expect(fitUtf16("abcd", 4)).toBe("abcd");
    expect(fitUtf16(`ab${SMILE}cd`, 4)).toBe("ab…");
  });
});

describe("code points", () => {
  it("headCodePoints counts a pair as one, a lone surrogate as one", () => {
    expect(headCodePoints(`${SMILE}${SMILE}${SMILE}`, 2)).toBe(`${SMILE}${SMILE}`);
    expect(headCodePoints("\uD800x", 1)).toBe("\uD800");
    expect(headCodePoints("abc", 5)).toBe("abc");
  });

  it("ellipsizeCodePoints adds … after max code points when cut", () => {
    expect(ellipsizeCodePoints(`${SMILE}${SMILE}${SMILE}`, 2)).toBe(`${SMILE}${SMILE}…`);
    expect(ellipsizeCodePoints(`${SMILE}${SMILE}`, 2)).toBe(`${SMILE}${SMILE}`);
  });

  it("fitCodePoints: at most max code points, … included, trailing space dropped (catalog descriptions)", () => {
    expect(fitCodePoints("abcdef", 4)).toBe("abc…");
    expect(fitCodePoints("ab  def", 4)).toBe("ab …");
    expect(fitCodePoints("ab  def", 4, { trimEnd: true })).toBe("ab…");
    expect(fitCodePoints(`${SMILE}${SMILE}${SMILE}`, 3)).toBe(`${SMILE}${SMILE}${SMILE}`);
    expect(fitCodePoints(`${SMILE}${SMILE}${SMILE}${SMILE}`, 3)).toBe(`${SMILE}${SMILE}…`);
    expect(fitCodePoints("abc", 0)).toBe("…");
    expect(fitCodePoints("", 0)).toBe("");
    expect(fitCodePoints("a", 1)).toBe("a");
    expect(fitCodePoints("ab", 1)).toBe("…");
  });
});

describe("UTF-8 bytes", () => {
  it("headUtf8Bytes keeps whole characters within max bytes", () => {
    expect(headUtf8Bytes("abc", 2)).toBe("ab");
    expect(headUtf8Bytes("é", 1)).toBe("");
    expect(headUtf8Bytes(`a${SMILE}`, 4)).toBe("a");
    expect(headUtf8Bytes(`a${SMILE}`, 5)).toBe(`a${SMILE}`);
    expect(headUtf8Bytes("\uD800ab", 3)).toBe("\uD800");
  });

  it("ellipsizeUtf8Bytes adds … after the kept bytes when cut", () => {
    expect(ellipsizeUtf8Bytes("aé", 2)).toBe("a…");
    expect(ellipsizeUtf8Bytes("aé", 3)).toBe("aé");
  });

  it("headUtf8BytesAtLine ends after a line break at or past the share of the head", () => {
    const text = "aaaa\nbbbbbbbbbbbb\ncc";
    expect(headUtf8BytesAtLine(text, 12)).toBe("aaaa\n");
    expect(headUtf8BytesAtLine(text, 12, 0.5)).toBe("aaaa\nbbbbbbb");
    expect(headUtf8BytesAtLine(text, 19, 0.5)).toBe("aaaa\nbbbbbbbbbbbb\n");
    expect(headUtf8BytesAtLine("no break here", 5)).toBe("no br");
    expect(headUtf8BytesAtLine(text, 100)).toBe(text);
  });

  it("property: the head is a prefix within the cap, and one more character would pass it", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite" }), fc.nat(40), (text, max) => {
        const head = headUtf8Bytes(text, max);
        expect(text.startsWith(head)).toBe(true);
        expect(Buffer.byteLength(head)).toBeLessThanOrEqual(max);
        if (head.length < text.length) {
          const next = String.fromCodePoint(text.codePointAt(head.length)!);
          expect(Buffer.byteLength(head + next)).toBeGreaterThan(max);
        }
      }),
    );
  });

  it("property: no cutter ends inside a surrogate pair", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 12 }), fc.nat(14), (text, max) => {
        for (const head of [headUtf16(text, max), headCodePoints(text, max), headUtf8Bytes(text, max)]) {
          const last = head.charCodeAt(head.length - 1);
          const next = text.charCodeAt(head.length);
          expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
        }
      }),
    );
  });
});
