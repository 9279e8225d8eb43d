// Reciprocal rank fusion and the vector ranking, on fixed inputs (so weight tuning of the lexical ranking does
// not move them), and the confidence rule's reading of matched fields. Only end-to-end tests through the
// search reached them before (mutation testing, issue 38).
import { describe, expect, it } from "vitest";
import { saysItself } from "./confidence.js";
import { cosine, fuseRankings, vectorRanking } from "./fusion.js";
import { SEARCH_FIELDS } from "./skill-document.js";

describe("fuseRankings", () => {
  it("ranks by the sum of 1 / (60 + rank) over the rankings", () => {
    // b: 1/62 + 1/61 beats a: 1/61 + 1/63 and c: 1/63 + 1/62 (ranks counted from 1).
    expect(
      fuseRankings([
        ["a", "b", "c"],
        ["b", "c", "a"],
      ]),
    ).toEqual(["b", "a", "c"]);
  });

  it("an id in one ranking only scores from that ranking alone", () => {
    // x is first in one ranking (1/61); y is second in both (2/62 > 1/61).
    expect(
      fuseRankings([
        ["x", "y"],
        ["z", "y"],
      ]),
    ).toEqual(["y", "x", "z"]);
  });

  it("breaks ties by the first ranking's order, then the next ranking's", () => {
    expect(
      fuseRankings([
        ["a", "b"],
        ["b", "a"],
      ]),
    ).toEqual(["a", "b"]);
    expect(fuseRankings([["a"], ["b"]])).toEqual(["a", "b"]);
    expect(fuseRankings([["b"], ["a"]])).toEqual(["b", "a"]);
    expect(fuseRankings([[], ["q", "p"]])).toEqual(["q", "p"]);
  });

  it("keeps a single ranking's order and gives nothing for none", () => {
    expect(fuseRankings([["c", "a", "b"]])).toEqual(["c", "a", "b"]);
    expect(fuseRankings([])).toEqual([]);
  });
});

describe("cosine and vectorRanking", () => {
  it("is the cosine of the angle; 0 for a zero vector or vectors of different lengths", () => {
    expect(cosine([1, 0], [1, 0])).toBe(1);
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([3, 4], [6, 8])).toBeCloseTo(1, 12);
    expect(cosine([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([1, 0], [0, 0])).toBe(0);
    expect(cosine([1, 0], [1, 0, 0])).toBe(0);
  });

  it("ranks by similarity, best first, leaving out entries without a vector or with no positive similarity", () => {
    const ranked = vectorRanking(
      [1, 0],
      [
        { id: "diagonal", vector: [1, 1] },
        { id: "none", vector: undefined },
        { id: "same", vector: [2, 0] },
        { id: "orthogonal", vector: [0, 1] },
        { id: "opposite", vector: [-1, 0] },
        { id: "zero", vector: [0, 0] },
      ],
    );
    expect(ranked).toEqual(["same", "diagonal"]);
  });
});

describe("saysItself (the confidence rule)", () => {
  it("needs a requested word in a field the skill says of itself, not only in text it keeps in passing", () => {
    expect(saysItself([{ fields: ["body"] }, { fields: ["references", "files"] }])).toBe(false);
    expect(saysItself([])).toBe(false);
    const own = SEARCH_FIELDS.filter((field) => !["body", "references", "files"].includes(field));
    expect(own).toEqual(["name", "description", "whenToUse", "keywords", "headings"]);
    for (const field of own) expect(saysItself([{ fields: ["body"] }, { fields: ["files", field] }]), field).toBe(true);
  });
});
