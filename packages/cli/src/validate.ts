import { validateSkill } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { skillFoldersIn } from "@skillctx/core/internal";
import { commandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { findingLines, fitted, plural, severityCounts } from "./findings.js";
import { EXIT_FINDINGS, EXIT_OK } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { parseFlags, resolveCwd } from "./options.js";
import { asReferenceSkipped } from "./validate-strict-skipped.js";

/** One validated skill folder, as `--json` prints it. */
interface ValidateResult {
  path: string;
  valid: boolean;
  diagnostics: Diagnostic[];
}

/**
 * `skillctx validate PATH... [--cwd DIR] [--strict] [--json]`: Agent Skills validation of the skill folders
 * `skillctx list` finds in each PATH (resolved against `--cwd`), with list's discovery and containment:
 * a skill folder or its SKILL.md, else every skill folder below PATH and in the project skill folders it
 * holds (`.agents/skills`, `.claude/skills`...). A PATH that does not exist, or holds no skill, is an error
 * that checks nothing (under `--strict`, with the reference validator's words). Without `--strict`, what list loads with a warning is a warning (core `validateSkill`).
 */
export const validateCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("validate").flags, { positionals: true });
    // No PATH: the folder the command runs in (--cwd), as `list` reads it.
    const positionals = flags.positionals.length === 0 ? ["."] : flags.positionals;
    const values = { strict: flags.bool("strict"), json: flags.bool("json") };
    const cwd = resolveCwd(flags.string("cwd"));
    const results: ValidateResult[] = [];
    const skipped: Diagnostic[] = [];
    for (const given of positionals) {
      io.signal?.throwIfAborted();
      const found = await skillFoldersIn(given, { cwd, signal: io.signal });
      const notChecked = found.diagnostics.filter((d) => d.code !== "WALK_TOO_DEEP");
      if (found.folders.length === 0 && !found.diagnostics.some((d) => d.severity === "error")) {
        notChecked.push({
          code: "MISSING_SKILL_MD",
          severity: "error",
          message: `no skill folder (a folder with a SKILL.md) in ${given}: nothing checked`,
          path: given,
        });
      }
      for (const d of notChecked) skipped.push(values.strict ? await asReferenceSkipped(d, given, cwd) : d);
      for (const dir of found.folders) {
        io.signal?.throwIfAborted();
        const { valid, diagnostics } = await validateSkill(dir, {
          strict: values.strict,
          root: found.root,
          ...(io.signal !== undefined && { signal: io.signal }),
        });
        results.push({ path: dir, valid, diagnostics });
      }
    }
    if (values.json) {
      const data = {
        // Diagnostics as the validator returns them (with whatever it adds, such as the dialect of a field).
        results: results.map((r) => ({ path: r.path, valid: r.valid, diagnostics: r.diagnostics })),
        // What was not checked, and why: a PATH that does not exist or holds no skill, symlinks out of the
        // project, loops.
        skipped,
      };
      const all = [...skipped, ...results.flatMap((r) => r.diagnostics.map((d) => ({ ...d, path: d.path ?? r.path })))];
      io.stdout.write(envelopeText("validate", data, all));
    } else {
      io.stdout.write(formatHuman(results, skipped, io.columns));
    }
    const failed = !results.every((r) => r.valid) || skipped.some((d) => d.severity === "error");
    return failed ? EXIT_FINDINGS : EXIT_OK;
  },
};

function formatHuman(results: ValidateResult[], skipped: Diagnostic[], columns: number | undefined): string {
  const findings = [
    ...skipped,
    ...results.flatMap((r) => r.diagnostics.map((d) => ({ ...d, path: d.path ?? r.path }))),
  ];
  const lines = findingLines(findings).map((line) => fitted(line, columns));
  const valid = results.filter((r) => r.valid).length;
  lines.push(
    `${plural(results.length, "skill")} checked: ${valid} valid, ${results.length - valid} invalid (${severityCounts(findings)})`,
  );
  return `${lines.join("\n")}\n`;
}
