import type { EventSink } from "../events/types.js";
import type { DiagnosticSink, Skill, Trust } from "@skillctx/core";
import { compareCodePoints } from "@skillctx/core";
import type { SkillSet, SkillState, TextLimits } from "../context-types.js";
import { quoted } from "../tool-kit/tool-result.js";
import { notLoadableReason, skillFolder } from "../tool-kit/skill-folder.js";
import type { SkillToolSettings, ToolFilterMode } from "../tool-kit/tool-settings.js";
import type { SubAgentSupport } from "./sub-agent-support.js";
import type { SkillSearch } from "./search-skills.js";

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
  /** The one owner of skill search (`search_skills`, suggestions). */
  readonly search: SkillSearch;
  /** Sub-agents for `execute_skill`; undefined when the host gave no `runSubAgent` (the tool is then not offered). */
  readonly subAgents?: SubAgentSupport | undefined;
}

export const DEFAULT_MAX_RESOURCE_BYTES = 65_536;
export const DEFAULT_MAX_LISTED_FILES = 50;
/** Names listed in an "unknown skill" error; the rest are counted. */
export const MAX_NAMES_IN_ERROR = 100;

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
