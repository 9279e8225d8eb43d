import { SkillctxError } from "@skillctx/core";
import {
  DEFAULT_MAX_ATTACHED_SKILL_BYTES,
  DEFAULT_MAX_GUIDANCE_BLOCK_BYTES,
  DEFAULT_MAX_LOADED_SKILL_BYTES,
} from "@skillctx/core/internal";
import type { TextLimits } from "../context-types.js";

/**
 * The `limits` option with its defaults (core's limits.ts) filled in.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for a limit that is not a positive integer.
 */
export function resolveLimits(limits: TextLimits | undefined): Required<TextLimits> {
  if (limits !== undefined && (typeof limits !== "object" || limits === null)) {
    throw new SkillctxError("INVALID_OPTIONS", "limits must be an object of byte counts");
  }
  const pick = (key: keyof TextLimits, fallback: number): number => {
    const value = limits?.[key];
    if (value === undefined) return fallback;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
      throw new SkillctxError("INVALID_OPTIONS", `limits.${key} must be a positive integer (bytes); got ${JSON.stringify(value)}`);
    }
    return value;
  };
  return {
    maxGuidanceBlockBytes: pick("maxGuidanceBlockBytes", DEFAULT_MAX_GUIDANCE_BLOCK_BYTES),
    maxAttachedSkillBytes: pick("maxAttachedSkillBytes", DEFAULT_MAX_ATTACHED_SKILL_BYTES),
    maxLoadedSkillBytes: pick("maxLoadedSkillBytes", DEFAULT_MAX_LOADED_SKILL_BYTES),
  };
}
