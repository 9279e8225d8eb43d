import { describe, expect, test } from "vitest";
import { codeRegions, proseSegments } from "./code-regions.js";
import { inCode } from "./text-range.js";

// The code parts of `text`, as strings, so expectations read like the markdown.
const code = (text: string) => codeRegions(text).map((r) => text.slice(r.start, r.end));

describe("codeRegions", () => {
  test("block and inline code together, sorted and disjoint", () => {
    const text = "a `x`\n\n```\n`y`\n```\n`z` <!-- c -->\n\n    ind\n\n<div>\nh\n</div>\n";
    expect(code(text)).toEqual(["`x`", "```\n`y`\n```", "`z`", "<!-- c -->", "    ind", "<div>\nh\n</div>"]);
    const regions = codeRegions(text);
    for (let i = 1; i < regions.length; i++) expect(regions[i]?.start).toBeGreaterThanOrEqual(regions[i - 1]?.end ?? 0);
  });

  test("spans never cross a blank line or a block boundary", () => {
    expect(code("it's a ` tick\n\nand ` another")).toEqual([]);
    expect(code("a `b\nc` d")).toEqual(["`b\nc`"]);
    expect(code("# a `b\nc` d")).toEqual([]);
  });

  test("no code at all", () => {
    expect(codeRegions("")).toEqual([]);
    expect(codeRegions("plain @text, no code.")).toEqual([]);
  });
});

describe("proseSegments", () => {
  test("leaves out code and HTML blocks", () => {
    const text = "one\n\n```\ntwo\n```\n<!--\nthree\n-->\nfour";
    expect(proseSegments(text).map((s) => text.slice(s.start, s.end))).toEqual(["one", "four"]);
  });
});

describe("inCode", () => {
  test("finds offsets inside, not at the end", () => {
    const regions = [
      { start: 2, end: 4 },
      { start: 10, end: 12 },
    ];
    expect([1, 2, 3, 4, 9, 10, 11, 12].map((o) => inCode(regions, o))).toEqual([
      false,
      true,
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
    expect(inCode([], 0)).toBe(false);
  });
});
