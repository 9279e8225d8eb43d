import type { EventSink } from "../events/types.js";
import type { DiagnosticSink, Skill, Trust } from "@skillctx/core";
import { compareCodePoints } from "@skillctx/core";
import type { SkillSet, SkillState, TextLimits } from "../context-types.js";
import { quoted } from "./tool-result.js";
import type { SubAgentSupport } from "./execute-skill.js";

/** Limits of the skill tools (`skillTools` option of `AgentContext.create`). */
export interface SkillToolSettings {
  /** Most UTF-8 bytes one `read_skill_resource` call returns; longer files are cut with a note. @default 65536 */
  maxResourceBytes?: number;
  /** Most files listed after a loaded skill's body; the rest are counted. @default 50 */
  maxListedFiles?: number;
  /** Most UTF-8 bytes of one code tool's result (a `defineSkill` tool, a typed script tool); longer results are cut with a note. @default 102400 */
  maxCodeToolResultBytes?: number;
  /** Most UTF-8 bytes of one skill's state as JSON; a tool call that would make it larger is rejected with an error result. @default 1048576 */
  maxSkillStateBytes?: number;
  /** How `run_skill_script` runs scripts. */
  scripts?: {
    /** Per run; the script's process group is killed after it. @default 30000 */
    timeoutMs?: number;
    /** Bytes of stdout (and of stderr) kept; the script is stopped past it. @default 51200 */
    maxOutputBytes?: number;
    /** Extra environment; wins over the inherited allowlist (PATH, HOME, LANG, ...). */
    env?: Record<string, string>;
  };
}

/** How the active skill's `allowed-tools` applies: drop other tools from the list, refuse their calls, or ignore it. */
export type ToolFilterMode = "filter" | "refuse" | "off";

/**
 * What the skill tools need from the context that runs them. The conversation's state is reached
 * through `state` only (activate, deactivate, frozen renderings), never as the state object.
 */
export interface SkillToolHost {
  readonly cwd: string;
  readonly skills: SkillSet;
  /** The active skill and frozen renderings; the engine's state owner stands behind it. */
  readonly state: SkillState;
  readonly trust: Trust | undefined;
  readonly settings: SkillToolSettings;
  /** Caps on the text that reaches the model (defaults filled in). */
  readonly limits: Required<TextLimits>;
  readonly toolFilter: ToolFilterMode;
  /** Renders a skill body's `` !`cmd` `` spans (honouring trust). */
  render(text: string, skill: Skill, signal: AbortSignal | undefined): Promise<string>;
  /**
   * Puts in a rendered body's `${CLAUDE_SKILL_DIR}`, `${SKILL_DIR}` and `${CLAUDE_SESSION_ID}` (never re-scanned);
   * with `args` (a `context: fork` skill run by `execute_skill`), its argument placeholders too.
   */
  substituteVariables(text: string, skill: Skill, args?: string): string;
  /** Reports a diagnostic in the next step. */
  readonly diagnostic: DiagnosticSink;
  /** The context's event stream (`script.finished`, `resource.read`, ...); build an event only when `events.wants(type)`. */
  readonly events: EventSink;
  /** Sub-agents for `execute_skill`; undefined when the host gave no `runSubAgent` (the tool is then not offered). */
  readonly subAgents?: SubAgentSupport | undefined;
}

export const DEFAULT_MAX_RESOURCE_BYTES = 65_536;
export const DEFAULT_MAX_LISTED_FILES = 50;
export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;
/** Names listed in an "unknown skill" error; the rest are counted. */
export const MAX_NAMES_IN_ERROR = 100;

/** Why the model may not load a skill, or undefined when it may. */
export function notLoadableReason(skill: Skill): string | undefined {
  if (skill.disableModelInvocation === true)
    return `the skill "${skill.name}" is marked disable-model-invocation: only the user can invoke it`;
  switch (skill.trigger.type) {
    case "on-demand":
    case "keyword":
    case "task":
      return undefined;
    case "path":
      return `the skill "${skill.name}" is a path rule: it is attached when a tool touches a matching file, not loaded`;
    case "always":
      return `"${skill.name}" is repository guidance: it is always in the system prompt`;
    case "command":
      return `"${skill.name}" is a command: only the user invokes it, as ${skill.trigger.prefix}${skill.name}`;
  }
}

/** The skill's folder of files, when it has one (Agent Skills folders and programmatic skills given a `dir`). */
export function skillFolder(skill: Skill): string | undefined {
  if (skill.dir === undefined || skill.trigger.type === "always") return undefined;
  return skill.source.format === "skill-md" || skill.source.format === "inline" ? skill.dir : undefined;
}

const loadableNames = new WeakMap<SkillSet, string[]>();

/** Names of the skills the model may load, in code-point order. */
export function loadableSkillNames(skills: SkillSet): string[] {
  let names = loadableNames.get(skills);
  if (names === undefined) {
    names = skills.skills
      .filter((skill) => notLoadableReason(skill) === undefined)
      .map((skill) => skill.name)
      .sort(compareCodePoints);
    loadableNames.set(skills, names);
  }
  return names;
}

/** Whether any skill tool has something to work on. */
export function hasSkillToolWork(skills: SkillSet): boolean {
  return loadableSkillNames(skills).length > 0 || skills.skills.some((skill) => skillFolder(skill) !== undefined);
}

/** "Unknown skill" text: the available names (sorted, capped) and a near miss when there is one. */
export function unknownSkillMessage(name: string, available: readonly string[]): string {
  const lower = name.toLowerCase();
  const near = available.find((candidate) => candidate.toLowerCase() === lower);
  const hint = near === undefined ? "" : ` Did you mean "${near}"?`;
  return `Unknown skill ${quoted(name)}.${hint} Available skills: ${listNames(available)}.`;
}

/** Names joined with ", ", at most {@link MAX_NAMES_IN_ERROR}, then a count of the rest. */
export function listNames(names: readonly string[]): string {
  if (names.length === 0) return "(none)";
  const shown = names.slice(0, MAX_NAMES_IN_ERROR).join(", ");
  return names.length > MAX_NAMES_IN_ERROR ? `${shown} and ${names.length - MAX_NAMES_IN_ERROR} more` : shown;
}

/** A skill name as the model wrote it, ready for lookup: surrounding white space is dropped. */
export function skillNameArg(name: string): string {
  return name.trim();
}

/** The skill `name` (trimmed) for a tool that reads its files or runs its scripts, or an error message. */
export function folderSkill(host: SkillToolHost, written: string): { skill: Skill; dir: string } | { error: string } {
  const name = skillNameArg(written);
  const skill = host.skills.byName.get(name);
  if (skill === undefined) {
    const withFolders = host.skills.skills
      .filter((s) => skillFolder(s) !== undefined)
      .map((s) => s.name)
      .sort(compareCodePoints);
    return { error: unknownSkillMessage(name, withFolders) };
  }
  const dir = skillFolder(skill);
  if (dir === undefined) return { error: `The skill "${name}" has no folder of files (it is a single-file skill).` };
  return { skill, dir };
}
