#!/usr/bin/env node
// `pnpm mutation [target ...]`: mutation testing (StrykerJS, vitest runner) of the parsers of untrusted text and
// the search (issue 38). With no target it runs every one, one after the other, in the order of
// scripts/mutation-targets.mjs. Each target runs only its own unit tests (vitest.mutation.config.ts), with
// per-test coverage, so a mutant runs just the tests that reach it.
//
//   --concurrency N   Stryker's test-runner processes (default 1: the reference machine has 2 cores, shared)
//   --out DIR         where the JSON reports go (default reports/mutation, the report on record)
//   --force           ignore the previous report (incremental mode reuses its results for unchanged code/tests)
//   --list            print the targets and exit
//
// Writes DIR/<target>.json (mutation-testing-elements schema) and DIR/summary.json (mutants, score, seconds);
// exits 1 when a target scores below its threshold. docs/mutation.md says more.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { TARGETS } from "./mutation-targets.mjs";

// StrykerJS 10 runs on Node 22 or newer (it refuses older ones when imported): say so before importing it.
if (Number(process.versions.node.split(".")[0]) < 22) {
  console.error(
    `pnpm mutation: StrykerJS needs Node 22 or newer, this is ${process.version} (put a newer node first on PATH)`,
  );
  process.exit(2);
}
const { Stryker } = await import("@stryker-mutator/core");

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(import.meta.url);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    concurrency: { type: "string", default: "1" },
    out: { type: "string", default: "reports/mutation" },
    force: { type: "boolean", default: false },
    list: { type: "boolean", default: false },
  },
});

if (values.list) {
  for (const target of TARGETS) console.log(`${target.name}\t${target.threshold} %\t${target.mutate.join(" ")}`);
  process.exit(0);
}
const unknown = positionals.filter((name) => !TARGETS.some((target) => target.name === name));
if (unknown.length > 0) {
  console.error(`unknown target(s): ${unknown.join(", ")}; known: ${TARGETS.map((t) => t.name).join(", ")}`);
  process.exit(2);
}
const chosen = positionals.length === 0 ? TARGETS : TARGETS.filter((target) => positionals.includes(target.name));
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(`--concurrency must be a positive integer, got ${values.concurrency}`);
  process.exit(2);
}
const outDir = path.resolve(ROOT, values.out);
mkdirSync(outDir, { recursive: true });
process.chdir(ROOT);

/** Mutants by status, and the score as Stryker computes it: detected / (detected + undetected), in %. */
export function summarize(results) {
  const count = (...statuses) => results.filter((r) => statuses.includes(r.status)).length;
  const detected = count("Killed", "Timeout");
  const undetected = count("Survived", "NoCoverage");
  return {
    mutants: results.length,
    killed: count("Killed"),
    timeout: count("Timeout"),
    survived: count("Survived"),
    noCoverage: count("NoCoverage"),
    ignored: count("Ignored"),
    errors: count("CompileError", "RuntimeError"),
    score: detected + undetected === 0 ? 100 : Math.round((detected / (detected + undetected)) * 1000) / 10,
  };
}

const summaryFile = path.join(outDir, "summary.json");
const summary = readSummary(summaryFile);
let failed = false;
for (const target of chosen) {
  const reportFile = path.join(outDir, `${target.name}.json`);
  // The report is written beside the incremental file and copied over it at the end: Stryker reads the one
  // while writing the other, and writing both to one path once left the tail of the longer old report behind.
  const freshReport = path.join(tmpdir(), `skillctx-mutation-${process.pid}-${target.name}.json`);
  process.env.SKILLCTX_MUTATION_TESTS = target.tests.join(",");
  const started = performance.now();
  const stryker = new Stryker({
    testRunner: "vitest",
    plugins: [require.resolve("@stryker-mutator/vitest-runner")],
    vitest: { configFile: "vitest.mutation.config.ts", related: false },
    coverageAnalysis: "perTest",
    mutate: target.mutate,
    // In place: the workspace's packages resolve their dependencies from their own node_modules, which a
    // sandbox copy would not have. Stryker restores the files when it ends (or is interrupted).
    inPlace: true,
    // Vitest does not type-check, so no file needs Stryker's `// @ts-nocheck` (which it would add to every file).
    disableTypeChecks: false,
    concurrency,
    incremental: !values.force,
    incrementalFile: reportFile,
    force: values.force,
    reporters: ["json", "clear-text", "progress-append-only"],
    jsonReporter: { fileName: freshReport },
    clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: true },
    thresholds: { high: 95, low: target.threshold, break: null },
    tempDirName: ".stryker-tmp",
    cleanTempDir: true,
    timeoutMS: 10_000,
  });
  const results = await stryker.runMutationTest();
  JSON.parse(readFileSync(freshReport, "utf8")); // whole, or this throws
  copyFileSync(freshReport, reportFile);
  rmSync(freshReport);
  const seconds = Math.round((performance.now() - started) / 1000);
  const row = { ...summarize(results), threshold: target.threshold, seconds, concurrency, node: process.version };
  summary[target.name] = row;
  writeFileSync(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`mutation ${target.name}: ${row.score} % of ${row.mutants} mutants in ${seconds} s (${process.version})`);
  if (row.score < target.threshold) {
    console.error(`mutation ${target.name}: below its threshold of ${target.threshold} %`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);

function readSummary(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return {};
  }
}
