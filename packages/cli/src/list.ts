import { countTokens, diagnostic, readSkillContent } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { notInvocableReason } from "@skillctx/engine/internal";
import { notLoadableReason } from "@skillctx/engine/internal";
import { commandSpec } from "./command-specs.js";
import { cell } from "./cell.js";
import { formatDiagnostic, jsonText, shownPath } from "./format.js";
import { EXIT_FINDINGS, EXIT_OK } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { hasErrors, openContext } from "./load.js";
import { parseFlags } from "./options.js";
import { errorText } from "@skillctx/core/internal";

/** Who may invoke a skill. */
export interface WhoMayInvoke {
  /** The model may load it (`load_skill`); it is in the catalog unless it fires on its own. */
  model: boolean;
  /** What the user types to invoke it (`/name`, or `@name` for a Cursor manual rule), or null when the user may not. */
  user: string | null;
}

/** One skill as `skillctx list --json` prints it. */
export interface ListedSkill {
  name: string;
  scope: Skill["source"]["scope"];
  /** A remote skill's source name (an MCP server's label, a git or URL source's name); null for local skills. */
  origin: string | null;
  /** The skill's file (absolute), or null for a skill given in code. */
  path: string | null;
  trigger: Skill["trigger"]["type"];
  description: string | null;
  invocation: WhoMayInvoke;
  /** The `argument-hint` shown to the user, or null. */
  argumentHint: string | null;
  /** With `--tokens`: tokens of the body (o200k_base), what loading the skill costs; null when the body cannot be read. */
  tokens?: number | null;
}

/** `skillctx list`: every skill an agent in `--cwd` sees, loaded as the engine loads them. */
export const listCommand: CliCommand = {
  async run(argv: string[], io: CliIo): Promise<number> {
    const flags = parseFlags(argv, commandSpec("list").flags);
    const { ctx, cwd, diagnostics: loaded } = await openContext(flags, io);
    try {
      const diagnostics: Diagnostic[] = [...loaded];
      const withTokens = flags.bool("tokens");
      const skills: ListedSkill[] = [];
      for (const skill of ctx.skills) {
        io.signal?.throwIfAborted();
        skills.push(await describeSkill(skill, withTokens, diagnostics, io.signal));
      }
      if (flags.bool("json")) {
        io.stdout.write(jsonText({ skills, diagnostics }));
      } else {
        io.stdout.write(formatList(skills, cwd, withTokens, io.columns));
        for (const d of diagnostics) io.stderr.write(`${formatDiagnostic(d)}\n`);
      }
      return hasErrors(diagnostics) ? EXIT_FINDINGS : EXIT_OK;
    } finally {
      await ctx.close();
    }
  },
};

/**
 * Who may invoke `skill`, as the engine decides it: the model when `load_skill` would load it
 * (`notLoadableReason`), the user when `/name` (`@name` for a Cursor manual rule) would invoke it
 * (`notInvocableReason`).
 */
export function invocation(skill: Skill): WhoMayInvoke {
  const prefix = skill.trigger.type === "command" ? skill.trigger.prefix : "/";
  return {
    model: notLoadableReason(skill) === undefined,
    user: notInvocableReason(skill, prefix) === undefined ? `${prefix}${skill.name}` : null,
  };
}

async function describeSkill(
  skill: Skill,
  withTokens: boolean,
  diagnostics: Diagnostic[],
  signal: AbortSignal | undefined,
): Promise<ListedSkill> {
  const listed: ListedSkill = {
    name: skill.name,
    scope: skill.source.scope,
    origin: skill.source.origin ?? null,
    path: skill.source.path ?? null,
    trigger: skill.trigger.type,
    // The data as written (JSON escapes what a terminal must not see); the table shows it on one line (cell).
    description: skill.description ?? null,
    invocation: invocation(skill),
    argumentHint: skill.argumentHint ?? null,
  };
  if (withTokens) {
    listed.tokens = null;
    try {
      listed.tokens = countTokens(await readSkillContent(skill, signal === undefined ? {} : { signal }));
    } catch (error) {
      signal?.throwIfAborted();
      const message = errorText(error);
      diagnostics.push(diagnostic("SKILL_READ_FAILED", "error", message, { path: skill.source.path }));
    }
  }
  return listed;
}

const DESCRIPTION_WIDTH = 60;
const ARGS_WIDTH = 30;

function invokeCell(who: WhoMayInvoke): string {
  if (who.model && who.user !== null) return "model+user";
  if (who.model) return "model";
  return who.user !== null ? "user" : "-";
}

/**
 * The table. On a terminal (`columns` known) it fits the width: DESCRIPTION gets what the other columns
 * leave; when that is under {@link MIN_DESCRIPTION_WIDTH}, PATH, ARGS, TRIGGER, SCOPE and at last DESCRIPTION are
 * left out, one at a time, and the count line names them (`--json` has every field). Elsewhere descriptions are cut at {@link DESCRIPTION_WIDTH}.
 */
export function formatList(skills: ListedSkill[], cwd: string, withTokens: boolean, columns?: number): string {
  if (skills.length === 0) return `no skills found for ${cell(cwd)}\n`;
  const all: Column[] = [
    { title: "NAME", value: (s) => cell(s.name) },
    { title: "SCOPE", value: (s) => (s.origin === null ? s.scope : `${s.scope}:${s.origin}`) },
    { title: "TRIGGER", value: (s) => s.trigger },
    { title: "INVOKE", value: (s) => invokeCell(s.invocation) },
    { title: "ARGS", value: (s) => (s.argumentHint === null ? "-" : cell(s.argumentHint, ARGS_WIDTH)) },
    ...(withTokens
      ? [{ title: "TOKENS", right: true, value: (s: ListedSkill) => (s.tokens == null ? "?" : String(s.tokens)) }]
      : []),
    { title: "PATH", value: (s) => (s.path === null ? "(inline)" : cell(shownPath(s.path, cwd))) },
  ];
  let columnsShown = all;
  let descriptionWidth = DESCRIPTION_WIDTH;
  const left: string[] = [];
  if (columns !== undefined) {
    // Leave out the columns least needed at a glance until the description has room; then it goes too.
    for (const drop of ["PATH", "ARGS", "TRIGGER", "SCOPE", "DESCRIPTION"]) {
      descriptionWidth = columns - tableWidth(columnsShown, skills);
      if (descriptionWidth >= MIN_DESCRIPTION_WIDTH) break;
      if (drop !== "DESCRIPTION") columnsShown = columnsShown.filter((c) => c.title !== drop);
      left.push(drop);
    }
  }
  const shown: Column[] = left.includes("DESCRIPTION")
    ? columnsShown
    : [...columnsShown, { title: "DESCRIPTION", value: (s) => cell(s.description ?? "", descriptionWidth) }];
  const rows = skills.map((s) => shown.map((c) => c.value(s)));
  const header = shown.map((c) => c.title);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  const line = (cells: string[]) =>
    cells
      .map((text, i) => {
        if (i === cells.length - 1) return text;
        const pad = " ".repeat(widths[i]! - [...text].length);
        return shown[i]!.right === true ? pad + text : text + pad;
      })
      .join("  ")
      .trimEnd();
  const count = skills.length === 1 ? "1 skill" : `${skills.length} skills`;
  const note = left.length === 0 ? "" : ` (not shown: ${left.join(", ")}; see --json)`;
  return `${[line(header), ...rows.map(line), "", count + note].join("\n")}\n`;
}

/** Narrowest DESCRIPTION column on a terminal, before other columns are left out for it. */
const MIN_DESCRIPTION_WIDTH = "DESCRIPTION".length;

interface Column {
  title: string;
  right?: boolean;
  value(s: ListedSkill): string;
}

// Width of `columns` and the two spaces after each, as the table lays them out.
function tableWidth(columns: readonly Column[], skills: readonly ListedSkill[]): number {
  return columns.reduce(
    (sum, c) => sum + Math.max(c.title.length, ...skills.map((s) => [...c.value(s)].length)) + 2,
    0,
  );
}
