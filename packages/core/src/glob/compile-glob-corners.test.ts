// Corners of the glob syntax that the semantics table of compile-glob.test.ts leaves out, each one a wrong
// program that once passed every test (mutation testing, issue 38): characters outside the Basic Multilingual
// Plane, a negated class facing `/`, a class of separate characters, `**` inside a segment or ending an
// alternative, escapes inside `[]`, and globs whose automaton outgrows the matcher's first work space.
import { describe, expect, it } from "vitest";
import { compileGlob } from "./compile-glob.js";

const test = (glob: string, path: string): boolean => {
  const compiled = compileGlob(glob);
  if (!compiled.ok) throw new Error(compiled.diagnostic.message);
  return compiled.glob.test(path);
};

// The globs hold a `/` (and a wildcard) on purpose: a glob without one is matched on the path's last segment
// only, and a glob without a wildcard is compared as text, so neither would reach the automaton.
const CORNERS: Array<[string, string, boolean, string]> = [
  // characters outside the BMP (two UTF-16 units, one character)
  ["d/[😀]x", "d/😀x", true, "a class holding an emoji matches it"],
  ["d/[😀]x", "d/😁x", false, "a class holding an emoji matches only it"],
  ["d/[😀-😂]", "d/😁", true, "a range of emoji"],
  ["d/[😀-😂]", "d/😃", false, "a range of emoji ends at its end"],
  ["d/[!😀]", "d/😁", true, "a negated emoji class takes another emoji"],
  ["d/[!😀]", "d/😀", false, "a negated emoji class refuses its own"],
  ["d/?x", "d/😀x", true, "? takes a whole emoji"],
  ["d/??x", "d/😀x", false, "an emoji is one character, not two"],
  ["d/*😀", "d/ab😀", true, "an emoji after *"],
  ["d/*😀", "d/ab😁", false, "an emoji after * is compared whole"],
  ["d/*\\😀?", "d/a😀b", true, "an escaped emoji"],
  ["d/𠀀*", "d/𠀀x", true, "a CJK extension B character"],
  ["d/?x", "d/\ud800x", true, "a lone high surrogate is one character"],
  ["d/?x", "d/\udc00x", true, "a lone low surrogate is one character"],
  ["d/??", "d/\ud800x", true, "a high surrogate before a plain character stays apart"],
  // a negated class never takes `/`
  ["d/a[!x]b", "d/a/b", false, "a negated class does not match /"],
  ["d/a[^x]b", "d/a/b", false, "a ^-negated class does not match /"],
  ["d/a[!x]b", "d/ayb", true, "a negated class matches another character"],
  ["d/a[!x]b", "d/axb", false, "a negated class refuses its members"],
  // a class of separate characters is not a range
  ["d/[acz]", "d/b", false, "[acz] does not hold b"],
  ["d/[acz]", "d/c", true, "[acz] holds c"],
  ["d/[acz]", "d/z", true, "[acz] holds z"],
  ["d/[a-cx-z]?", "d/wq", false, "two ranges leave the gap out"],
  ["d/[a-cx-z]?", "d/yq", true, "two ranges: the second one"],
  ["d/[a-]?", "d/bq", false, "- last is a member, not a range"],
  // `**` that is not a whole segment is `*`
  ["d/**x", "d/abx", true, "**x inside a segment"],
  ["d/**x", "d/a/x", false, "**x does not cross /"],
  ["d/x**", "d/x/y", false, "x** does not cross /"],
  ["d/x**/y", "d/xa/y", true, "x**/ is x*/"],
  ["d/x**/y", "d/xa/b/y", false, "x**/ spans one folder only"],
  ["d/**/**/y", "d/y", true, "**/**/ is **/: zero folders"],
  ["d/**/**/y", "d/a/b/y", true, "**/**/ is **/: several folders"],
  ["d/**/**", "d", true, "x/**/** is x/**: the folder itself"],
  // `**` ending an alternative of `{}`
  ["d/{a/**,b}", "d/a", true, "a/** in braces: the folder itself"],
  ["d/{a/**,b}", "d/a/x/y", true, "a/** in braces: below it"],
  ["d/{a/**,b}", "d/ab", false, "a/** in braces: that folder only"],
  ["d/{a/**,b}", "d/b/x", false, "the other alternative stays whole"],
  ["d/{**,b}/c", "d/x/y/c", true, "** as a whole alternative spans folders"],
  ["d/{x**,b}/c", "d/x/y/c", false, "x** in an alternative does not cross /"],
  ["d/{x**,b}/c", "d/xyz/c", true, "x** in an alternative is x*"],
  ["d/{b,**}", "d/x/y", true, "** as the last alternative"],
  // escapes inside []
  ["d/[a\\-z]", "d/b", false, "an escaped - is a member, not a range"],
  ["d/[a\\-z]", "d/-", true, "an escaped - is a member"],
  ["d/[a\\-z]", "d/z", true, "the character after an escaped -"],
  ["d/[\\!a]", "d/!", true, "an escaped ! first is a member, not a negation"],
  ["d/[\\!a]", "d/b", false, "an escaped ! does not negate"],
  ["d/[\\]]?", "d/]q", true, "an escaped ] is a member"],
  ["d/[\\\\]?", "d/\\q", true, "an escaped backslash is a member"],
  ["d/[\\a-c]?", "d/bq", true, "an escaped range start"],
  // where the surrogate pairs begin and end: U+10000, U+103FF and U+10FFFF are one character each
  ["d/?", "d/\u{10000}", true, "U+10000 (high surrogate D800) is one character"],
  ["d/?", "d/\u{103ff}", true, "U+103FF (low surrogate DFFF) is one character"],
  ["d/?", "d/\u{10ffff}", true, "U+10FFFF (high surrogate DBFF) is one character"],
  ["d/??", "d/\udc00\udc00", true, "two lone low surrogates are two characters"],
  ["d/??", "d/\ud800\ue000", true, "a high surrogate before U+E000 stays apart"],
  // U+FFFF is the last one-unit character
  ["/\\\uffffa", "\uffffa", true, "an escaped U+FFFF is one unit"],
  ["d/\uffffa*", "d/\uffffab", true, "U+FFFF is one unit"],
  ["d/[\\\uffff]a", "d/\uffffa", true, "an escaped U+FFFF in a class is one unit"],
  ["d/[\uffff]a", "d/\uffffa", true, "U+FFFF in a class is one unit"],
  // the edges of a class
  ["d/[a]", "d/]", false, "the closing ] is not a member"],
  ["d/[!a]", "d/!", true, "! after [ negates, it is not a member"],
  ["d/[!]a]", "d/b", true, "] first after [! is a member of a negated class"],
  ["d/[!]a]", "d/]", false, "] first after [! is refused by the negation"],
  // braces: escapes, literal braces inside a group, ** before a brace that closes nothing
  ["d/{x,\\{a,b}}", "d/{a}", true, "an escaped { opens no group"],
  ["d/{x,\\{a,b}}", "d/x}", true, "the group ends at the first unescaped }"],
  ["d/{a,{b}}", "d/{b}", true, "a {b} without a comma is literal inside a group"],
  ["d/{a,{b/**}}", "d/{b/x}", true, "** before a literal } is a *"],
  ["d/{a,{b/**}}", "d/{b/x/y}", false, "** before a literal } does not cross /"],
  ["d/{**x,b}", "d/a/bx", false, "**x in an alternative does not cross /"],
  ["d/**,x", "d/a/b,x", false, "** before a comma outside braces is a *"],
  // the last character of a match is checked against the glob's end
  ["d/{*,?}", "d/x", true, "alternatives that end in wildcards end anywhere"],
  ["**/{a/b,c}x", "q/a/bx", true, "**/ before alternatives holding / spans folders"],
  ["{a/b,c/d}*", "", false, "the empty path"],
];

describe("compileGlob: corners", () => {
  it.each(CORNERS)("%j vs %j → %s (%s)", (glob, path, expected) => {
    expect(test(glob, path)).toBe(expected);
  });
});

describe("compileGlob: globs over 64 instructions", () => {
  it("a glob of 100 ? matches exactly 100 characters", () => {
    const glob = `d/${"?".repeat(100)}`;
    expect(test(glob, `d/${"a".repeat(100)}`)).toBe(true);
    expect(test(glob, `d/${"a".repeat(99)}`)).toBe(false);
    expect(test(glob, `d/${"a".repeat(101)}`)).toBe(false);
  });

  it("80 alternatives live at once: each matches, others do not", () => {
    const alternatives = Array.from({ length: 80 }, (_, i) => `a${i}*`);
    const glob = `d/{${alternatives.join(",")}}/z`;
    expect(test(glob, "d/a79xyz/z")).toBe(true);
    expect(test(glob, "d/a0/z")).toBe(true);
    expect(test(glob, "d/a8x/z")).toBe(true);
    expect(test(glob, "d/b79/z")).toBe(false);
    expect(test(glob, "d/a79/y")).toBe(false);
  });

  it("a short glob after a long one still matches (the work space is shared)", () => {
    expect(test(`d/${"*a".repeat(120)}`, `d/${"a".repeat(120)}`)).toBe(true);
    expect(test(`d/${"*a".repeat(120)}`, `d/${"a".repeat(119)}`)).toBe(false);
    expect(test("d/*b", "d/ab")).toBe(true);
    expect(test("d/*b", "d/ba")).toBe(false);
  });
});
