import type { Skill } from "./skill.js";

// Triggers of skills the model loads itself; `always` and `path` skills are attached by the engine.
const MODEL_TRIGGERS = new Set<string | undefined>(["on-demand", "keyword", "task"]);

/**
 * Whether the model may load `skill`, and so whether the catalog lists it: an on-demand, keyword or task
 * skill not marked `disable-model-invocation`. The catalog and the engine's index of invocable skills
 * both ask this.
 */
export function isModelInvocable(skill: Pick<Skill, "trigger" | "disableModelInvocation">): boolean {
  return MODEL_TRIGGERS.has(skill.trigger?.type) && skill.disableModelInvocation !== true;
}
