#!/usr/bin/env node
// The steps of a "first loop" as a page writes them, for the tests that follow the page literally: every
// fenced block of the page's section, in order. A block right after a line `Save as \`NAME\`:` is a file to
// write; a `sh` block is commands to run; other blocks are illustrations and are not steps.
//   node scripts/first-loop-steps.mjs PAGE.md [FROM_HEADING TO_HEADING]              the steps as JSON
//   node scripts/first-loop-steps.mjs --script TARBALLS PAGE.md [FROM_HEADING TO_HEADING]
//                                              the steps as one bash script, TARBALLS for /tmp/skillctx
// Used by scripts/consumer-smoke.sh (which writes the files and runs the commands in an empty folder, the
// tarballs' folder put in place of /tmp/skillctx) and test/first-loop.test.ts (which type-checks the files).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where the README's user loop is: from this heading to the next one named here. */
export const README_SECTION = ["## Your first agent loop", "## What skillctx guarantees"];
/** The folder the pages install the tarballs from; the tests put their own in its place. */
export const TARBALLS = "/tmp/skillctx";

/**
 * The steps of `markdown` between the headings `from` and `to` (the whole text when not given).
 * @returns {{ kind: "file", name: string, lang: string, text: string } | { kind: "sh", text: string }}[]
 */
export function firstLoopSteps(markdown, from, to) {
  let text = markdown;
  if (from !== undefined) {
    const start = text.indexOf(from);
    if (start < 0) throw new Error(`no heading ${from}`);
    text = text.slice(start);
  }
  if (to !== undefined) {
    const end = text.indexOf(to);
    if (end < 0) throw new Error(`no heading ${to}`);
    text = text.slice(0, end);
  }
  const steps = [];
  for (const match of text.matchAll(/(?:^|\n)(?:Save as `([^`]+)`:\n\n)?```(\w*)\n([\s\S]*?)```/g)) {
    const [, name, lang, body] = match;
    if (name !== undefined) steps.push({ kind: "file", name, lang, text: body });
    else if (lang === "sh") steps.push({ kind: "sh", text: body });
  }
  return steps;
}

/**
 * The steps as one bash script: each `sh` block as it is, each file written with a quoted heredoc, and
 * `tarballs` in place of {@link TARBALLS}. Run it with `bash -e`, in the folder a reader starts in.
 */
export function firstLoopScript(steps, tarballs) {
  const lines = ["set -euo pipefail"];
  for (const [i, step] of steps.entries()) {
    if (step.kind === "sh") lines.push(step.text.replaceAll(TARBALLS, tarballs));
    else
      lines.push(
        `cat > ${JSON.stringify(step.name)} <<'FIRST_LOOP_${i}'`,
        step.text.replace(/\n$/, ""),
        `FIRST_LOOP_${i}`,
      );
  }
  return `${lines.join("\n")}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const tarballs = args[0] === "--script" ? args[1] : undefined;
  const [page, from, to] = tarballs === undefined ? args : args.slice(2);
  if (page === undefined)
    throw new Error("usage: node scripts/first-loop-steps.mjs [--script TARBALLS] PAGE.md [FROM TO]");
  const steps = firstLoopSteps(readFileSync(page, "utf8"), from, to);
  process.stdout.write(tarballs === undefined ? `${JSON.stringify(steps)}\n` : firstLoopScript(steps, tarballs));
}
