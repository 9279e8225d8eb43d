// Runs many `skillctx` command lines in ONE Node process, through the built CLI's own `main` (the
// function the `skillctx` bin calls, from its build), so the conformance corpus checks the CLI without a
// process per case (skillctx-cli.ts). Usage: node cli-batch.mjs <runs.json> <results.json>; runs: [{ args: string[], home: string }].
// Each run gets its HOME (the CLI reads the user's folders from it) and its stdout captured; stderr is
// dropped (the JSON output carries the diagnostics). Results: [{ code, stdout }] in the same order.
import { readFile, writeFile } from "node:fs/promises";
import { parseJson } from "@skillctx/core/internal";
import { main } from "@skillctx/cli";

const [input, output] = process.argv.slice(2);
const runs = parseJson(await readFile(input, "utf8"));
process.setMaxListeners(0);
process.stdout.setMaxListeners(0);
process.stderr.setMaxListeners(0);

const results = [];
const write = process.stdout.write.bind(process.stdout);
const writeErr = process.stderr.write.bind(process.stderr);
for (const run of runs) {
  process.env.HOME = run.home;
  process.env.USERPROFILE = run.home;
  let captured = "";
  process.stdout.write = (chunk) => {
    captured += String(chunk);
    return true;
  };
  process.stderr.write = () => true;
  process.exitCode = 0;
  try {
    await main(run.args);
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
  results.push({ code: process.exitCode ?? 0, stdout: captured });
}
process.exitCode = 0;
await writeFile(output, JSON.stringify(results));
