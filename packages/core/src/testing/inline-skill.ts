// Test helper (excluded from the build): an inline, on-demand skill, as the search tests give their indexes.
import type { Skill } from "../skill.js";

/**
 * An inline skill of the programmatic scope, triggered on demand, with no metadata; `extra` replaces any field.
 * An undefined `description` leaves the field out (a skill the schema would refuse, for the index's own checks).
 */
export function inlineSkill(
  name: string,
  description: string | undefined,
  content = "",
  extra: Partial<Skill> = {},
): Skill {
  return {
    name,
    ...(description !== undefined && { description }),
    content,
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "on-demand" },
    metadata: {},
    ...extra,
  } as Skill;
}
