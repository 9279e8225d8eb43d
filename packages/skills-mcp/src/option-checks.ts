// The option check only the skill server makes (core/internal keeps the shared ones).
import { invalidOption, isWholeNumberAtLeast } from "@skillctx/core/internal";

/**
 * A whole-number option of at least `min`: `fallback` when undefined.
 *
 * @throws SkillctxError `INVALID_OPTIONS` (`<path> must be a whole number of at least <min>; got <value>`).
 */
export function checkWholeNumber(path: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (isWholeNumberAtLeast(value, min)) return value;
  throw invalidOption(path, `a whole number of at least ${min}`, { got: { value } });
}
