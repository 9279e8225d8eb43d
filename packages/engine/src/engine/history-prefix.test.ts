import { describe, expect, it } from "vitest";
import { HistoryPrefix, samePrefixLength } from "./history-prefix.js";

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

describe("HistoryPrefix", () => {
  it("knows the elements seen: a grown history keeps its prefix, an edited one is cut at the change", () => {
    const seen = new HistoryPrefix<{ n: number }>();
    expect(seen.sameAs([a, b])).toBe(0);
    seen.see([a, b], 0);
    expect(seen.length).toBe(2);
    expect(seen.sameAs([a, b, c])).toBe(2);
    seen.see([a, b, c], 2);
    expect(seen.sameAs([a, d, c])).toBe(1);
    seen.cut(1);
    expect(seen.length).toBe(1);
    seen.see([a, d, c], 1);
    expect(seen.sameAs([a, d, c, b])).toBe(3);
  });

  it("records nothing until `see`: a step that fails half-way is redone", () => {
    const seen = new HistoryPrefix<{ n: number }>();
    seen.see([a], 0);
    expect(seen.sameAs([a, b])).toBe(1);
    // the caller failed before `see`: the next step still finds only `a`
    expect(seen.sameAs([a, b])).toBe(1);
    expect(seen.length).toBe(1);
  });

  it("compares as its options say (the adapters' items: equal content, trusted ends)", () => {
    const seen = new HistoryPrefix<{ n: number }>({ same: equal, trustEnds: true });
    seen.see([a, b, c], 0);
    expect(seen.sameAs([{ n: 1 }, d, { n: 3 }, d])).toBe(3);
    expect(seen.sameAs([{ n: 1 }, { n: 2 }])).toBe(2);
  });
});
