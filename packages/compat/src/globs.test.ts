import fc from "fast-check";
import micromatch from "micromatch";
import { describe, expect, test } from "vitest";
import { escapeGlob, folderGlob, normalizeGlob, readGlobList, relocateGlob } from "./globs.js";

describe("readGlobList", () => {
  test("reads comma-separated strings, lists and empty values", () => {
    expect(readGlobList("**/*.ts, src/**/*.tsx")).toEqual(["**/*.ts", "src/**/*.tsx"]);
    expect(readGlobList(["a/**", "b/*.md, c/**"])).toEqual(["a/**", "b/*.md", "c/**"]);
    expect(readGlobList('"quoted/**", \'single/*\'')).toEqual(["quoted/**", "single/*"]);
    expect(readGlobList("")).toEqual([]);
    expect(readGlobList(null)).toEqual([]);
    expect(readGlobList(undefined)).toEqual([]);
  });

  test("does not split inside braces or brackets", () => {
    expect(readGlobList("src/**/*.{ts,tsx}, lib/[a,b]/*")).toEqual(["src/**/*.{ts,tsx}", "lib/[a,b]/*"]);
  });

  test("refuses other types", () => {
    expect(readGlobList(42)).toBeUndefined();
    expect(readGlobList({ a: 1 })).toBeUndefined();
    expect(readGlobList(["a", 1])).toBeUndefined();
  });
});

describe("normalizeGlob", () => {
  test("a glob without a slash matches at any depth, like .gitignore", () => {
    expect(normalizeGlob("*.ts")).toEqual({ glob: "**/*.ts" });
    expect(normalizeGlob("Makefile")).toEqual({ glob: "**/Makefile" });
  });

  test("leading ./ and / anchor to the rule's folder; a trailing / means everything below", () => {
    expect(normalizeGlob("./src/*.ts")).toEqual({ glob: "src/*.ts" });
    expect(normalizeGlob("/Makefile")).toEqual({ glob: "Makefile" });
    expect(normalizeGlob("docs/")).toEqual({ glob: "docs/**" });
  });

  test("refuses negations, parent folders and empty globs", () => {
    expect(normalizeGlob("!src/**")).toEqual({ problem: "negated" });
    expect(normalizeGlob("../shared/**")).toEqual({ problem: "parent" });
    expect(normalizeGlob("  ")).toEqual({ problem: "empty" });
  });
});

describe("escapeGlob / folderGlob", () => {
  test("folders with glob characters match only themselves", () => {
    const glob = folderGlob("app/[id]/(group)");
    expect(micromatch.isMatch("app/[id]/(group)/page.tsx", glob)).toBe(true);
    expect(micromatch.isMatch("app/i/group/page.tsx", glob)).toBe(false);
  });

  test("property: an escaped literal matches exactly itself", () => {
    const segment = fc.stringMatching(/^[a-z0-9*?[\]{}()!+@|^$ ._-]{1,8}$/).filter((s) => s !== "." && s !== ".." && !s.startsWith("!"));
    fc.assert(
      fc.property(segment, segment, (literal, other) => {
        const glob = escapeGlob(literal);
        return micromatch.isMatch(literal, glob, { dot: true }) && (other === literal || !micromatch.isMatch(other, glob, { dot: true }));
      }),
    );
  });
});

describe("relocateGlob", () => {
  test("down: prefixes the rule's folder", () => {
    expect(relocateGlob("src/**/*.tsx", { down: "web" })).toEqual(["web/src/**/*.tsx"]);
    expect(relocateGlob("**/*.ts", { down: "app/[id]" })).toEqual(["app/\\[id\\]/**/*.ts"]);
  });

  test("up: consumes the path to cwd; ** absorbs any part of it", () => {
    expect(relocateGlob("packages/api/src/**/*.ts", { up: "packages/api" })).toEqual(["src/**/*.ts"]);
    expect(relocateGlob("**/*.test.ts", { up: "packages/api" })).toEqual(["**/*.test.ts"]);
    expect(relocateGlob("docs/**", { up: "packages/api" })).toEqual([]);
    expect(relocateGlob("packages/*/src/**", { up: "packages/api" })).toEqual(["src/**"]);
    expect(relocateGlob("{packages,apps}/api/**", { up: "packages/api" })).toEqual(["**"]);
  });

  // Reference: a path p below cwd matches the relocated globs exactly when up/p matches the original.
  test("property: relocated globs agree with the original glob on every path below cwd", () => {
    const name = fc.constantFrom("a", "b", "src", "x.ts", "y.md");
    const globSegment = fc.constantFrom("a", "b", "src", "*", "**", "*.ts", "x.*", "{a,b}", "?");
    const relPath = fc.array(name, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
    const glob = fc.array(globSegment, { minLength: 1, maxLength: 5 }).map((s) => s.join("/"));
    const up = fc.array(fc.constantFrom("a", "b", "src"), { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(glob, up, fc.array(relPath, { minLength: 1, maxLength: 8 }), (g, prefix, paths) => {
        const moved = relocateGlob(g, { up: prefix });
        return paths.every((p) => micromatch.isMatch(`${prefix}/${p}`, g) === (moved.length > 0 && micromatch.isMatch(p, moved)));
      }),
      { numRuns: 500 },
    );
  });
});
