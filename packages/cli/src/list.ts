import { countTokens, diagnostic, readSkillContent } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import { notInvocableReason } from "@skillctx/engine/internal";
import { notLoadableReason } from "@skillctx/engine/internal";
import { commandSpec } from "./command-specs.js";
import { envelopeText } from "./envelope.js";
import { writeFindings } from "./findings.js";
import { formatList } from "./list-layout.js";
import type { ListedSkill, WhoMayInvoke } from "./listed-skill.js";
export type { ListedSkill, WhoMayInvoke } from "./listed-skill.js";
import { EXIT_FINDINGS, EXIT_OK } from "./io.js";
import type { CliCommand, CliIo } from "./io.js";
import { hasErrors, openContext } from "./load.js";
import { parseFlags } from "./options.js";
import { errorText } from "@skillctx/core/internal";

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
        io.stdout.write(envelopeText("list", { skills }, diagnostics));
      } else {
        io.stdout.write(formatList(skills, cwd, { tokens: withTokens, wide: flags.bool("wide"), columns: io.columns }));
        writeFindings(diagnostics, (t) => io.stderr.write(t), { command: "list", columns: io.columns });
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
