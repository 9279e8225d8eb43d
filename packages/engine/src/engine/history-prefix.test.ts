import { describe, expect, it } from "vitest";
import { samePrefixLength } from "./history-prefix.js";

const [a, b, c, d] = [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }];
const equal = (x: { n: number }, y: { n: number }) => x.n === y.n;

describe("samePrefixLength", () => {
  it("is 0 with nothing known, and 0 for an empty history", () => {
    expect(samePrefixLength([a, b], [])).toBe(0);
    expect(samePrefixLength([], [a, b])).toBe(0);
    expect(samePrefixLength([a], [], { same: equal, trustEnds: true })).toBe(0);
  });

  it("counts the known elements of a grown history (engine: messages by identity)", () => {
    expect(samePrefixLength([a, b, c], [a, b])).toBe(2);
    expect(samePrefixLength([a, b], [a, b])).toBe(2);
  });

  it("stops at the first change and never passes the shorter length (a cut or edited history)", () => {
    expect(samePrefixLength([a, c, d], [a, b, c])).toBe(1);
    expect(samePrefixLength([a], [a, b, c])).toBe(1);
    expect(samePrefixLength([b, a], [a, b])).toBe(0);
  });

  it("compares by identity unless told otherwise: an equal copy is a change", () => {
    expect(samePrefixLength([{ n: 1 }], [a])).toBe(0);
    expect(samePrefixLength([{ n: 1 }, { n: 2 }], [a, b], { same: equal })).toBe(2);
  });

  it("with trustEnds, takes the middle as unchanged when the first and last known elements stay (adapters' items)", () => {
    // The middle element was replaced: not noticed, as documented.
    expect(samePrefixLength([a, d, c, d], [a, b, c], { same: equal, trustEnds: true })).toBe(3);
    expect(samePrefixLength([a, d, c, d], [a, b, c], { same: equal })).toBe(1);
  });

  it("with trustEnds, compares element by element when the ends moved or the history did not grow", () => {
    expect(samePrefixLength([d, b, c, d], [a, b, c], { same: equal, trustEnds: true })).toBe(0);
    expect(samePrefixLength([a, b, d], [a, b, c], { same: equal, trustEnds: true })).toBe(2);
    // Same length as known: the last known must still be in place, and it is compared like the rest.
    expect(samePrefixLength([a, d, c], [a, b, c], { same: equal, trustEnds: true })).toBe(3);
    expect(samePrefixLength([a, b], [a, b, c], { same: equal, trustEnds: true })).toBe(2);
  });
});
