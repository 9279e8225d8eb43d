import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseFrontmatter } from "@skillctx/core";
import { commandDiagnostics, renderCommands } from "@skillctx/render";
import { EXIT_FINDINGS, EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { formatDiagnostic } from "./format.js";

/** `skillctx render FILE`: prints a skill's body with its `` !`cmd` `` spans rendered. */
export const renderCommand: CliCommand = {
  summary: "print a skill's body with its !`cmd` spans rendered (run only with --trust)",
  usage: "skillctx render FILE [--cwd DIR] [--trust]",
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { cwd: { type: "string" }, trust: { type: "boolean", default: false } },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError("expected exactly one FILE");
    const file = path.resolve(positionals[0]!);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      io.stderr.write(`skillctx render: cannot read ${file}: ${(error as Error).message}\n`);
      return EXIT_FINDINGS;
    }
    const { body, bodyLine } = parseFrontmatter(text, { path: file });
    const result = await renderCommands(body, {
      cwd: path.resolve(values.cwd ?? "."),
      trusted: values.trust,
      untrustedMarker: (command) => `[Not run: \`${command}\`; pass --trust to run the commands of this file.]`,
    });
    io.stdout.write(result.text.endsWith("\n") ? result.text : `${result.text}\n`);
    const findings = commandDiagnostics(result.runs, { path: file, lineOffset: bodyLine - 1 });
    for (const d of findings) io.stderr.write(`${formatDiagnostic(d)}\n`);
    return findings.some((d) => d.code !== "COMMAND_NOT_RUN") ? EXIT_FINDINGS : EXIT_OK;
  },
};
