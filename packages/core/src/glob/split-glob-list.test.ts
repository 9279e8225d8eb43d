import { describe, expect, it } from "vitest";
import { parseSkill } from "../parse-skill.js";
import { splitGlobList, splitGlobs } from "./split-glob-list.js";

describe("splitGlobList", () => {
  it("splits at the commas outside braces and brackets, never inside", () => {
    expect(splitGlobList("src/{a,b}/**")).toEqual(["src/{a,b}/**"]);
    expect(splitGlobList("src/**/*.{ts,tsx}, lib/[a,b]/*, docs/")).toEqual([
      "src/**/*.{ts,tsx}",
      "lib/[a,b]/*",
      "docs/",
    ]);
    expect(splitGlobList("{a,{b,c}},d")).toEqual(["{a,{b,c}}", "d"]);
    expect(splitGlobList("a\\,b, c")).toEqual(["a\\,b", "c"]);
  });

  it("an unclosed { or [ runs to the end", () => {
    expect(splitGlobList("a{b, c")).toEqual(["a{b, c"]);
    expect(splitGlobList("a}b, c")).toEqual(["a}b", "c"]);
  });

  it("reads YAML lists (each item split the same way), trims, unquotes and drops empty items", () => {
    expect(splitGlobList(["a/**", "b/*.md, c/**", "{x,y}/*"])).toEqual(["a/**", "b/*.md", "c/**", "{x,y}/*"]);
    expect(splitGlobList(" \"quoted/**\" , 'single/*', ,")).toEqual(["quoted/**", "single/*"]);
    expect(splitGlobList("name\\ ")).toEqual(["name\\ "]);
    expect([splitGlobList(""), splitGlobList(null), splitGlobList(undefined), splitGlobList([])]).toEqual([
      [],
      [],
      [],
      [],
    ]);
  });

  it("refuses other types", () => {
    expect(splitGlobList(42)).toBeUndefined();
    expect(splitGlobList({ a: 1 })).toBeUndefined();
    expect(splitGlobList(["a", null])).toBeUndefined();
  });

  it("handles a megabyte of commas and braces in one pass", () => {
    expect(splitGlobs("a,".repeat(500_000))).toHaveLength(500_000);
    expect(splitGlobs(`${"{".repeat(500_000)},x`)).toHaveLength(1);
  });
});

// OpenHands `paths:` goes through the same splitter as Cursor `globs` (core skill-trigger.ts).
describe("OpenHands paths: split like every other glob list", () => {
  it("does not split paths: at the comma inside braces", () => {
    const skill = parseSkill("---\nname: s\npaths: src/{a,b}/**, *.md\n---\nBody\n", {
      format: "legacy",
      path: "/r/.openhands/microagents/s.md",
    });
    expect(skill.trigger).toEqual({ type: "path", globs: ["src/{a,b}/**", "*.md"] });
    const explicit = parseSkill('---\nname: s\ntrigger:\n  type: path\n  globs: "lib/{x,y}/*.ts"\n---\nBody\n', {
      format: "legacy",
    });
    expect(explicit.trigger).toEqual({ type: "path", globs: ["lib/{x,y}/*.ts"] });
  });
});

describe("splitGlobList: quotes and escapes", () => {
  it("unquotes only a matching pair around an item", () => {
    expect(splitGlobList(`"a'`)).toEqual([`"a'`]);
    expect(splitGlobList(`"`)).toEqual([`"`]);
    expect(splitGlobList(`" a "`)).toEqual(["a"]);
    expect(splitGlobList(`'',x`)).toEqual(["x"]);
  });

  it("an escaped [ opens nothing; a ] or } that closes nothing does not hide the next comma", () => {
    expect(splitGlobList("a\\[b,c")).toEqual(["a\\[b", "c"]);
    expect(splitGlobList("a],b")).toEqual(["a]", "b"]);
    expect(splitGlobList("],{a,b}")).toEqual(["]", "{a,b}"]);
    expect(splitGlobList("a\\")).toEqual(["a\\"]);
  });
});
