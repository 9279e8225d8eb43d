/**
 * Active skills survive condensation: when the host drops or condenses the message that carried an
 * invoked or loaded skill's body while the skill is still active, the body is attached again to the
 * newest message, capped per skill and in total, most recently activated first (as Claude Code
 * re-attaches invoked skills after compaction).
 */
import { Buffer } from "node:buffer";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import type { SkillSet } from "../context-types.js";
import { skillLocation } from "../skill-location.js";
import { capSkillBody } from "../text-cap.js";
import type { Attachment, Carrier } from "./state.js";
import type { Templates } from "./templates.js";

/** What re-attaching needs from the context. */
export interface ReattachContext {
  cwd: string;
  templates: Templates;
  skills: SkillSet;
  /** `conversation.limits.maxReattachedSkillBytes`. */
  maxSkillBytes: number;
  /** `conversation.limits.maxReattachedTotalBytes`. */
  maxTotalBytes: number;
  /** A frozen rendering (`load:<name>`): a loaded skill's body. */
  frozen(key: string): string | undefined;
}

/** The re-attachments of a step, and the carriers given up (over the total, or their skill is gone). */
export interface Reattachments {
  attachments: Attachment[];
  dropped: string[];
  diagnostics: Diagnostic[];
}

/**
 * Re-attachments of the `due` carriers (most recently activated first) to the message `fingerprint`.
 * Each body is cut at `maxSkillBytes` with a note; a body that does not fit in what is left of
 * `maxTotalBytes` is not re-attached (`SKILL_REATTACH_LIMIT`). Skills in `invokedNow` are skipped:
 * the step attaches them afresh.
 */
export function reattachments(
  due: readonly Carrier[],
  fingerprint: string | undefined,
  context: ReattachContext,
  invokedNow: ReadonlySet<string>,
): Reattachments {
  const result: Reattachments = { attachments: [], dropped: [], diagnostics: [] };
  let total = 0;
  for (const carrier of due) {
    if (invokedNow.has(carrier.skill)) continue;
    const skill = context.skills.byName.get(carrier.skill);
    const body = carrier.kind === "load" ? (carrier.body ?? context.frozen(`load:${carrier.skill}`)) : carrier.body;
    if (skill === undefined || body === undefined || fingerprint === undefined) {
      result.dropped.push(carrier.skill);
      continue;
    }
    const capped = capSkillBody(skill, body, context.maxSkillBytes, "conversation.limits.maxReattachedSkillBytes");
    const bytes = Buffer.byteLength(capped.text, "utf8");
    if (total + bytes > context.maxTotalBytes) {
      result.dropped.push(carrier.skill);
      result.diagnostics.push(
        diagnostic(
          "SKILL_REATTACH_LIMIT",
          "warning",
          `the skill "${carrier.skill}" is still active but its message was condensed away, and its body (${bytes} bytes) does not fit in what is left of limits.maxReattachedTotalBytes (${context.maxTotalBytes - total} of ${context.maxTotalBytes}); it is not re-attached`,
          { path: skill.source.path },
        ),
      );
      continue;
    }
    total += bytes;
    if (capped.diagnostic !== undefined) result.diagnostics.push(capped.diagnostic);
    const text = context.templates.injection({
      skill: carrier.skill,
      trigger: "reattach",
      match: carrier.match,
      location: skillLocation(skill, context.cwd),
      body: capped.text,
      missingInputs: [],
    });
    result.attachments.push({ skill: carrier.skill, trigger: "reattach", match: carrier.match, fingerprint, text });
  }
  return result;
}
