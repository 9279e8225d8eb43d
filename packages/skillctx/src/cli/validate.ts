import { readdir, stat } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { compareCodePoints, validateSkill } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { formatDiagnostic } from "./format.js";
import { EXIT_FINDINGS, EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";

// Skill folders are searched this deep below a parent folder given on the command line.
const MAX_DEPTH = 4;

/** One validated skill folder, as `--json` prints it. */
interface ValidateResult {
  path: string;
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** `skillctx validate PATH... [--strict] [--json]`: Agent Skills validation of skill folders. */
export const validateCommand: CliCommand = {
  summary: "validate skill folders (or parents of skill folders) against the Agent Skills specification",
  usage: "skillctx validate PATH... [--strict] [--json]",
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { strict: { type: "boolean", default: false }, json: { type: "boolean", default: false } },
      allowPositionals: true,
    });
    if (positionals.length === 0) throw new UsageError("give at least one PATH (a skill folder or a folder of skills)");
    const results: ValidateResult[] = [];
    for (const given of positionals) {
      for (const dir of await skillFolders(given)) {
        const { valid, diagnostics } = await validateSkill(dir, { strict: values.strict });
        results.push({ path: dir, valid, diagnostics });
      }
    }
    if (values.json) {
      const json = {
        results: results.map((r) => ({
          path: r.path,
          valid: r.valid,
          diagnostics: r.diagnostics.map(({ code, severity, message, line }) => ({ code, severity, message, line })),
        })),
      };
      io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      io.stdout.write(formatHuman(results));
    }
    return results.every((r) => r.valid) ? EXIT_OK : EXIT_FINDINGS;
  },
};

function formatHuman(results: ValidateResult[]): string {
  const lines: string[] = [];
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
  lines.push(`${skills} checked: ${valid} valid, ${results.length - valid} invalid (${errors} errors, ${warnings} warnings)`);
  return `${lines.join("\n")}\n`;
}

/**
 * The skill folders a PATH names: the folder itself when it holds SKILL.md (or skill.md), the folder of
 * a SKILL.md file, else every folder below it that holds one (to depth 4; `.git`, `node_modules` and
 * dot-folders skipped; a skill's own sub-folders are its resources). A path with none is returned as is,
 * so that the validator reports why (PATH_NOT_FOUND, NOT_A_DIRECTORY, MISSING_SKILL_MD).
 */
async function skillFolders(given: string): Promise<string[]> {
  const info = await stat(given).catch(() => undefined);
  if (info === undefined) return [given];
  if (info.isFile()) return path.basename(given).toLowerCase() === "skill.md" ? [path.dirname(given)] : [given];
  if (await holdsSkill(given)) return [given];
  const found: string[] = [];
  await walk(given, 1, found);
  return found.length === 0 ? [given] : found.sort(compareCodePoints);
}

async function walk(dir: string, depth: number, found: string[]): Promise<void> {
  if (depth > MAX_DEPTH) return;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const child = path.join(dir, entry.name);
    const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await stat(child).catch(() => undefined))?.isDirectory() === true);
    if (!isDir) continue;
    if (await holdsSkill(child)) found.push(child);
    else await walk(child, depth + 1, found);
  }
}

async function holdsSkill(dir: string): Promise<boolean> {
  for (const name of ["SKILL.md", "skill.md"]) {
    if ((await stat(path.join(dir, name)).catch(() => undefined))?.isFile() === true) return true;
  }
  return false;
}
