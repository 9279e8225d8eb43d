// `${VAR}` expansion: the edges its tests left open, each one a wrong program that passed them (mutation
// testing, issue 38): the nesting cap counted on arrays and objects alike, what an overflow returns, that it
// stops the walk, defaults beside a set value, and that expanded objects stay ordinary, editable objects.
import { describe, expect, it } from "vitest";
import { expandString, expandVars, MAX_EXPAND_DEPTH } from "./expand-vars.js";

const nestArrays = (depth: number): unknown => (depth === 0 ? "${A}" : [nestArrays(depth - 1)]);
const nestObjects = (depth: number): unknown => (depth === 0 ? "${A}" : { k: nestObjects(depth - 1) });

describe("expandVars: nesting", () => {
  it.each([
    ["arrays", nestArrays],
    ["objects", nestObjects],
  ])("expands %s nested MAX_EXPAND_DEPTH deep, and overflows one level deeper", (_, nest) => {
    const within = expandVars(nest(MAX_EXPAND_DEPTH), { env: { A: "a" } });
    expect(within.overflow).toBe(false);
    expect(JSON.stringify(within.value)).toBe(JSON.stringify(nest(MAX_EXPAND_DEPTH)).replace("${A}", "a"));
    expect(expandVars(nest(MAX_EXPAND_DEPTH + 1), { env: { A: "a" } }).overflow).toBe(true);
  });

  it("gives plain, editable objects (writable, configurable, enumerable keys)", () => {
    const { value } = expandVars({ a: "${A}" }, { env: { A: "1" } }) as { value: Record<string, unknown> };
    expect(Object.getOwnPropertyDescriptor(value, "a")).toEqual({
      value: "1",
      writable: true,
      enumerable: true,
      configurable: true,
    });
  });
});

describe("expansion past maxChars", () => {
  it("expandString returns no text, the names unresolved so far, and overflow", () => {
    expect(expandString("${MISSING} ${A} tail", { env: { A: "aaaaaaaa" }, maxChars: 5 })).toEqual({
      value: "",
      unresolved: ["MISSING"],
      overflow: true,
    });
    expect(expandString("${MISSING} abcdef", { env: {}, maxChars: 3 })).toEqual({
      value: "",
      unresolved: ["MISSING"],
      overflow: true,
    });
    expect(expandString("abcdef", { env: {}, maxChars: 3 })).toEqual({ value: "", unresolved: [], overflow: true });
  });

  it("expandVars stops at the overflow: later strings are not read", () => {
    const result = expandVars(["${A}", "${LATER}"], { env: { A: "long value" }, maxChars: 4 });
    expect(result.overflow).toBe(true);
    expect(result.unresolved).toEqual([]);
  });
});

describe("defaults", () => {
  it("uses the default only when the variable is unset or empty", () => {
    expect(expandString("${A:-d}", { env: { A: "x" } }).value).toBe("x");
    expect(expandString("${A:-d}", { env: { A: "" } }).value).toBe("d");
    expect(expandString("${A:-d}", { env: {} }).value).toBe("d");
  });
});
