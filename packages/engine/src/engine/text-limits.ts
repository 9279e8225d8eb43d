import { checkPositiveInteger } from "@skillctx/core/internal";
import { SkillctxError } from "@skillctx/core";
import {
  DEFAULT_MAX_ATTACHED_SKILL_BYTES,
  DEFAULT_MAX_GUIDANCE_BLOCK_BYTES,
  DEFAULT_MAX_LOADED_SKILL_BYTES,
} from "../limits.js";
import type { TextLimits } from "../context-types.js";

/**
 * UTF-8 bytes of each body re-attached after condensation. Claude Code re-attaches at most 5,000 tokens
 * of each invoked skill after compaction; at about 4 bytes a token that is 20,000 bytes (bytes, like
 * every text cap here, so no tokenizer runs on a step).
 */
export const DEFAULT_MAX_REATTACHED_SKILL_BYTES = 20_000;
/** UTF-8 bytes of all bodies re-attached in one step: Claude Code's 25,000-token budget at about 4 bytes a token. */
export const DEFAULT_MAX_REATTACHED_TOTAL_BYTES = 100_000;

/**
 * The `conversation.limits` option with its defaults (core's limits.ts) filled in.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for a limit that is not a positive integer.
 */
export function resolveLimits(limits: TextLimits | undefined): Required<TextLimits> {
  if (limits !== undefined && (typeof limits !== "object" || limits === null)) {
    throw new SkillctxError("INVALID_OPTIONS", "conversation.limits must be an object of byte counts");
  }
  const pick = (key: keyof TextLimits, fallback: number): number => {
    return checkPositiveInteger(`conversation.limits.${key}`, limits?.[key], fallback, " (bytes)");
  };
  return {
    maxGuidanceBlockBytes: pick("maxGuidanceBlockBytes", DEFAULT_MAX_GUIDANCE_BLOCK_BYTES),
    maxAttachedSkillBytes: pick("maxAttachedSkillBytes", DEFAULT_MAX_ATTACHED_SKILL_BYTES),
    maxLoadedSkillBytes: pick("maxLoadedSkillBytes", DEFAULT_MAX_LOADED_SKILL_BYTES),
    maxReattachedSkillBytes: pick("maxReattachedSkillBytes", DEFAULT_MAX_REATTACHED_SKILL_BYTES),
    maxReattachedTotalBytes: pick("maxReattachedTotalBytes", DEFAULT_MAX_REATTACHED_TOTAL_BYTES),
  };
}
