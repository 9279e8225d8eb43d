import { createPathMatcher, parseSkill } from "@skillctx/core";
import type { Trigger } from "@skillctx/core";
import { compileGlob } from "@skillctx/core/internal";
import fc from "fast-check";
import { describe, expect, it, test } from "vitest";
import type { Placement } from "./candidates.js";
import { escapeGlob, folderGlob, normalizeGlob, readGlobList, relocateGlob } from "./globs.js";
import { readRuleHeader } from "./rule-header.js";
import type { RuleFormat } from "./rule-header.js";
import { ruleTrigger } from "./rule-trigger.js";

// The one matcher (core glob/): `isMatch(path, glob)`; a list matches when one of its globs does.
const isMatch = (p: string, globs: string | string[]): boolean =>
  (Array.isArray(globs) ? globs : [globs]).some((g) => {
    const compiled = compileGlob(g);
    return compiled.ok && compiled.glob.test(p);
  });

describe("readGlobList", () => {
  test("reads comma-separated strings, lists and empty values", () => {
    expect(readGlobList("**/*.ts, src/**/*.tsx")).toEqual(["**/*.ts", "src/**/*.tsx"]);
    expect(readGlobList(["a/**", "b/*.md, c/**"])).toEqual(["a/**", "b/*.md", "c/**"]);
    expect(readGlobList("\"quoted/**\", 'single/*'")).toEqual(["quoted/**", "single/*"]);
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

  // Changed in issue 10: an anchored glob without another `/` keeps its `/` (`/Makefile`, was `Makefile`),
  // since `Makefile` alone now matches at any depth in every matcher, core's included.
  test("leading ./ and / anchor to the rule's folder; a trailing / means everything below", () => {
    expect(normalizeGlob("./src/*.ts")).toEqual({ glob: "src/*.ts" });
    expect(normalizeGlob("/Makefile")).toEqual({ glob: "/Makefile" });
    expect(normalizeGlob("docs/")).toEqual({ glob: "docs/**" });
    expect(isMatch("a/Makefile", (normalizeGlob("/Makefile") as { glob: string }).glob)).toBe(false);
    expect(isMatch("Makefile", (normalizeGlob("/Makefile") as { glob: string }).glob)).toBe(true);
  });

  test("normalising twice changes nothing", () => {
    for (const glob of ["*.ts", "/Makefile", "./src/*.ts", "docs/", "**", "a/**/b", "{a,b}.md"]) {
      const once = normalizeGlob(glob) as { glob: string };
      expect(normalizeGlob(once.glob)).toEqual(once);
    }
  });

  test("refuses negations, parent folders and empty globs", () => {
    expect(normalizeGlob("!src/**")).toEqual({ problem: "negated" });
    expect(normalizeGlob("../elsewhere/**")).toEqual({ problem: "parent" });
    expect(normalizeGlob("  ")).toEqual({ problem: "empty" });
  });
});

describe("escapeGlob / folderGlob", () => {
  test("folders with glob characters match only themselves", () => {
    const glob = folderGlob("app/[id]/(group)");
    expect(isMatch("app/[id]/(group)/page.tsx", glob)).toBe(true);
    expect(isMatch("app/i/group/page.tsx", glob)).toBe(false);
  });

  test("property: an escaped literal matches exactly itself", () => {
    const segment = fc.stringMatching(/^[a-z0-9*?[\]{}()!+@|^$ ,\\._-]{1,8}$/).filter((s) => s !== "." && s !== "..");
    fc.assert(
      fc.property(segment, segment, (literal, other) => {
        const glob = `/${escapeGlob(literal)}`;
        return isMatch(literal, glob) && (other === literal || !isMatch(other, glob));
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

  test("keeps braces and anchors what has no / left", () => {
    expect(relocateGlob("packages/api/*.{ts,tsx}", { up: "packages/api" })).toEqual(["/*.{ts,tsx}"]);
    expect(relocateGlob("packages/api/Makefile", { up: "packages/api" })).toEqual(["/Makefile"]);
    expect(relocateGlob("{packages/api/src,lib}/**", { up: "packages/api" })).toEqual(["src/**"]);
    expect(relocateGlob("/Makefile", { down: "web" })).toEqual(["web/Makefile"]);
  });

  // Reference: a path p below cwd matches the relocated globs exactly when up/p matches the original.
  test("property: relocated globs agree with the original glob on every path below cwd", () => {
    const name = fc.constantFrom("a", "b", "src", "x.ts", "y.md");
    const globSegment = fc.constantFrom("a", "b", "src", "*", "**", "*.ts", "x.*", "{a,b}", "?");
    const relPath = fc.array(name, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
    const glob = fc
      .array(globSegment, { minLength: 1, maxLength: 5 })
      .map((s) => (normalizeGlob(s.join("/")) as { glob: string }).glob);
    const up = fc.array(fc.constantFrom("a", "b", "src"), { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(glob, up, fc.array(relPath, { minLength: 1, maxLength: 8 }), (g, prefix, paths) => {
        const moved = relocateGlob(g, { up: prefix });
        return paths.every((p) => isMatch(`${prefix}/${p}`, g) === isMatch(p, moved));
      }),
      { numRuns: 500 },
    );
  });
});

// Every caller reads a glob the same way: OpenHands `paths:` (core), Cursor `globs` and Copilot `applyTo`
// (here, moved to cwd by ruleTrigger), all matched by core's createPathMatcher.
describe("one reading of a glob across formats", () => {
  const paths = ["a.ts", "src/deep/b.ts", "src/a/x.md", "src/c/x.md", "docs/a.tsx", "Makefile", "tools/Makefile"];
  const fired = (trigger: Trigger): string[] => {
    const matcher = createPathMatcher([{ name: "s", trigger }]);
    return paths.filter((p) => matcher.match([p], "/repo").length > 0);
  };
  const openhands = (globs: string) =>
    parseSkill(`---\nname: s\npaths: ${globs}\n---\nx\n`, { format: "legacy" }).trigger;
  const rule = (
    format: RuleFormat,
    field: string,
    globs: string,
    place: Placement = { type: "level", up: "" },
  ): Trigger => {
    const result = ruleTrigger(readRuleHeader(`---\n${field}: ${globs}\n---\nx\n`, { path: "r", format }), {
      format,
      place,
      file: "r",
    });
    if (!result.ok) throw new Error("rule not loaded");
    return result.trigger;
  };

  it.each(["*.ts", "src/{a,b}/*.md", "Makefile", "/Makefile", "./*.ts", "src/", "*.{ts,tsx}"])("%s", (glob) => {
    const quoted = JSON.stringify(glob);
    const expected = fired(openhands(quoted));
    expect(fired(rule("cursor-mdc", "globs", quoted))).toEqual(expected);
    expect(fired(rule("copilot-instructions", "applyTo", quoted))).toEqual(expected);
  });

  it("*.ts matches at any depth for every format", () => {
    expect(fired(openhands("*.ts"))).toEqual(["a.ts", "src/deep/b.ts"]);
    expect(fired(rule("cursor-mdc", "globs", "*.ts"))).toEqual(["a.ts", "src/deep/b.ts"]);
  });

  it("a rule in a parent folder, moved down to cwd, keeps its reading", () => {
    const up = rule("cursor-mdc", "globs", "packages/api/src/*.ts, *.md", { type: "level", up: "packages/api" });
    expect(up).toEqual({ type: "path", globs: ["src/*.ts", "**/*.md"] });
    const down = rule("cursor-mdc", "globs", "*.ts", { type: "nested", down: "web" });
    expect(down).toEqual({ type: "path", globs: ["web/**/*.ts"] });
  });

  it("a hostile rule gets GLOB_TOO_COMPLEX warnings with its file, and its other globs still apply", () => {
    const result = ruleTrigger(
      readRuleHeader(`---\nglobs: "${"{a,b}".repeat(20)}, ${"*?".repeat(300)}, *.md"\n---\nx\n`, {
        path: "r.mdc",
        format: "cursor-mdc",
      }),
      {
        format: "cursor-mdc",
        place: { type: "level", up: "" },
        file: "r.mdc",
      },
    );
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ["GLOB_TOO_COMPLEX", "r.mdc"],
      ["GLOB_TOO_COMPLEX", "r.mdc"],
    ]);
    expect(result.ok && result.trigger).toEqual({ type: "path", globs: ["**/*.md"] });
  });
});
