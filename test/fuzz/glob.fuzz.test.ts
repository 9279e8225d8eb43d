// Fuzz: glob compilation (paths: frontmatter, rule globs, allowed-tools patterns) and matching.
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { compileGlob, compileGlobs, compileNamePattern } from "../../packages/core/src/glob/compile-glob.js";
import { normalizeGlob } from "../../packages/core/src/glob/normalize-glob.js";
import { splitGlobList, splitGlobs } from "../../packages/core/src/glob/split-glob-list.js";
import { fuzz, hostileJson, hostileText, report, RUNS } from "./harness.js";

afterAll(() => console.info(report()));

const path = fc
  .array(fc.constantFrom("a", "b", "src", ".git", "x.ts", "..", "{", "*", "a b", "\u00e9"), { maxLength: 40 })
  .map((p) => p.join("/"));

it("compileGlob / compileNamePattern and matching: a result or a diagnostic, bounded time", async () => {
  const tried = await fuzz("glob", fc.tuple(hostileText, path), ([glob, file]) => {
    normalizeGlob(glob);
    const compiled = compileGlob(glob);
    if (compiled.ok) compiled.glob.test(file);
    const name = compileNamePattern(glob);
    if (name.ok) name.glob.test(file);
  });
  expect(tried).toBe(RUNS);
});

it("glob lists: compileGlobs, splitGlobs and splitGlobList of any value", async () => {
  const tried = await fuzz("glob-list", fc.tuple(hostileJson, hostileText), ([value, text]) => {
    splitGlobList(value);
    splitGlobs(text);
    compileGlobs(Array.isArray(value) ? value : [value]);
  });
  expect(tried).toBe(RUNS);
});
