// How a glob written in a rule's `paths:` (Claude Code, OpenHands), `globs:` (Cursor) or `applyTo:` (Copilot) is
// normalised before matching (docs/decisions.md: "Globs mean the same everywhere"; docs/architecture.md "Globs"):
// a glob without `/` matches at any depth, as in `.gitignore` (https://git-scm.com/docs/gitignore), a leading `./`
// or `/` anchors it at the rule's folder, a trailing `/` means everything below. Written for the survivors of the
// glob target's mutation run (issue 38).
import { describe, expect, it } from "vitest";
import { canonicalGlob, escapeGlob, folderGlob, normalizeGlob, trimGlob } from "./normalize-glob.js";

describe("normalizeGlob", () => {
  it.each([
    ["././x", "/x", "repeated ./ anchors once"],
    [".//a", "/a", "./ then extra slashes"],
    ["//a/b", "a/b", "several leading slashes"],
    ["/**", "**", "an anchored ** is **"],
    ["./a/", "a/**", "./ and a trailing /"],
    ["  src/  ", "src/**", "blanks around a folder"],
    ["\t*.md\n", "**/*.md", "tabs and newlines are blanks"],
    ["a/..b", "a/..b", "a name starting with .. is no parent folder"],
    ["a\\/", "a\\/", "an escaped trailing / is not everything below"],
    ["docs\\\\/", "docs\\\\/**", "a trailing / after an escaped backslash is"],
    ["x\\ ", "**/x\\ ", "an escaped trailing blank is kept"],
    ["x\\\\ ", "**/x\\\\", "a blank after an escaped backslash is trimmed"],
  ])("%j → %j (%s)", (glob, normal) => {
    expect(normalizeGlob(glob)).toEqual({ glob: normal });
  });

  it.each([
    ["/", "empty"],
    ["./", "empty"],
    ["", "empty"],
    [" !x", "negated"],
    ["a/../b", "parent"],
    ["..", "parent"],
    ["./../x", "parent"],
  ])("%j is refused: %s", (glob, problem) => {
    expect(normalizeGlob(glob)).toEqual({ problem });
  });

  it("canonicalGlob gives the same normal form without the checks", () => {
    expect(canonicalGlob("!x")).toBe("**/!x");
    expect(canonicalGlob("../x")).toBe("../x");
    expect(canonicalGlob("/")).toBe("");
    expect(canonicalGlob("**")).toBe("**");
  });
});

describe("trimGlob", () => {
  it("removes blanks around a glob but keeps a blank escaped at its end", () => {
    expect(trimGlob("  a b  ")).toBe("a b");
    expect(trimGlob("a\\  ")).toBe("a\\ ");
    expect(trimGlob("a\\\\  ")).toBe("a\\\\");
    expect(trimGlob("a\\\\\\ ")).toBe("a\\\\\\ ");
    expect(trimGlob(" \\ a")).toBe("\\ a");
  });
});

describe("escapeGlob / folderGlob", () => {
  it("escapes every character glob syntax or trimming reads, and keeps /", () => {
    expect(escapeGlob("a b/[c]{d,e}(f)!+@|^$*?\\")).toBe("a\\ b/\\[c\\]\\{d\\,e\\}\\(f\\)\\!\\+\\@\\|\\^\\$\\*\\?\\\\");
    expect(escapeGlob("plain/name.ts")).toBe("plain/name.ts");
  });

  it("a folder's glob matches everything below it; the root's is **", () => {
    expect(folderGlob("")).toBe("**");
    expect(folderGlob("a b/[x]")).toBe("a\\ b/\\[x\\]/**");
  });
});
