/**
 * Skill bodies capped for the model, with a visible note (core's one text cutter, `capTextUtf8Bytes`). A leaf
 * module shared by the engine and the tools.
 */
import { diagnostic } from "@skillctx/core";
import { capTextUtf8Bytes } from "@skillctx/core/internal";
import type { Diagnostic, Skill } from "@skillctx/core";

/**
 * A skill body capped at `maxBytes` for the model (attached by a trigger, or returned by `load_skill`):
 * the text with its note, and a `SKILL_BODY_CUT` warning naming `option` when it was cut.
 */
export function capSkillBody(
  skill: Pick<Skill, "name" | "source">,
  body: string,
  maxBytes: number,
  option: string,
): { text: string; diagnostic?: Diagnostic } {
  const capped = capTextUtf8Bytes(
    body,
    maxBytes,
    (kept, size) =>
      `[skillctx: the skill "${skill.name}" is cut here: ${kept} of its ${size} bytes are shown (limit ${maxBytes}).]`,
  );
  if (!capped.cut) return { text: capped.text };
  return {
    text: capped.text,
    diagnostic: diagnostic(
      "SKILL_BODY_CUT",
      "warning",
      `the body of "${skill.name}" (${capped.size} bytes) is over ${option} (${maxBytes}); only its first part reaches the model`,
      {
        path: skill.source.path,
      },
    ),
  };
}
