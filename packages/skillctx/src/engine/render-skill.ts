import { commandDiagnostics, renderCommands } from "@skillctx/render";
import type { Diagnostic, Skill, Trust } from "@skillctx/core";
import type { RenderSettings } from "./options.js";
import type { Templates } from "./templates.js";

export interface RenderSkillOptions {
  cwd: string;
  trust: Trust | undefined;
  settings: RenderSettings | undefined;
  templates: Templates;
  signal?: AbortSignal | undefined;
  /** Receives a warning for each command that failed, timed out, was cut or was not run. */
  report?: (diagnostics: Diagnostic[]) => void;
}

/**
 * Renders the `` !`cmd` `` spans of a skill's text: run when the caller trusts the skill's scope,
 * replaced by a "not run" marker otherwise; `` \!`cmd` `` becomes the literal `` !`cmd` ``. Text without
 * spans runs nothing.
 */
export async function renderSkillText(text: string, skill: Skill, options: RenderSkillOptions): Promise<string> {
  const scope = skill.source.scope === "user" ? "user" : "project";
  const result = await renderCommands(text, {
    cwd: options.cwd,
    trust: options.trust,
    scope: skill.source.scope,
    untrustedMarker: (command) => options.templates.untrustedCommand(command, scope),
    ...(options.settings?.timeoutMs !== undefined && { timeoutMs: options.settings.timeoutMs }),
    ...(options.settings?.maxOutputBytes !== undefined && { maxOutputBytes: options.settings.maxOutputBytes }),
    ...(options.settings?.env !== undefined && { env: options.settings.env }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  options.report?.(commandDiagnostics(result, skill.source.path === undefined ? {} : { path: skill.source.path }));
  return result.text;
}
