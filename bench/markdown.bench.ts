/**
 * The one markdown scanner (issue 10), `@skillctx/core/internal`:
 *  1. a typical SKILL.md (the corpus body of median length, about 11 KB, plus one command): `codeRegions` (what CLAUDE.md
 *     `@import` detection reads) and `findCommands` (what `` !`cmd` `` rendering reads), against micromark's
 *     parse of the same text (`parse` + `postprocess`: the events, no HTML), the baseline of the ratio;
 *  2. a 1 MiB document (corpus bodies one after another): ours only (micromark takes seconds on it);
 *  3. hostile inputs, ours only (linear: each takes milliseconds, never seconds).
 * The decision rule (docs/architecture.md): keep the hand scanner unless micromark is within ~1.2× of it.
 * Before the benches, ours and micromark on the typical input are timed alternately and the medians printed.
 *
 * Run: `pnpm vitest bench --run bench/markdown.bench.ts`
 */
import { codeRegions } from "@skillctx/core/internal";
import { findCommands } from "@skillctx/render";
// micromark's production build: its package's "development" export (which vitest picks) adds assertions.
import { parse, postprocess, preprocess } from "../node_modules/micromark/index.js";
import { bench, describe } from "vitest";
import { corpusBodies } from "./bench-data.js";

const bodies = corpusBodies();
const median = [...bodies].sort((a, b) => a.length - b.length)[Math.floor(bodies.length / 2)] ?? "";
// One command, so that findCommands does not take its fast path (a text without "!`" is not scanned).
const typical = `${median}\n\nCurrent branch: !\`git branch --show-current\`\n`;
const MIB = 1024 * 1024;
let large = "";
for (let i = 0; large.length < MIB; i++)
  large += `${bodies[i % bodies.length]}\n\nOn !\`git branch --show-current\`.\n\n`;

const micromarkEvents = (text: string): number =>
  postprocess(
    parse()
      .document()
      .write(preprocess()(text, undefined, true)),
  ).length;

// Sanity before timing: both read the typical input, and it has code to find.
if (codeRegions(typical).length === 0 || findCommands(typical).length !== 1 || micromarkEvents(typical) === 0) {
  throw new Error("the typical input has no code regions, or not its one command");
}

const fill = (unit: string, bytes: number): string => unit.repeat(Math.ceil(bytes / unit.length));
const hostile: Record<string, string> = {
  "2 MiB one line of !`x` spans": fill("!`x` ", 2 * MIB),
  "100,000 unclosed backtick runs (one per paragraph)": fill("x `` !`y\n\n", 1.2 * MIB),
  "50,000 nested list items, then 100,000 lines": `${"- ".repeat(50_000)}x\n${fill("  text !`y`\n", MIB)}`,
  "2 MiB of <!-- (inline and block)": fill("a <!-- `x`\n\n<!--\n", 2 * MIB),
};

const PAIRS = 41;
const middle = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ours: number[] = [];
const reference: number[] = [];
for (let i = 0; i < PAIRS; i++) {
  let start = performance.now();
  for (let k = 0; k < 20; k++) codeRegions(typical);
  ours.push(performance.now() - start);
  start = performance.now();
  for (let k = 0; k < 20; k++) micromarkEvents(typical);
  reference.push(performance.now() - start);
}
console.log(
  `typical SKILL.md (${typical.length} chars), interleaved medians over ${PAIRS} × 20 runs: codeRegions ${(middle(ours) / 20).toFixed(3)} ms, ` +
    `micromark parse ${(middle(reference) / 20).toFixed(3)} ms; micromark takes ${(middle(reference) / middle(ours)).toFixed(1)}× as long (keep the hand scanner unless ≤ 1.2×)`,
);

const options = { time: 2_000, warmupTime: 300 };

describe(`typical SKILL.md (${typical.length} chars)`, () => {
  bench("codeRegions (@import detection)", () => void codeRegions(typical), options);
  bench("findCommands (!`cmd` detection)", () => void findCommands(typical), options);
  bench("micromark parse + postprocess (baseline)", () => void micromarkEvents(typical), options);
});

describe(`1 MiB document (${large.length} chars)`, () => {
  bench("codeRegions", () => void codeRegions(large), options);
  bench("findCommands", () => void findCommands(large), options);
});

describe("hostile inputs (codeRegions + findCommands)", () => {
  for (const [name, text] of Object.entries(hostile)) {
    bench(
      name,
      () => {
        codeRegions(text);
        findCommands(text);
      },
      { time: 2_000, warmupIterations: 1 },
    );
  }
});
