import { describe, expect, it } from "vitest";
import { equalValues } from "./equal-values.js";

describe("equalValues", () => {
  it("compares content, not key order or identity", () => {
    expect(equalValues({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(equalValues({ a: 1 }, { a: 2 })).toBe(false);
    expect(equalValues([1, 2], [2, 1])).toBe(false);
    expect(equalValues([], {})).toBe(false);
    expect(equalValues(null, {})).toBe(false);
    expect(equalValues(Number.NaN, Number.NaN)).toBe(true);
  });

  it("counts a key whose value is undefined as absent", () => {
    expect(equalValues({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(equalValues({ a: undefined }, { b: undefined })).toBe(true);
    expect(equalValues({ a: 1, b: undefined }, { a: 1, c: 2 })).toBe(false);
  });

  it("compares byte arrays, URLs and dates by content", () => {
    expect(equalValues(new Uint8Array([1, 2]), Buffer.from([1, 2]))).toBe(true);
    expect(equalValues(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(equalValues(new URL("https://a.example/"), new URL("https://a.example/"))).toBe(true);
    expect(equalValues(new Date(0), new Date(1000))).toBe(false);
    expect(equalValues(new Date(0), new URL("https://a.example/"))).toBe(false);
  });

  it("ends on cycles and on values nested deeper than the stack", () => {
    const a: Record<string, unknown> = { v: 1 };
    a["self"] = a;
    const b: Record<string, unknown> = { v: 1 };
    b["self"] = b;
    expect(equalValues(a, b)).toBe(true);
    let x: unknown = 0;
    let y: unknown = 0;
    for (let i = 0; i < 100_000; i++) {
      x = [x];
      y = [y];
    }
    expect(equalValues(x, y)).toBe(true);
  });
});
