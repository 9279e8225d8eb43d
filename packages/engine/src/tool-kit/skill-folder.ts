/**
 * What the skill tools (`tools/`) and the skills' code tools (`code/`) both ask of a skill: whether
 * the model may load it and where its files are. A leaf: imports nothing of tools/ or code/.
 */
import type { Skill } from "@skillctx/core";

/** Per run of a skill script (`run_skill_script`, typed script tools); its process group is killed after it. */
export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;

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
