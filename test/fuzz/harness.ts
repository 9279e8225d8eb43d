// The fuzz harness (issue 35): every parser of untrusted text is run on generated hostile input, and each
// input must give a result or a SkillctxError (never another throw), within a time and memory bound,
// and no field we escape may hold a closing tag of ours. `pnpm test` runs a bounded number of inputs per
// target (SKILLCTX_FUZZ_RUNS, default 60); `pnpm fuzz` runs many more (default 5,000). A failure prints
// the seed and the shrunk input; SKILLCTX_FUZZ_SEED replays a run. Each finding becomes a regression test.
import { performance } from "node:perf_hooks";
import fc from "fast-check";
import { expect } from "vitest";
import { SkillctxError } from "@skillctx/core";

/** Inputs per target. */
export const RUNS = positive(process.env.SKILLCTX_FUZZ_RUNS) ?? 60;
/** The seed of this run: given, or drawn once and printed with every failure. */
export const SEED = positive(process.env.SKILLCTX_FUZZ_SEED) ?? Math.floor(Math.random() * 2 ** 31);
/** Longest one input may take (generous: two cores shared with other work). */
export const MAX_MS_PER_INPUT = 5_000;
/** Most the heap may grow while one input is handled (a sign of unbounded work). */
export const MAX_HEAP_GROWTH_BYTES = 256 * 1024 * 1024;

/** Closing (and opening) tags of the blocks we wrap text in: none may appear inside an escaped field. */
export const OUR_TAGS = [
  "available_skills",
  "skill",
  "name",
  "description",
  "more_skills",
  "nested_skills",
  "skills_update",
  "skill-loaded",
  "guidance",
  "repository_guidance",
];

// Pieces that mean something to one of our parsers: YAML, Markdown, globs, ${VAR}, @imports, XML, controls.
const TOKENS = [
  "---",
  "\n",
  "\r\n",
  "\r",
  ":",
  ": ",
  "#",
  '"',
  "'",
  "\\",
  "{",
  "}",
  "[",
  "]",
  ",",
  "|",
  ">-",
  "&a ",
  "*a",
  "!!binary ",
  "<<: ",
  "- ",
  "  ",
  "\t",
  "```",
  "~~~",
  "`",
  "<!--",
  "-->",
  "<div>",
  "</skills_update>",
  "</nested_skills>",
  "</skill>",
  "<skill>",
  "&amp;",
  "&",
  "<",
  ">",
  "*",
  "**",
  "?",
  "!(",
  "@(",
  "+(",
  "{a,b}",
  "{1..999999}",
  "[!a-z]",
  "/",
  "../",
  "~/",
  "@",
  "@./",
  "${",
  "${A}",
  "${A:-x}",
  "$",
  "\u0000",
  "\u001b[2J",
  "\u001b]0;x\u0007",
  "\u202e",
  "\u2028",
  "\ufeff",
  "\ud800",
  "name",
  "description",
  "paths",
  "0",
  "-1",
  "1e309",
  "null",
  "true",
];

/** Text built from parser-significant pieces and arbitrary strings, up to a few KB. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...TOKENS) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
    ),
    {
      maxLength: 200,
    },
  )
  .map((parts) => parts.join(""));

/** A hostile one-line-ish name: what a skill, folder or file could be called. */
export const hostileName: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...TOKENS), fc.string({ unit: "grapheme", maxLength: 8 })), { maxLength: 12 })
  .map((parts) => parts.join(""));

/** JSON-like values with hostile strings in keys and leaves. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileText,
    fc.constantFrom(null, true, false, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(
      fc.oneof(
        hostileName,
        fc.constantFrom("__proto__", "constructor", "command", "args", "env", "url", "type", "headers"),
      ),
      tie("value"),
      { maxKeys: 6 },
    ),
  ),
})).value;

/** How many inputs each target ran, printed at the end of a file. */
const tried = new Map<string, number>();

/**
 * Runs `check` on RUNS inputs of `arbitrary` (synchronously or not). Each input: only a result or a
 * SkillctxError; at most MAX_MS_PER_INPUT; the heap grows at most MAX_HEAP_GROWTH_BYTES.
 */
/** Runs `check` on RUNS inputs under the invariants; returns how many inputs it tried (a test asserts all ran). */
export async function fuzz<T>(
  target: string,
  arbitrary: fc.Arbitrary<T>,
  check: (input: T) => unknown,
): Promise<number> {
  let count = 0;
  const property = fc.asyncProperty(arbitrary, async (input) => {
    count++;
    const heap = process.memoryUsage().heapUsed;
    const start = performance.now();
    try {
      await check(input);
    } catch (error) {
      if (!SkillctxError.isInstance(error)) throw error;
    }
    const ms = performance.now() - start;
    if (ms > MAX_MS_PER_INPUT) throw new Error(`${target}: one input took ${Math.round(ms)} ms`);
    const grown = process.memoryUsage().heapUsed - heap;
    if (grown > MAX_HEAP_GROWTH_BYTES) throw new Error(`${target}: the heap grew by ${grown} bytes on one input`);
  });
  try {
    await fc.assert(property, { numRuns: RUNS, seed: SEED });
  } catch (error) {
    console.error(`fuzz ${target}: failed with SKILLCTX_FUZZ_SEED=${SEED} SKILLCTX_FUZZ_RUNS=${RUNS}`);
    throw error;
  } finally {
    tried.set(target, (tried.get(target) ?? 0) + count);
  }
  return count;
}

/** One line per target: inputs tried. */
export function report(): string {
  return [...tried].map(([target, count]) => `${target}: ${count} inputs`).join("\n");
}

/** `text` holds none of our tags, opening or closing. */
export function expectNoTagOfOurs(text: string): void {
  for (const tag of OUR_TAGS) {
    expect(text.includes(`</${tag}>`), `</${tag}> inside an escaped field: ${JSON.stringify(text)}`).toBe(false);
    expect(text.includes(`<${tag}>`) || text.includes(`<${tag} `)).toBe(false);
  }
}

/** A test that calls only SkillctxError-or-result code: asserts it threw nothing else (for sync code). */
export function onlyTyped(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (SkillctxError.isInstance(error)) return error;
    throw error;
  }
}

function positive(text: string | undefined): number | undefined {
  const n = Number(text);
  return text !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}
