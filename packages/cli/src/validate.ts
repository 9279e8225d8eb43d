import { statSync } from "node:fs";
import * as path from "node:path";
import { compareCodePoints, validateSkill } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { MAX_SKILL_DIR_DEPTH, walk } from "@skillctx/core/internal";
import { commandSpec } from "./command-specs.js";
import { formatDiagnostic, jsonText } from "./format.js";
import { EXIT_FINDINGS, EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { parseFlags } from "./options.js";

/** One validated skill folder, as `--json` prints it. */
interface ValidateResult {
  path: string;
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** `skillctx validate PATH... [--strict] [--json]`: Agent Skills validation of skill folders. */
export const validateCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("validate").flags, { positionals: true });
    const positionals = flags.positionals;
    const values = { strict: flags.bool("strict"), json: flags.bool("json") };
    if (positionals.length === 0) throw new UsageError("give at least one PATH (a skill folder or a folder of skills)");
    const results: ValidateResult[] = [];
    const skipped: Diagnostic[] = [];
    for (const given of positionals) {
      for (const dir of await skillFolders(given, skipped)) {
        io.signal?.throwIfAborted();
        const { valid, diagnostics } = await validateSkill(dir, { strict: values.strict });
        results.push({ path: dir, valid, diagnostics });
      }
    }
    if (values.json) {
      const json = {
        // Diagnostics as the validator returns them (with whatever it adds, such as the dialect of a field).
        results: results.map((r) => ({ path: r.path, valid: r.valid, diagnostics: r.diagnostics })),
        // What the search of parent folders did not follow (symlinks out of the folder, loops, too deep).
        skipped,
      };
      io.stdout.write(jsonText(json));
    } else {
      io.stdout.write(formatHuman(results, skipped));
    }
    return results.every((r) => r.valid) ? EXIT_OK : EXIT_FINDINGS;
  },
};

function formatHuman(results: ValidateResult[], skipped: Diagnostic[]): string {
  const lines: string[] = skipped.map((d) => formatDiagnostic(d));
  let errors = 0;
  let warnings = 0;
  for (const r of results) {
    for (const d of r.diagnostics) {
      lines.push(formatDiagnostic({ ...d, path: d.path ?? r.path }));
      if (d.severity === "error") errors++;
      else warnings++;
    }
  }
  const valid = results.filter((r) => r.valid).length;
  const skills = results.length === 1 ? "1 skill" : `${results.length} skills`;
  lines.push(
    `${skills} checked: ${valid} valid, ${results.length - valid} invalid (${errors} errors, ${warnings} warnings)`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The skill folders a PATH names: the folder itself when it holds SKILL.md (or skill.md), the folder of
 * a SKILL.md file, else every folder below it that holds one, found with core's one walker (to depth 4;
 * `.git`, `node_modules` and dot-folders skipped; a skill's own sub-folders are its resources; every
 * folder once by real path; symlinks followed only inside PATH). A path with none is returned as is,
 * so that the validator reports why (PATH_NOT_FOUND, NOT_A_DIRECTORY, MISSING_SKILL_MD).
 */
async function skillFolders(given: string, skipped: Diagnostic[]): Promise<string[]> {
  const info = statSync(given, { throwIfNoEntry: false });
  if (info === undefined) return [given];
  if (info.isFile()) return path.basename(given).toLowerCase() === "skill.md" ? [path.dirname(given)] : [given];
  if (!info.isDirectory() || holdsSkill(given)) return [given];
  const found: string[] = [];
  const walked = await walk(given, {
    maxDepth: MAX_SKILL_DIR_DEPTH,
    containRoot: given,
    skip: (name) => name.startsWith(".") || name === "node_modules",
    visit: (entry) => {
      if (entry.type !== "dir") return false;
      if (!holdsSkill(entry.path)) return true;
      found.push(path.join(given, ...entry.relative.split("/"))); // as the user wrote the parent
      return false;
    },
  });
  // Folders below depth 4 are not searched by design: say nothing about them.
  skipped.push(...walked.diagnostics.filter((d) => d.code !== "WALK_TOO_DEEP"));
  return found.length === 0 ? [given] : found.sort(compareCodePoints);
}

function holdsSkill(dir: string): boolean {
  for (const name of ["SKILL.md", "skill.md"]) {
    if (statSync(path.join(dir, name), { throwIfNoEntry: false })?.isFile() === true) return true;
  }
  return false;
}
