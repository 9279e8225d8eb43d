import { describe, expect, it } from "vitest";
import {
  compileGlob,
  compileGlobs,
  compileNamePattern,
  DEFAULT_GLOB_LIMITS,
  GLOB_TOO_COMPLEX,
  limitGlobList,
} from "./compile-glob.js";

const test = (glob: string, path: string): boolean => {
  const compiled = compileGlob(glob);
  if (!compiled.ok) throw new Error(compiled.diagnostic.message);
  return compiled.glob.test(path);
};

// [glob, path, matches]: the semantics every caller shares (OpenHands `paths:`, Cursor `globs`,
// Copilot `applyTo`, nested-guidance scopes).
const TABLE: Array<[string, string, boolean, string]> = [
  // a glob without `/` matches at any depth
  ["*.ts", "a.ts", true, "no slash: top level"],
  ["*.ts", "src/a.ts", true, "no slash: any depth"],
  ["*.ts", "src/a.tsx", false, "no slash: whole name"],
  ["Makefile", "a/b/Makefile", true, "a name at any depth"],
  ["Makefile", "a/Makefile.bak", false, "a name is whole"],
  ["{a,b}.md", "docs/b.md", true, "braces without a slash: any depth"],
  // leading ./ or / anchors at the rule's folder
  ["/Makefile", "Makefile", true, "anchored name"],
  ["/Makefile", "a/Makefile", false, "anchored name: top level only"],
  ["./src/*.ts", "src/a.ts", true, "./ anchors"],
  ["./*.ts", "src/a.ts", false, "./ without another slash anchors"],
  ["/src/*.ts", "lib/src/a.ts", false, "/ anchors"],
  ["src/*.ts", "lib/src/a.ts", false, "a slash inside anchors"],
  // trailing / means everything below
  ["docs/", "docs/a/b.md", true, "trailing slash: below"],
  ["docs/", "docs", true, "trailing slash: the folder itself"],
  ["docs/", "docsx/a", false, "trailing slash: that folder only"],
  // ** spans folders
  ["src/**", "src", true, "dir/** matches dir"],
  ["src/**", "src/a/b/c.ts", true, "dir/** matches below"],
  ["src/**/*.ts", "src/a.ts", true, "** matches zero folders"],
  ["src/**/*.ts", "src/a/b/c.ts", true, "** matches several folders"],
  ["a/**/b", "a/b", true, "a/**/b: zero folders"],
  ["a/**/b", "a/x/y/b", true, "a/**/b: two folders"],
  ["a/**/b", "a/xb", false, "a/**/b: folders are whole"],
  ["**", "a/b/c", true, "** alone"],
  ["**/x", "x", true, "**/ at the start: zero folders"],
  ["a**c", "abc", true, "** inside a segment is *"],
  ["a**c", "a/bc", false, "** inside a segment does not cross /"],
  // * and ?
  ["src/*", "src/a/b", false, "* does not cross /"],
  ["src/*.ts", "src/.ts", true, "* may be empty"],
  ["src/?.ts", "src/a.ts", true, "? is one character"],
  ["src/?.ts", "src/ab.ts", false, "? is exactly one"],
  ["a?b", "a/b", false, "? is not /"],
  ["/?", "😀", true, "? is one code point"],
  // classes
  ["/[abc].ts", "b.ts", true, "class"],
  ["/[a-c].ts", "d.ts", false, "range"],
  ["/[!a].ts", "b.ts", true, "! negates"],
  ["/[!a].ts", "a.ts", false, "! negates (excluded)"],
  ["/[^a].ts", "a.ts", false, "^ negates"],
  ["/[]a]", "]", true, "] first is a member"],
  ["/[a-]", "-", true, "- last is a member"],
  ["/[\\]]", "]", true, "escaped ] in a class"],
  ["a[!b]c", "a/c", false, "a negated class never matches /"],
  ["/a[", "a[", true, "unclosed [ is literal"],
  ["/a[b/c]", "a[b/c]", true, "[ with / inside is literal"],
  ["/[é]", "é", true, "class of a non-ASCII character"],
  // braces
  ["src/{a,b}/**", "src/b/x.ts", true, "braces"],
  ["src/{a,b}/**", "src/c/x.ts", false, "braces: only the alternatives"],
  ["*.{ts,tsx}", "a/b.tsx", true, "braces in an extension"],
  ["/{a,b{c,d}}", "bd", true, "nested braces"],
  ["/{a,b{c,d}}", "b", false, "nested braces: whole alternatives"],
  ["{src/a,lib}/x", "src/a/x", true, "braces holding /"],
  ["/{a,}b", "b", true, "an empty alternative"],
  ["/{a}", "{a}", true, "braces without a comma are literal"],
  ["/a{b", "a{b", true, "an unclosed brace is literal"],
  ["/a}b", "a}b", true, "a stray } is literal"],
  ["/{1..3}", "{1..3}", true, "ranges are literal"],
  ["/{a,[b,c]}", "[b,c]", false, "a comma inside a class does not split braces"],
  ["/{a,[b,c]}", "c", true, "a class inside braces"],
  // escapes
  ["/a\\*", "a*", true, "escaped *"],
  ["/a\\*", "ab", false, "escaped * is literal"],
  ["/\\{a,b\\}", "{a,b}", true, "escaped braces"],
  ["/a\\", "a\\", true, "a trailing backslash is literal"],
  ["/\\!x", "!x", true, "escaped !"],
  // dot files, case, odd characters
  ["*", ".env", true, "* matches dot files"],
  ["**/*.yml", ".github/workflows/ci.yml", true, "** enters dot folders"],
  ["*.MD", "a.md", false, "case-sensitive"],
  ["/a\0b", "a\0b", true, "NUL is a literal character"],
  ["/(a)", "(a)", true, "parentheses are literal (no extglobs)"],
  ["/+(a)", "a", false, "extglob +() is literal"],
];

describe("compileGlob: semantics", () => {
  it.each(TABLE)("%j vs %j → %s (%s)", (glob, path, expected) => {
    expect(test(glob, path)).toBe(expected);
  });

  it("normalises the glob it compiles, and keeps the one it was given", () => {
    const compiled = compileGlob(" *.ts ");
    expect(compiled.ok && { glob: compiled.glob.glob, pattern: compiled.glob.pattern }).toEqual({
      glob: " *.ts ",
      pattern: "**/*.ts",
    });
  });

  it("never throws on a non-string path", () => {
    const compiled = compileGlob("**");
    expect(compiled.ok && compiled.glob.test(42 as unknown as string)).toBe(false);
  });
});

describe("compileGlob: caps", () => {
  it("refuses a glob longer than maxLength with GLOB_TOO_COMPLEX naming the glob, the file and the declarer", () => {
    const glob = `${"a".repeat(DEFAULT_GLOB_LIMITS.maxLength)}*`;
    const result = compileGlob(glob, { path: "skills/x.md", source: 'skill "x"' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.diagnostic).toMatchObject({ code: GLOB_TOO_COMPLEX, severity: "warning", path: "skills/x.md" });
    expect(result.diagnostic.message).toContain('of skill "x" refused: it is longer than 512 characters');
    expect(result.diagnostic.message.length).toBeLessThan(200);
    expect(compileGlob("a".repeat(DEFAULT_GLOB_LIMITS.maxLength - 3)).ok).toBe(true);
  });

  it("refuses braces standing for more patterns than maxBraceExpansions, counted without expanding", () => {
    expect(compileGlob("{a,b}".repeat(10)).ok).toBe(true); // 1,024
    const result = compileGlob("{a,b}".repeat(11)); // 2,048
    expect(!result.ok && result.diagnostic.message).toContain("braces stand for more than 1,024 patterns");
    expect(compileGlob("{a,b}".repeat(11), { limits: { maxBraceExpansions: 4096 } }).ok).toBe(true);
    expect(compileGlob("{{a,b},{c,{d,e}}}/x", { limits: { maxBraceExpansions: 4 } }).ok).toBe(false); // 5 patterns
  });

  it("a path longer than maxPathLength matches nothing", () => {
    const compiled = compileGlob("**", { limits: { maxPathLength: 10 } });
    expect(compiled.ok && [compiled.glob.test("a".repeat(10)), compiled.glob.test("a".repeat(11))]).toEqual([
      true,
      false,
    ]);
  });
});

describe("compileGlobs / limitGlobList", () => {
  it("tests a path against every glob; skips non-strings and blanks", () => {
    const set = compileGlobs(["docs/**", 42, "", "  ", "*.ts"]);
    expect(set.globs.map((g) => g.glob)).toEqual(["docs/**", "*.ts"]);
    expect([set.test("docs/a.md"), set.test("src/a.ts"), set.test("src/a.md")]).toEqual([true, true, false]);
    expect(set.diagnostics).toEqual([]);
  });

  it("keeps the first maxGlobsPerRule globs, with one diagnostic", () => {
    const globs = Array.from({ length: 300 }, (_, i) => `dir${i}/**`);
    const set = compileGlobs(globs, { source: 'rule "r"' });
    expect(set.globs).toHaveLength(256);
    expect(set.diagnostics).toHaveLength(1);
    expect(set.diagnostics[0]!.message).toBe(
      'Globs of rule "r" refused: 300 globs are declared; only the first 256 are used',
    );
    expect([set.test("dir255/a"), set.test("dir256/a")]).toEqual([true, false]);
  });

  it("keeps globs up to maxCharsPerRule characters together", () => {
    const listed = limitGlobList(["a".repeat(6), "b".repeat(6), "c"], { limits: { maxCharsPerRule: 12 } });
    expect(listed.globs).toEqual(["a".repeat(6), "b".repeat(6)]);
    expect(listed.diagnostics[0]!.message).toContain("longer than 12 characters together; only the first 2 are used");
  });

  it("refused globs leave the others working", () => {
    const set = compileGlobs(["{a,b}".repeat(11), "*.md"]);
    expect(set.globs.map((g) => g.glob)).toEqual(["*.md"]);
    expect(set.diagnostics.map((d) => d.code)).toEqual([GLOB_TOO_COMPLEX]);
    expect(set.test("x/y.md")).toBe(true);
  });
});

describe("compileNamePattern", () => {
  const name = (pattern: string, candidate: string) => {
    const compiled = compileNamePattern(pattern);
    return compiled.ok && compiled.glob.test(candidate);
  };

  it("* and ? are wildcards over any character; the rest is literal and case-sensitive", () => {
    expect(name("mcp__github__*", "mcp__github__search")).toBe(true);
    expect(name("mcp__github__*", "mcp__gitlab__search")).toBe(false);
    expect(name("tool_?", "tool_a")).toBe(true);
    expect(name("tool_?", "tool_ab")).toBe(false);
    expect(name("a*", "a/b")).toBe(true);
    expect(name("[ab]", "a")).toBe(false);
    expect(name("[ab]", "[ab]")).toBe(true);
    expect(name("{a,b}", "{a,b}")).toBe(true);
    expect(name("Read", "read")).toBe(false);
  });

  it("refuses a pattern over the length cap", () => {
    expect(compileNamePattern("*".repeat(257)).ok).toBe(false);
    expect(compileNamePattern("*".repeat(256)).ok).toBe(true);
  });
});

// The GLOB_TOO_COMPLEX warnings a rule's author sees, word for word (mutation testing, issue 38).
describe("GLOB_TOO_COMPLEX messages", () => {
  const refused = (result: ReturnType<typeof compileGlob>) => (result.ok ? undefined : result.diagnostic);

  it("names one glob whole up to 80 characters, and its first 77 then ... past them", () => {
    const short = `${"x".repeat(79)}*`;
    expect(refused(compileGlob(short, { limits: { maxLength: 10 } }))?.message).toBe(
      `Glob "${short}" refused: it is longer than 10 characters`,
    );
    const long = `${"x".repeat(80)}*`;
    expect(refused(compileGlob(long, { limits: { maxLength: 10 } }))?.message).toBe(
      `Glob "${"x".repeat(77)}..." refused: it is longer than 10 characters`,
    );
  });

  it("says Globs, without a declarer, for a list over its caps; the file stays on the warning", () => {
    expect(limitGlobList(["a", "b", "c"], { limits: { maxGlobsPerRule: 2 }, path: "r.mdc" })).toEqual({
      globs: ["a", "b"],
      diagnostics: [
        {
          code: GLOB_TOO_COMPLEX,
          severity: "warning",
          message: "Globs refused: 3 globs are declared; only the first 2 are used",
          path: "r.mdc",
        },
      ],
    });
    expect(limitGlobList(Array(1500).fill("a"), { limits: { maxGlobsPerRule: 1200 } }).diagnostics[0]?.message).toBe(
      "Globs refused: 1,500 globs are declared; only the first 1,200 are used",
    );
  });

  it("a value that is not a list gives no globs and no warning", () => {
    expect(limitGlobList("a/**" as unknown as unknown[])).toEqual({ globs: [], diagnostics: [] });
  });

  it("counts big caps with thousands separators", () => {
    const braces = "{a,b}".repeat(11);
    expect(refused(compileGlob(braces, { limits: { maxBraceExpansions: 2000 } }))?.message).toBe(
      `Glob "${braces}" refused: its braces stand for more than 2,000 patterns`,
    );
  });
});

describe("compileNamePattern: caps and slashes", () => {
  it("a leading / is part of a tool name, not an anchor", () => {
    const compiled = compileNamePattern("/x");
    expect(compiled.ok && [compiled.glob.test("/x"), compiled.glob.test("x")]).toEqual([true, false]);
  });

  it("a name longer than 256 characters matches nothing; a longer pattern is refused with its length", () => {
    const any = compileNamePattern("*");
    expect(any.ok && [any.glob.test("a".repeat(256)), any.glob.test("a".repeat(257))]).toEqual([true, false]);
    const result = compileNamePattern("abc*", { limits: { maxLength: 3 }, source: 'skill "s"' });
    expect(!result.ok && result.diagnostic).toEqual({
      code: GLOB_TOO_COMPLEX,
      severity: "warning",
      message: 'Glob "abc*" of skill "s" refused: it is longer than 3 characters',
    });
  });

  it("never throws on a path that is not a string", () => {
    const compiled = compileGlob("**");
    expect(compiled.ok && compiled.glob.test(["a"] as unknown as string)).toBe(false);
    expect(compiled.ok && compiled.glob.test({ length: 1 } as unknown as string)).toBe(false);
  });
});
