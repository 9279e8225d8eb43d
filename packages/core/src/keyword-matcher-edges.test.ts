// Edges of the keyword matcher that its rule and property tests leave out, each one a wrong program that
// once passed them (mutation testing, issue 38): neighbours outside the Basic Multilingual Plane, broken
// surrogate pairs, ASCII control characters, failure links of the automaton, and odd skill lists.
import { describe, expect, it } from "vitest";
import { createKeywordMatcher, matchKeyword } from "./keyword-matcher.js";

const keywordSkill = (name: string, keywords: unknown[]) =>
  ({ name, trigger: { type: "keyword", keywords } }) as Parameters<typeof createKeywordMatcher>[0][number];

describe("matchKeyword: neighbours outside the BMP", () => {
  it.each([
    ["𝐀deploy", "a mathematical bold letter before (D835 DC00)"],
    ["𐐀deploy", "a Deseret letter before (D801 DC00)"],
    ["𐀀deploy", "a Linear B syllable before (D800 DC00)"],
    ["𝟿deploy", "a mathematical digit before (D835 DFFF)"],
    ["deploy𝐀", "a letter outside the BMP after"],
  ])("refuses %j: %s", (text) => {
    expect(matchKeyword(["deploy"], text)).toBeUndefined();
  });

  it("accepts an emoji neighbour (not a letter) and reports UTF-16 offsets past astral characters", () => {
    const matches = createKeywordMatcher([keywordSkill("d", ["deploy"])]).match("😀😀deploy");
    expect(matches).toEqual([{ skill: "d", keyword: "deploy", index: 4 }]);
    expect(createKeywordMatcher([keywordSkill("d", ["deploy"])]).match("😀 😀 deploy")[0]?.index).toBe(6);
  });

  it("a keyword ending in a Han character outside the BMP needs no boundary after it", () => {
    expect(matchKeyword(["部署𠀀"], "部署𠀀abc")).toBe("部署𠀀");
    expect(matchKeyword(["deploy"], "𠀀deploy")).toBe("deploy");
  });

  it("folds the case of letters outside the BMP", () => {
    expect(matchKeyword(["𐐀𐐁"], "say 𐐨𐐩 now")).toBe("𐐀𐐁");
  });

  it("reads a high surrogate followed by a plain letter as two characters", () => {
    expect(matchKeyword(["deploy"], "\ud835Xdeploy")).toBeUndefined();
    expect(matchKeyword(["deploy"], "\ud835 deploy")).toBe("deploy");
    // U+FF21 (fullwidth A, a letter) is no low surrogate: the high surrogate before it stays alone.
    expect(matchKeyword(["deploy"], "\ud835\uff21deploy")).toBeUndefined();
  });

  it("a lone low surrogate after a plain character is one character, and no letter (never throws)", () => {
    expect(matchKeyword(["deploy"], "a\udc00deploy")).toBe("deploy");
    expect(matchKeyword(["deploy"], "\udc00deploy")).toBe("deploy");
    // Two low surrogates: the first is no high surrogate, so the pair is not combined (past U+10FFFF).
    expect(matchKeyword(["deploy"], "\udc00\udc00deploy")).toBe("deploy");
    expect(matchKeyword(["deploy"], "\ue000\udc00deploy")).toBe("deploy");
  });

  it("U+FFFF is one UTF-16 unit, and not a letter", () => {
    expect(createKeywordMatcher([keywordSkill("d", ["deploy"])]).match("\uffffdeploy")).toEqual([
      { skill: "d", keyword: "deploy", index: 1 },
    ]);
  });
});

describe("matchKeyword: whitespace and control characters", () => {
  it("tab to carriage return are whitespace; other control characters are not", () => {
    for (const space of ["\t", "\n", "\u000b", "\f", "\r", " "])
      expect(matchKeyword(["a b"], `a${space}b`)).toBe("a b");
    for (const control of ["\u0000", "\u0001", "\u0008", "\u000e", "\u001f"])
      expect(matchKeyword(["a b"], `a${control}b`)).toBeUndefined();
  });

  it("a NUL in the text is not the first character of any keyword", () => {
    expect(matchKeyword(["ab"], "\u0000b")).toBeUndefined();
  });

  it("reports nothing in a text where no keyword starts", () => {
    expect(matchKeyword(["a"], "x y")).toBeUndefined();
    expect(matchKeyword(["a", "bc"], "x y")).toBeUndefined();
  });
});

describe("createKeywordMatcher: the automaton's failure links", () => {
  it("finds a keyword that begins inside a longer keyword's partial match", () => {
    const matcher = createKeywordMatcher([keywordSkill("long", ["a b c d"]), keywordSkill("short", ["b c x"])]);
    expect(matcher.match("a b c x")).toEqual([{ skill: "short", keyword: "b c x", index: 2 }]);
    expect(matcher.match("a b c d")).toEqual([{ skill: "long", keyword: "a b c d", index: 0 }]);
  });
});

describe("createKeywordMatcher: keywords sharing a prefix", () => {
  it("keeps every branch of a shared prefix, across skills and within one", () => {
    const matcher = createKeywordMatcher([
      keywordSkill("x", ["ab"]),
      keywordSkill("y", ["ac"]),
      keywordSkill("z", ["ad"]),
    ]);
    expect(matcher.match("ab ac ad")).toEqual([
      { skill: "x", keyword: "ab", index: 0 },
      { skill: "y", keyword: "ac", index: 3 },
      { skill: "z", keyword: "ad", index: 6 },
    ]);
    expect(matchKeyword(["ab", "ac"], "ac")).toBe("ac");
  });
});

describe("createKeywordMatcher: the skill list", () => {
  it("a keyword list that is not an array holds no keyword", () => {
    const matcher = createKeywordMatcher([{ name: "d", trigger: { type: "keyword", keywords: "deploy" } } as never]);
    expect(matcher.size).toBe(0);
  });

  it("ignores a list that is not an array, entries without a string name, and non-string keywords", () => {
    expect(createKeywordMatcher("deploy" as never).size).toBe(0);
    expect(createKeywordMatcher("deploy" as never).match("deploy")).toEqual([]);
    const matcher = createKeywordMatcher([
      null as never,
      { name: 42, trigger: { type: "keyword", keywords: ["deploy"] } } as never,
      keywordSkill("d", [42, "deploy"]),
    ]);
    expect(matcher.size).toBe(1);
    expect(matcher.match("deploy")).toEqual([{ skill: "d", keyword: "deploy", index: 0 }]);
  });

  it("does not count a skill whose keywords are all blank", () => {
    expect(createKeywordMatcher([keywordSkill("blank", ["  ", ""]), keywordSkill("d", ["deploy"])]).size).toBe(1);
  });

  it("adds /name to task skills only", () => {
    const matcher = createKeywordMatcher([
      keywordSkill("ship", ["release"]),
      { name: "deploy", trigger: { type: "task", keywords: ["push it"] } } as never,
    ]);
    expect(matcher.match("/ship")).toEqual([]);
    expect(matcher.match("/deploy")).toEqual([{ skill: "deploy", keyword: "/deploy", index: 0 }]);
  });

  it("reads a legacy microagent path with backslashes, and one without a path", () => {
    const legacy = (path: unknown) =>
      ({
        name: "py",
        trigger: { type: "keyword", keywords: ["python"] },
        source: { format: "legacy", path },
      }) as never;
    expect(createKeywordMatcher([legacy("C:\\repo\\.openhands\\microagents\\py.md")]).match("python3")).toHaveLength(1);
    expect(createKeywordMatcher([legacy(undefined)]).match("python3")).toEqual([]);
  });
});
