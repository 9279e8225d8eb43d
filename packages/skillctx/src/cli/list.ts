import { statSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { countTokens, diagnostic, readSkillContent } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { EXIT_FINDINGS, EXIT_OK, UsageError } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { formatDiagnostic } from "./format.js";
import { loadSkillSet } from "../engine/skill-set.js";

/** One skill as `skillctx list --json` prints it. */
export interface ListedSkill {
  name: string;
  scope: Skill["source"]["scope"];
  /** The skill's file (absolute), or null for a skill given in code. */
  path: string | null;
  trigger: Skill["trigger"]["type"];
  description: string | null;
  /** Tokens of the body (o200k_base), what loading the skill costs; null when the body cannot be read. */
  tokens: number | null;
}

/** `skillctx list`: every skill an agent in `--cwd` would see, with scope, trigger and token count. */
export const listCommand: CliCommand = {
  summary: "list every skill and guidance file an agent in --cwd sees, with scope, trigger and token count",
  usage: "skillctx list [--cwd DIR] [--json] [--user | --no-user]",
  async run(argv: string[], io: CliIo): Promise<number> {
    const { values } = parseArgs({
      args: argv,
      options: {
        cwd: { type: "string" },
        json: { type: "boolean", default: false },
        user: { type: "boolean" },
        "no-user": { type: "boolean" },
      },
      allowPositionals: false,
    });
    if (values.user === true && values["no-user"] === true) throw new UsageError("--user and --no-user exclude each other");
    const cwd = path.resolve(values.cwd ?? ".");
    if (statSync(cwd, { throwIfNoEntry: false })?.isDirectory() !== true) throw new UsageError(`not a folder: ${cwd}`);

    // The same skill set an AgentContext in `cwd` uses: skill folders and repository guidance.
    const found = await loadSkillSet({ cwd, userSkills: values["no-user"] !== true });
    const diagnostics: Diagnostic[] = [...found.diagnostics];
    const skills: ListedSkill[] = [];
    for (const skill of found.skills) skills.push(await describeSkill(skill, diagnostics));

    if (values.json) io.stdout.write(`${JSON.stringify({ skills, diagnostics }, null, 2)}\n`);
    else io.stdout.write(formatList(skills, diagnostics, cwd));
    return diagnostics.some((d) => d.severity === "error") ? EXIT_FINDINGS : EXIT_OK;
  },
};

async function describeSkill(skill: Skill, diagnostics: Diagnostic[]): Promise<ListedSkill> {
  let tokens: number | null = null;
  try {
    tokens = countTokens(await readSkillContent(skill));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    diagnostics.push(diagnostic("READ_FAILED", "error", message, { path: skill.source.path }));
  }
  return {
    name: skill.name,
    scope: skill.source.scope,
    path: skill.source.path ?? null,
    trigger: skill.trigger.type,
    description: skill.description ?? null,
    tokens,
  };
}

const DESCRIPTION_WIDTH = 60;

function formatList(skills: ListedSkill[], diagnostics: Diagnostic[], cwd: string): string {
  const lines: string[] = [];
  if (skills.length === 0) {
    lines.push(`no skills found for ${cwd}`);
  } else {
    const header = ["NAME", "SCOPE", "TRIGGER", "TOKENS", "PATH", "DESCRIPTION"];
    const rows = skills.map((s) => [
      s.name,
      s.scope,
      s.trigger,
      s.tokens === null ? "?" : String(s.tokens),
      s.path === null ? "(inline)" : shownPath(s.path, cwd),
      shorten(s.description ?? "", DESCRIPTION_WIDTH),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells
        .map((cell, i) => (i === 3 ? cell.padStart(widths[i]!) : i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd();
    lines.push(line(header), ...rows.map(line));
    const count = skills.length === 1 ? "1 skill" : `${skills.length} skills`;
    lines.push("", count);
  }
  if (diagnostics.length > 0) {
    lines.push("", "diagnostics:", ...diagnostics.map((d) => `  ${formatDiagnostic(d)}`));
  }
  return `${lines.join("\n")}\n`;
}

// Relative to cwd when inside it, so the table reads like the repository.
function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

function shorten(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return [...flat].length > width ? `${[...flat].slice(0, width - 1).join("")}…` : flat;
}
