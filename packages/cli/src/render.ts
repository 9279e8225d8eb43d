import * as path from "node:path";
import { diagnostic, parseFrontmatter } from "@skillctx/core";
import { MAX_SKILL_FILE_BYTES, readTextFile } from "@skillctx/core/internal";
import { commandDiagnostics, renderCommands } from "@skillctx/render";
import { commandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { formatDiagnostic, printable } from "./format.js";
import { EXIT_FINDINGS, EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { cliTemplates } from "./load.js";
import { parseFlags, resolveCwd } from "./options.js";

/** `skillctx render FILE`: prints a skill file's body with its `` !`cmd` `` spans rendered. */
export const renderCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("render").flags, { positionals: true });
    if (flags.positionals.length !== 1) throw new UsageError("expected exactly one FILE");
    const cwd = resolveCwd(flags.string("cwd"));
    const file = path.resolve(flags.positionals[0]!);
    // Read as all repository content is: a regular file, at most MAX_SKILL_FILE_BYTES, UTF-8.
    const read = await readTextFile(file, { maxBytes: MAX_SKILL_FILE_BYTES });
    if (!read.ok) {
      const failed = diagnostic(read.code, "error", read.message, { path: file });
      if (flags.bool("json")) io.stdout.write(envelopeText("render", { path: file, text: null }, [failed]));
      else io.stderr.write(`${formatDiagnostic(failed)}\n`);
      return EXIT_FINDINGS;
    }
    const { body, bodyLine } = parseFrontmatter(read.text, { path: file });
    const result = await renderCommands(body, {
      cwd,
      trust: { project: flags.bool("trust") },
      scope: "project",
      untrustedMarker: (command) => cliTemplates.untrustedCommand(command, "project"),
      ...(io.signal !== undefined && { signal: io.signal }),
    });
    io.signal?.throwIfAborted();
    const findings = commandDiagnostics(result, { path: file, lineOffset: bodyLine - 1 });
    if (flags.bool("json")) {
      io.stdout.write(envelopeText("render", { path: file, text: result.text }, findings));
    } else {
      io.stdout.write(printable(result.text.endsWith("\n") ? result.text : `${result.text}\n`));
      for (const d of findings) io.stderr.write(`${formatDiagnostic(d)}\n`);
    }
    return findings.some((d) => d.code !== "COMMAND_NOT_RUN") ? EXIT_FINDINGS : EXIT_OK;
  },
};
