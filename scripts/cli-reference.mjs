#!/usr/bin/env node
// docs/cli.md's generated part: the real help text of `skillctx --help` and of every command, as the
// built bin prints it when stdout is not a terminal (80 columns), and a sample `list` table.
// test/cli-docs.test.ts builds the same part from the CLI's source and fails when docs/cli.md differs.
//   node scripts/cli-reference.mjs           print the generated part
//   node scripts/cli-reference.mjs --write   put it between the markers of docs/cli.md (run `pnpm build` first)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const CLI_DOC = path.join(ROOT, "docs/cli.md");
export const START = "<!-- help:start (generated: node scripts/cli-reference.mjs --write) -->";
export const END = "<!-- help:end -->";
/** The sample `list` run: a fixture that reproduces a Claude Code repository, without user skills. */
export const LIST_SAMPLE = { args: ["list", "--no-user", "--cwd", "fixtures/conventions/claude-code"] };

/**
 * The generated markdown: `skillctx --help`, each command's help (in `commands` order), then the sample
 * `list` output, each in a text block.
 * @param {{ overview: string, commands: { name: string, help: string }[], list: string }} texts
 */
export function referenceBlock(texts) {
  const block = (text) => ["```text", text.trimEnd(), "```"].join("\n");
  return [
    START,
    "",
    "### `skillctx --help`",
    "",
    block(texts.overview),
    ...texts.commands.flatMap((c) => ["", `### \`skillctx ${c.name}\``, "", block(c.help)]),
    "",
    "### Sample: `skillctx list`",
    "",
    "On a repository laid out as Claude Code reads it, piped (not a terminal: every column, descriptions cut at 60):",
    "",
    block(`$ skillctx ${LIST_SAMPLE.args.join(" ")}\n${texts.list}`),
    "",
    END,
  ].join("\n");
}

/** `doc` with its generated part replaced by `block`; throws when the markers are missing. */
export function withReference(doc, block) {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/cli.md has no markers (${START} … ${END})`);
  return doc.slice(0, start) + block + doc.slice(end + END.length);
}

function builtTexts() {
  const bin = path.join(ROOT, "packages/skillctx/bin/skillctx.js");
  const home = mkdtempSync(path.join(os.tmpdir(), "skillctx-cli-ref-"));
  try {
    const run = (args) =>
      execFileSync(process.execPath, [bin, ...args], {
        cwd: ROOT,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: home },
      });
    const names = JSON.parse(run(["help", "--json"])).data.commands.map((c) => c.name);
    return {
      overview: run(["--help"]),
      commands: names.map((name) => ({ name, help: run(["help", name]) })),
      list: run(LIST_SAMPLE.args),
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const block = referenceBlock(builtTexts());
  if (process.argv[2] === "--write") writeFileSync(CLI_DOC, withReference(readFileSync(CLI_DOC, "utf8"), block));
  else console.log(block);
}
