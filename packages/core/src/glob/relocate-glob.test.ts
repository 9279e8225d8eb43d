// Moving a rule's globs between its folder and cwd: a Cursor or Claude Code rule in a folder above cwd keeps
// matching the files it names (docs/conventions.md `rule-globs-from-their-folder`:
// https://code.claude.com/docs/en/memory#path-specific-rules ; https://docs.cursor.com/context/rules), and a
// nested rule's globs get its folder as prefix. Written for the survivors of the glob target's mutation run
// (issue 38); the property tests in glob.property.test.ts check the same against the matcher on random globs.
import { describe, expect, it } from "vitest";
import { relocateGlob } from "./relocate-glob.js";

describe("relocateGlob", () => {
  it("leaves a glob unchanged when the folders are the same", () => {
    expect(relocateGlob("src/**", { up: "" })).toEqual(["src/**"]);
    expect(relocateGlob("src/**", { down: "" })).toEqual(["src/**"]);
    expect(relocateGlob("/Makefile", { down: "" })).toEqual(["/Makefile"]);
  });

  it.each([
    ["a/{b,c}/d", "a/c", ["/d"], "an alternative taken by the path"],
    ["a/[bc]/d", "a/c", ["/d"], "a class taken by the path"],
    ["a/?/x", "a/b", ["/x"], "a ? taken by the path"],
    ["a/*/{x,y/**}", "a/q", ["{x,y/**}"], "the rest of a group, with its braces"],
    ["a/{b/c,b}/d", "a/b", ["c/d", "/d"], "two ways through the braces, two globs"],
    ["a/b/**", "a/b", ["**"], "the folder's ** is everything"],
    ["a/b/**", "a/b/c", ["**"], "** absorbs the rest of the path"],
    ["x/**/y", "x", ["**/y"], "**/ stays"],
    ["{a/**/b,**/b}", "a", ["**/b"], "**/b covers /b"],
    ["**/x/*.ts", "p/x", ["**/x/*.ts", "/*.ts"], "**/x/… also matches a deeper x"],
    ["a/b", "a/b", [], "a file is nothing below itself"],
    ["/Makefile", "x", [], "an anchored file names nothing below a folder"],
    ["x/!y/**", "x", ["\\!y/**"], "a rest starting with ! is escaped, not an exclusion"],
  ])("%j up %j → %j (%s)", (glob, up, moved) => {
    expect(relocateGlob(glob, { up })).toEqual(moved);
  });

  it("returns a glob over the caps unchanged, for compiling to refuse it", () => {
    const braces = "{a,b}".repeat(11);
    expect(relocateGlob(braces, { up: "x" })).toEqual([braces]);
    expect(relocateGlob("a/{b,c}{d,e}/x", { up: "a/bd" }, { maxBraceExpansions: 3 })).toEqual(["a/{b,c}{d,e}/x"]);
    expect(relocateGlob("a/{b,c}{d,e}/x", { up: "a/bd" }, { maxBraceExpansions: 4 })).toEqual(["/x"]);
    expect(relocateGlob("a/bbbb/x", { up: "a/bbbb" }, { maxLength: 7 })).toEqual(["a/bbbb/x"]);
    expect(relocateGlob("a/bbbb/x", { up: "a/bbbb" }, { maxLength: 8 })).toEqual(["/x"]);
  });
});
