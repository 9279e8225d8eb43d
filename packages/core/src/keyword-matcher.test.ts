import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldCodePoint } from "./keyword-chars.js";
import { createKeywordMatcher, matchKeyword } from "./keyword-matcher.js";
import type { KeywordMatch } from "./keyword-matcher.js";
import type { Skill } from "./skill.js";

type TriggerSkill = Pick<Skill, "name" | "trigger">;

const keywordSkill = (name: string, keywords: string[]): TriggerSkill => ({
  name,
  trigger: { type: "keyword", keywords },
});

// ---- Reference implementation: per keyword, try every position with an /iu regex and check the boundaries by hand.
const WORD = /^[\p{L}\p{N}\p{M}]$/u;
const NO_SPACE = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]$/u;

function referenceIndex(keyword: string, text: string): number | undefined {
  const parts = keyword
    .trim()
    .split(/\s+/u)
    .filter((part) => part !== "");
  if (parts.length === 0) return undefined;
  const escaped = parts.map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
  const regex = new RegExp(escaped.join("\\s+"), "iuy");
  const chars = [...keyword.trim()];
  const first = chars[0]!;
  const last = chars[chars.length - 1]!;
  for (let i = 0; i <= text.length; i++) {
    const unit = text.charCodeAt(i);
    const previous = text.charCodeAt(i - 1);
    // Only start at code point boundaries.
    if (unit >= 0xdc00 && unit <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff) continue;
    regex.lastIndex = i;
    const found = regex.exec(text);
    if (found === null) continue;
    const end = i + found[0].length;
    const before = i > 0 ? lastChar(text.slice(0, i)) : undefined;
    const after = end < text.length ? String.fromCodePoint(text.codePointAt(end)!) : undefined;
    const refuse = (neighbour: string | undefined, edge: string) =>
      neighbour !== undefined && WORD.test(neighbour) && !NO_SPACE.test(neighbour) && !NO_SPACE.test(edge);
    if (refuse(before, first) || refuse(after, last)) continue;
    return i;
  }
  return undefined;
}

function lastChar(text: string): string {
  const chars = [...text];
  return chars[chars.length - 1]!;
}

function referenceMatch(skills: TriggerSkill[], text: string): KeywordMatch[] {
  const result: KeywordMatch[] = [];
  const sorted = [...skills].sort((a, b) =>
    codePoints(a.name) < codePoints(b.name) ? -1 : codePoints(a.name) > codePoints(b.name) ? 1 : 0,
  );
  for (const skill of sorted) {
    if (skill.trigger.type !== "keyword" && skill.trigger.type !== "task") continue;
    for (const keyword of skill.trigger.keywords) {
      const index = referenceIndex(keyword, text);
      if (index !== undefined) {
        result.push({ skill: skill.name, keyword, index });
        break;
      }
    }
  }
  return result;
}

// Code point order via a comparable key (each code point zero-padded), independent of the implementation's comparator.
function codePoints(text: string): string {
  return [...text].map((c) => c.codePointAt(0)!.toString(16).padStart(6, "0")).join("");
}

describe("matchKeyword: the rules of issue 3", () => {
  it.each([
    ["git", "see github.com", undefined],
    ["git", "commit in my_git_repo", "git"],
    ["git", "GIT status", "git"],
    ["caf", "un café", undefined],
    ["cafe", "cafe\u0301", undefined], // combining mark after the keyword is part of the word
    ["c++", "learning c++today", undefined],
    ["c++", "learning C++ today", "c++"],
    ["c++", "(c++)", "c++"],
    ["部署", "请帮我部署服务", "部署"],
    ["デプロイ", "本番にデプロイしてください", "デプロイ"],
    ["ไทย", "ภาษาไทยง่าย", "ไทย"],
    ["/deploy", "please /deploy now", "/deploy"],
    ["/deploy", "edit src/deploy.ts", undefined],
    ["deploy", "edit src/deploy.ts", "deploy"],
    ["pull request", "open a pull\n\t  request please", "pull request"],
    ["pull  request", "a pull request", "pull  request"],
    ["a.b", "axb", undefined],
    ["(x)", "call (x) now", "(x)"],
    ["[a-z]+", "regex [a-z]+ here", "[a-z]+"],
    ["k8s", "k8s-rollout", "k8s"],
    ["v2", "v2.1 release", "v2"],
    ["api", "api2", undefined],
    ["api", "٣api", undefined], // Arabic-Indic digit is a digit
    ["straße", "STRASSE", undefined], // simple case folding only
    ["straße", "STRAẞE", "straße"],
    ["σοφία", "ΣΟΦΊΑ", "σοφία"],
    ["ς", "Σ", "ς"],
    ["  spaced  ", "a spaced b", "  spaced  "],
    ["   ", "   ", undefined],
    ["Ǆ", "ǆ ǅ", "Ǆ"],
  ])("%j in %j → %j", (keyword, text, expected) => {
    expect(matchKeyword([keyword], text)).toBe(expected);
    expect(referenceIndex(keyword, text) !== undefined).toBe(expected !== undefined);
  });

  it("treats every ASCII character beside a keyword as the Unicode classes do (ASCII's table is written out)", () => {
    for (let cp = 0; cp < 0x80; cp++) {
      const c = String.fromCodePoint(cp);
      for (const text of [`${c}ab`, `ab${c}`, `x${c}ab${c}y`]) {
        const expected = referenceIndex("ab", text) === undefined ? undefined : "ab";
        expect([cp, text, matchKeyword(["ab"], text)]).toEqual([cp, text, expected]);
      }
      expect([cp, matchKeyword([`a${c}b`], `a${c}b`)]).toEqual([
        cp,
        referenceIndex(`a${c}b`, `a${c}b`) === undefined ? undefined : `a${c}b`,
      ]);
    }
  });

  it("reports the first declared keyword that matches, not the first in the text", () => {
    expect(matchKeyword(["deploy", "release"], "release then deploy")).toBe("deploy");
    expect(matchKeyword(["missing", "release", "deploy"], "release then deploy")).toBe("release");
  });

  it("keeps offsets right when case folding changes the length of a string", () => {
    // "İ".toLowerCase() is two code units; offsets must still point into the original text.
    const text = "İİİ ßß ﬃ git";
    const [match] = createKeywordMatcher([keywordSkill("g", ["GIT"])]).match(text);
    expect(match?.index).toBe(text.indexOf("git"));
    expect(matchKeyword(["i̇"], "İ")).toBeUndefined();
    expect(matchKeyword(["İ"], "İ")).toBe("İ");
  });

  it("handles astral characters and lone surrogates", () => {
    const text = "😀deploy 𐐀 \ud800deploy";
    const matches = createKeywordMatcher([keywordSkill("d", ["deploy"]), keywordSkill("x", ["𐐨"])]).match(text);
    expect(matches).toEqual([
      { skill: "d", keyword: "deploy", index: 2 },
      { skill: "x", keyword: "𐐨", index: text.indexOf("𐐀") },
    ]);
  });
});

describe("createKeywordMatcher", () => {
  it("returns one entry per skill in code-point order, with the keyword as declared", () => {
    const matcher = createKeywordMatcher([
      keywordSkill("zeta", ["Deploy", "ship"]),
      keywordSkill("Alpha", ["SHIP"]),
      keywordSkill("émile", ["ship it"]),
      { name: "docs", trigger: { type: "on-demand" } },
      { name: "rule", trigger: { type: "path", globs: ["**/*.ts"] } },
    ]);
    expect(matcher.size).toBe(3);
    const text = "please ship it and deploy";
    expect(matcher.match(text)).toEqual([
      { skill: "Alpha", keyword: "SHIP", index: 7 },
      { skill: "zeta", keyword: "Deploy", index: text.indexOf("deploy") },
      { skill: "émile", keyword: "ship it", index: 7 },
    ]);
  });

  it("matches task skills by their keywords and by /name", () => {
    const matcher = createKeywordMatcher([
      { name: "release", trigger: { type: "task", keywords: ["cut a release"], inputs: [] } },
      { name: "deploy", trigger: { type: "task", keywords: ["/deploy", "ship"], inputs: [] } },
    ]);
    expect(matcher.match("now /release please")).toEqual([{ skill: "release", keyword: "/release", index: 4 }]);
    expect(matcher.match("/deploy ship")).toEqual([{ skill: "deploy", keyword: "/deploy", index: 0 }]);
    expect(matcher.match("src/release.ts")).toEqual([]);
  });

  it("reports the first accepted occurrence, skipping refused ones", () => {
    const [match] = createKeywordMatcher([keywordSkill("g", ["git"])]).match("github git");
    expect(match).toEqual({ skill: "g", keyword: "git", index: 7 });
  });

  it("finds overlapping keywords of different skills", () => {
    const matcher = createKeywordMatcher([
      keywordSkill("a", ["ab"]),
      keywordSkill("b", ["ab c"]),
      keywordSkill("c", ["b"]), // inside "ab": refused
      keywordSkill("d", ["c"]),
    ]);
    expect(matcher.match("x ab c")).toEqual([
      { skill: "a", keyword: "ab", index: 2 },
      { skill: "b", keyword: "ab c", index: 2 },
      { skill: "d", keyword: "c", index: 5 },
    ]);
  });

  it("never throws on strange input", () => {
    const matcher = createKeywordMatcher([keywordSkill("a", ["a"])]);
    expect(matcher.match(undefined as unknown as string)).toEqual([]);
    expect(matcher.match("")).toEqual([]);
    expect(createKeywordMatcher([]).match("anything")).toEqual([]);
    expect(createKeywordMatcher([{ name: "x", trigger: undefined as unknown as Skill["trigger"] }]).size).toBe(0);
    expect(matchKeyword(undefined as unknown as string[], "a")).toBeUndefined();
  });
});

describe("foldCodePoint", () => {
  it("agrees with /iu regex case-insensitivity on every cased code point", () => {
    const pool: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const char = String.fromCodePoint(cp);
      if (char.toLowerCase() !== char || char.toUpperCase() !== char || /\p{Cased}/u.test(char)) pool.push(cp);
    }
    const classes = new Map<number, number[]>();
    for (const cp of pool) {
      const members = classes.get(foldCodePoint(cp)) ?? [];
      members.push(cp);
      classes.set(foldCodePoint(cp), members);
    }
    const escape = (cp: number) => String.fromCodePoint(cp).replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
    // One representative per class, each followed by a separator, so a scan finds each class once.
    const representatives = [...classes.values()].map((members) => members[0]!);
    const haystack = representatives.map((cp) => `${String.fromCodePoint(cp)}\0`).join("");
    const mismatches: string[] = [];
    for (const [folded, members] of classes) {
      for (const cp of members) {
        // No false merge: every member of a class is /iu-equal to its representative.
        if (!new RegExp(`^${escape(cp)}$`, "iu").test(String.fromCodePoint(members[0]!)))
          mismatches.push(`${cp.toString(16)} merged`);
      }
      // No missed merge: the class's characters match no other class's representative.
      const regex = new RegExp(`[${members.map(escape).join("")}](?=\\0)`, "giu");
      for (const [found] of haystack.matchAll(regex)) {
        if (foldCodePoint(found.codePointAt(0)!) !== folded)
          mismatches.push(`${folded.toString(16)} ~ ${found.codePointAt(0)!.toString(16)} missed`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

// ---- Property tests
const ALPHABET = [
  "a",
  "b",
  "A",
  "B",
  "g",
  "i",
  "t",
  "é",
  "É",
  "e\u0301",
  "ß",
  "ẞ",
  "İ",
  "ı",
  "I",
  "ς",
  "σ",
  "Σ",
  "部",
  "署",
  "デ",
  "ー",
  "ก",
  "ไ",
  "1",
  "٣",
  "😀",
  "𐐀",
  "𐐨",
  "_",
  "-",
  "/",
  ".",
  "+",
  "(",
  "*",
  "?",
  "\\",
  "[",
  " ",
  "  ",
  "\n",
  "\t",
  "\u00a0",
  "\u3000",
  "!",
];
const piece = fc.constantFrom(...ALPHABET);
const textArb = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));
const keywordArb = fc
  .array(piece, { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(""))
  .filter((keyword) => keyword.trim() !== "");
const skillsArb = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom("alpha", "Beta", "gamma", "émile", "部署", "z"),
    keywords: fc.array(keywordArb, { minLength: 1, maxLength: 3 }),
  }),
  { selector: (skill) => skill.name, minLength: 1, maxLength: 5 },
);

describe("keyword matcher properties", () => {
  it("agrees with the reference implementation", () => {
    fc.assert(
      fc.property(skillsArb, textArb, (skills, text) => {
        const list = skills.map((skill) => keywordSkill(skill.name, skill.keywords));
        expect(createKeywordMatcher(list).match(text)).toEqual(referenceMatch(list, text));
      }),
      { numRuns: 1500 },
    );
  });

  it("agrees with the reference when the text contains the keywords", () => {
    fc.assert(
      fc.property(skillsArb, textArb, textArb, fc.nat(), (skills, left, right, pick) => {
        const list = skills.map((skill) => keywordSkill(skill.name, skill.keywords));
        const all = skills.flatMap((skill) => skill.keywords);
        const text = `${left}${all[pick % all.length]!}${right}`;
        expect(createKeywordMatcher(list).match(text)).toEqual(referenceMatch(list, text));
      }),
      { numRuns: 1500 },
    );
  });

  it("never throws and never reports a keyword that is not at the reported offset", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: "binary", minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }), {
          maxLength: 4,
        }),
        fc.string({ unit: "binary", maxLength: 60 }),
        (keywordLists, text) => {
          const skills = keywordLists.map((keywords, i) => keywordSkill(`s${i}`, keywords));
          for (const match of createKeywordMatcher(skills).match(text)) {
            const parts = match.keyword
              .trim()
              .split(/\s+/u)
              .map((part) => part.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
            const regex = new RegExp(parts.join("\\s+"), "iuy");
            regex.lastIndex = match.index;
            expect(regex.test(text)).toBe(true);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("OpenHands legacy microagents: substring triggers", () => {
  // OpenHands' match_trigger is `trigger.lower() in message.lower()` (OpenHands/OpenHands
  // openhands/microagent/microagent.py KnowledgeMicroagent.match_trigger): "python3" fires `python`.
  const legacy = {
    name: "python",
    trigger: { type: "keyword" as const, keywords: ["python"] },
    source: { format: "legacy" as const, path: "/repo/.openhands/microagents/python.md" },
  };
  const skillMdTwin = {
    name: "py-skill",
    trigger: { type: "keyword" as const, keywords: ["python"] },
    source: { format: "skill-md" as const, path: "/repo/.openhands/skills/py-skill/SKILL.md" },
  };

  it("a legacy .openhands/microagents file fires inside a word, case-insensitively", () => {
    const matcher = createKeywordMatcher([legacy, skillMdTwin]);
    expect(matcher.match("Run it with PYTHON3 please").map((m) => m.skill)).toEqual(["python"]);
    expect(matcher.match("use python here").map((m) => m.skill)).toEqual(["py-skill", "python"]);
  });

  it("a legacy file elsewhere, and every other skill, still needs whole tokens", () => {
    const elsewhere = { ...legacy, source: { format: "legacy" as const, path: "/repo/skills/python.md" } };
    expect(createKeywordMatcher([elsewhere]).match("with python3")).toEqual([]);
    expect(createKeywordMatcher([skillMdTwin]).match("with python3")).toEqual([]);
  });
});
