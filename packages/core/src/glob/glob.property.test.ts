/**
 * Property tests of the one glob matcher: against micromatch (the matcher it replaces) on a grammar
 * without the shapes where the two are meant to differ, and relocation against the matcher itself.
 */
import fc from "fast-check";
import micromatch from "micromatch";
import { describe, expect, it } from "vitest";
import { compileGlob } from "./compile-glob.js";
import { normalizeGlob } from "./normalize-glob.js";
import { relocateGlob } from "./relocate-glob.js";
import { splitGlobs } from "./split-glob-list.js";

const matches = (globs: string | readonly string[], path: string): boolean =>
  (typeof globs === "string" ? [globs] : globs).some((glob) => {
    const compiled = compileGlob(glob);
    return compiled.ok && compiled.glob.test(path);
  });

// micromatch with dot files, a glob without `/` put at any depth (as OpenHands and Cursor read it).
const reference = (glob: string, path: string): boolean =>
  micromatch.isMatch(path, glob.includes("/") ? glob : `**/${glob}`, { dot: true });

const name = fc.constantFrom("a", "b", "ab", ".x", "x.ts", "a.ts", "b.md", "[a]", "a,b");
const path = fc.array(name, { minLength: 1, maxLength: 5 }).map((parts) => parts.join("/"));
// Segments micromatch and skillctx read alike. Left out on purpose: `[!...]` (micromatch reads some as
// literal), `(...)` (micromatch extglobs), a wildcard segment before a final `/**` (micromatch's `*\/**`
// does not match `a`; skillctx's `dir/**` always matches `dir`).
const segment = fc.constantFrom(
  "a",
  "b",
  "ab",
  ".x",
  "x.ts",
  "*",
  "?",
  "*.ts",
  "a*",
  "*b",
  "?b",
  "[ab]",
  "[a-c]*",
  "[^a]",
  "{a,b}",
  "{a,*.ts}",
  "{a,b{,.ts}}",
  "\\[a\\]",
  "a\\,b",
);
const glob = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(segment, fc.constant("**")), { minLength: 1, maxLength: 4 }))
  .map(([lead, parts]) => (lead ? ["**", ...parts] : parts))
  .filter((parts) => !(parts.length > 1 && parts[parts.length - 1] === "**" && /[*?[]/.test(parts[parts.length - 2]!)))
  .map((parts) => parts.join("/"));

describe("glob matcher (properties)", () => {
  it("agrees with micromatch on ordinary globs and paths", () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 6 }), (g, paths) => {
        for (const p of paths) expect(matches(g, p), `${g} vs ${p}`).toBe(reference(g, p));
      }),
      { numRuns: 2000 },
    );
  });

  it("an escaped literal name matches itself only", () => {
    const literal = fc.string({
      unit: fc.constantFrom("a", "*", "?", "[", "]", "{", "}", ",", "\\", "!", " ", ".", "-"),
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(literal, literal, (text, other) => {
        const escaped = `/${text.replace(/[\\*?[\]{},!\s]/g, "\\$&")}`;
        expect(matches(escaped, text)).toBe(true);
        if (other !== text) expect(matches(escaped, other)).toBe(false);
      }),
    );
  });

  // A path p below cwd matches the relocated globs exactly when up/p matches the original.
  it("relocated globs (up) agree with the original on every path below cwd", () => {
    const up = fc.array(fc.constantFrom("a", "b", "ab", ".x"), { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
    fc.assert(
      fc.property(glob, up, fc.array(path, { minLength: 1, maxLength: 6 }), (g, prefix, paths) => {
        const normal = normalizeGlob(g);
        if (!("glob" in normal)) return;
        const moved = relocateGlob(normal.glob, { up: prefix });
        for (const p of paths)
          expect(matches(moved, p), `${normal.glob} up ${prefix}: ${JSON.stringify(moved)} vs ${p}`).toBe(
            matches(normal.glob, `${prefix}/${p}`),
          );
      }),
      { numRuns: 2000 },
    );
  });

  it("relocated globs (down) match exactly the paths below the folder that the original matches there", () => {
    const down = fc
      .array(fc.constantFrom("a", "b", "[x]", "{y}", "c d"), { minLength: 1, maxLength: 3 })
      .map((s) => s.join("/"));
    fc.assert(
      fc.property(glob, down, fc.array(path, { minLength: 1, maxLength: 6 }), (g, folder, paths) => {
        const normal = normalizeGlob(g);
        if (!("glob" in normal)) return;
        const [moved] = relocateGlob(normal.glob, { down: folder });
        for (const p of paths) {
          if (p === folder) continue; // the folder itself, not a path below it
          expect(matches(moved!, `${folder}/${p}`)).toBe(matches(normal.glob, p));
          expect(matches(moved!, p)).toBe(
            p.startsWith(`${folder}/`) && matches(normal.glob, p.slice(folder.length + 1)),
          );
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("splitting a list and joining it back with commas gives the same globs", () => {
    fc.assert(
      fc.property(fc.array(glob, { minLength: 1, maxLength: 5 }), (globs) => {
        expect(splitGlobs(globs.join(", "))).toEqual(globs);
      }),
    );
  });
});
