import { commandDiagnostics, renderCommands } from "@skillctx/render";
import type { DiagnosticSink, Skill, Trust } from "@skillctx/core";
import type { EventSink } from "../events/types.js";
import type { RenderSettings } from "./options.js";
import type { Templates } from "./templates.js";

export interface RenderSkillOptions {
  cwd: string;
  trust: Trust | undefined;
  settings: RenderSettings | undefined;
  templates: Templates;
  signal?: AbortSignal | undefined;
  /** Receives a warning for each command that failed, timed out, was cut or was not run. */
  report?: DiagnosticSink;
  /** Receives a `command.finished` event per command span rendered (run, failed or skipped). */
  events?: EventSink | undefined;
}

/**
 * Whether `` !`cmd` `` spans in this skill's text are commands to run, as the tool that owns the file
 * means them: yes in Agent Skills (SKILL.md), OpenHands skills and microagents, skills given in code,
 * a repository's AGENTS.md (OpenHands runs its dynamic content) and Claude Code commands; no in
 * CLAUDE.md and Claude Code rules, Cursor, Copilot, Windsurf, Cline and Gemini files, Cursor commands,
 * Copilot prompts and the user's `~/.codex/AGENTS.md`, which their tools read as static text. Every
 * render path (guidance, attachments, load_skill, invocation) asks this one function.
 */
export function rendersCommands(skill: Skill): boolean {
  switch (skill.source.format) {
    case "skill-md":
    case "legacy":
    case "inline":
      return true;
    case "command":
      return skill.metadata["kind"] === "claude-command";
    case "guidance":
      return skill.metadata["kind"] === "agents" && skill.source.scope !== "user";
    default:
      return false;
  }
}

/**
 * Renders the `` !`cmd` `` spans of a skill's text: run when the caller trusts the skill's scope,
 * replaced by a "not run" marker otherwise; `` \!`cmd` `` becomes the literal `` !`cmd` ``. Text without
 * spans runs nothing. A skill whose format does not run commands ({@link rendersCommands}) comes back
 * as written: no command runs and no marker is added.
 */
export async function renderSkillText(text: string, skill: Skill, options: RenderSkillOptions): Promise<string> {
  if (!rendersCommands(skill)) return text;
  const scope = skill.source.scope === "user" ? "user" : skill.source.scope === "remote" ? "remote" : "project";
  const result = await renderCommands(text, {
    cwd: options.cwd,
    trust: options.trust,
    scope: skill.source.scope,
    origin: skill.source.origin,
    untrustedMarker: (command) => options.templates.untrustedCommand(command, scope, skill.source.origin),
    ...(options.settings?.timeoutMs !== undefined && { timeoutMs: options.settings.timeoutMs }),
    ...(options.settings?.maxOutputBytes !== undefined && { maxOutputBytes: options.settings.maxOutputBytes }),
    ...(options.settings?.env !== undefined && { env: options.settings.env }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  if (options.report !== undefined)
    for (const d of commandDiagnostics(result, skill.source.path === undefined ? {} : { path: skill.source.path }))
      options.report(d);
  if (options.events?.wants("command.finished") === true) {
    for (const run of result.runs) {
      options.events.emit({
        type: "command.finished",
        skill: skill.name,
        command: run.command,
        exitCode: run.exitCode,
        durationMs: run.durationMs,
        truncated: run.truncated,
        skipped: run.skipped === true,
        line: run.line,
        ...(run.timedOut && { timedOut: true }),
        ...(run.error !== undefined && { error: run.error }),
      });
    }
  }
  return result.text;
}
