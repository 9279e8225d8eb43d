/**
 * docs/cli.md against the real CLI: its generated part is the help text of `skillctx --help` and of every
 * command (80 columns, as when stdout is not a terminal) and a sample `list` table, built here from the
 * CLI's source; it fails when the two drift (`pnpm build && node scripts/cli-reference.mjs --write`).
 * Every command has a section of its own in the hand-written part too.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI_DOC, LIST_SAMPLE, referenceBlock, withReference } from "../scripts/cli-reference.mjs";
import { COMMAND_SPECS } from "../packages/cli/src/command-specs.js";
import { runCli } from "../packages/cli/src/run.js";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";

const tempDir = useTempDirs("cli-docs");

async function stdoutOf(args: string[]): Promise<string> {
  let out = "";
  const code = await runCli(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true } });
  expect(code, args.join(" ")).toBe(0);
  return out;
}

describe("docs/cli.md", () => {
  const doc = readFileSync(CLI_DOC, "utf8");

  it("carries the real help of every command and a current list sample", async () => {
    const previous = process.env.HOME;
    process.env.HOME = await tempDir(); // no user skills of the machine running the test
    try {
      const block = referenceBlock({
        overview: await stdoutOf(["--help"]),
        commands: await Promise.all(
          COMMAND_SPECS.map(async (c) => ({ name: c.name, help: await stdoutOf(["help", c.name]) })),
        ),
        list: await stdoutOf(LIST_SAMPLE.args),
      });
      expect(withReference(doc, block)).toBe(doc);
    } finally {
      process.env.HOME = previous;
    }
  });

  it.each(COMMAND_SPECS.map((c) => c.name))("has a section and a table row for `%s`", (name) => {
    expect(doc).toMatch(new RegExp(`^### \`skillctx ${name}[ \`]`, "m"));
    expect(doc).toMatch(new RegExp(`^\\| \`${name}[ \`]`, "m"));
  });
});
