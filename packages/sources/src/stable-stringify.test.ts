import { describe, expect, it } from "vitest";
import { stableStringify } from "./stable-stringify.js";

describe("stableStringify", () => {
  it("sorts keys at every level, whatever the insertion order", () => {
    const a = { b: 1, a: { d: [{ z: 1, y: 2 }], c: null } };
    const b = { a: { c: null, d: [{ y: 2, z: 1 }] }, b: 1 };
    expect(stableStringify(a)).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
    expect(stableStringify(b)).toBe(stableStringify(a));
  });

  it("sorts by code point: upper case before lower, astral after U+E000..U+FFFF, integer-like keys as text", () => {
    expect(stableStringify({ b: 1, B: 2, "\u{1F600}": 3, "\uFF21": 4 })).toBe('{"B":2,"b":1,"\uFF21":4,"\u{1F600}":3}');
    expect(stableStringify({ 9: "x", 10: "y", a: "z" })).toBe('{"10":"y","9":"x","a":"z"}');
  });

  it("drops undefined fields and functions, writes undefined array items as null, applies toJSON", () => {
    expect(stableStringify({ a: undefined, f: () => 1, l: [undefined, 1], d: new Date(0) })).toBe(
      '{"d":"1970-01-01T00:00:00.000Z","l":[null,1]}',
    );
    expect(stableStringify(undefined)).toBeUndefined();
    expect(stableStringify("x")).toBe('"x"');
  });

  it("indents as JSON.stringify does", () => {
    const value = { b: [1, { d: 2, c: [] }], a: {} };
    const sorted = { a: {}, b: [1, { c: [], d: 2 }] };
    expect(stableStringify(value, 2)).toBe(JSON.stringify(sorted, null, 2));
  });

  it("throws for a cycle (a value seen twice without a cycle is fine)", () => {
    const shared = { x: 1 };
    expect(stableStringify({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = [cyclic];
    expect(() => stableStringify(cyclic)).toThrow(TypeError);
  });
});
