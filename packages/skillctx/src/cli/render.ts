import path from "node:path";
import { parseArgs } from "node:util";
import { parseFrontmatter } from "@skillctx/core";
import { MAX_SKILL_FILE_BYTES, readTextFile } from "@skillctx/core/internal";
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
    // Read as all repository content is: a regular file, at most MAX_SKILL_FILE_BYTES, UTF-8.
    const read = await readTextFile(file, { maxBytes: MAX_SKILL_FILE_BYTES });
    if (!read.ok) {
      io.stderr.write(`skillctx render: ${read.message} (${read.code})\n`);
      return EXIT_FINDINGS;
    }
    const text = read.text;
    const { body, bodyLine } = parseFrontmatter(text, { path: file });
    const result = await renderCommands(body, {
      cwd: path.resolve(values.cwd ?? "."),
      trust: { project: values.trust },
      scope: "project",
      untrustedMarker: (command) => `[Not run: \`${command}\`; pass --trust to run the commands of this file.]`,
    });
    io.stdout.write(result.text.endsWith("\n") ? result.text : `${result.text}\n`);
    const findings = commandDiagnostics(result, { path: file, lineOffset: bodyLine - 1 });
    for (const d of findings) io.stderr.write(`${formatDiagnostic(d)}\n`);
    return findings.some((d) => d.code !== "COMMAND_NOT_RUN") ? EXIT_FINDINGS : EXIT_OK;
  },
};
