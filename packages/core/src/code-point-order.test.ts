import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareCodePoints } from "./code-point-order.js";

// Reference: compare arrays of code points.
function byCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe("compareCodePoints", () => {
  it("sorts upper case before lower case and accents last, unlike a locale", () => {
    expect(["B", "a", "é", "Z", "b"].sort(compareCodePoints)).toEqual(["B", "Z", "a", "b", "é"]);
  });

  it("puts a character beyond the BMP after U+FFFD, as its code point says", () => {
    expect(["😀", "\uFFFD", "z"].sort(compareCodePoints)).toEqual(["z", "\uFFFD", "😀"]);
  });

  it("orders like a comparison of code points, for any strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(byCodePoints(a, b)));
      }),
      { numRuns: 300 },
    );
  });
});
