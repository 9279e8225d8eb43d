#!/usr/bin/env node
// Reads vitest's JSON report (`--reporter=json --outputFile.json=FILE`) and prints one closing line,
// `tests: N passed, N failed, N skipped`. With --no-skips it fails when any test was skipped: CI runs with
// the corpus, python3 and git, where every test, the corpus tests and those tools' tests included, must run.
//   node scripts/check-test-report.mjs REPORT.json [--no-skips]
import { readFileSync } from "node:fs";

const [file, flag] = process.argv.slice(2);
if (file === undefined || (flag !== undefined && flag !== "--no-skips")) {
  console.error("usage: node scripts/check-test-report.mjs REPORT.json [--no-skips]");
  process.exit(2);
}
const report = JSON.parse(readFileSync(file, "utf8"));
const skipped = [];
for (const suite of report.testResults ?? []) {
  for (const test of suite.assertionResults ?? []) {
    if (test.status === "skipped" || test.status === "pending" || test.status === "todo")
      skipped.push(`${suite.name}: ${test.fullName}`);
  }
}
const failed = report.numFailedTests ?? 0;
console.log(`tests: ${report.numPassedTests ?? 0} passed, ${failed} failed, ${skipped.length} skipped`);
if (flag === "--no-skips" && skipped.length > 0) {
  console.error(
    `${skipped.length} tests did not run, where all must: is the corpus there, are python3 and git on PATH? ` +
      "The run's first lines say what was skipped and why:",
  );
  for (const name of skipped.slice(0, 20)) console.error(`  ${name}`);
  process.exit(1);
}
process.exit(failed > 0 || report.success === false ? 1 : 0);
