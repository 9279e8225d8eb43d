// Option checks only the engine makes (core/internal keeps the shared ones: invalidOption, quotedChoices, ...).
import { invalidOption, isPositiveInteger, quotedChoices } from "@skillctx/core/internal";

/** A string with something besides white space. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * A count option: `fallback` when undefined, the value when a positive integer, else
 * `<path> must be a positive integer<unit>; got <value>` (`unit` such as ` (bytes)`).
 *
 * @throws SkillctxError `INVALID_OPTIONS`.
 */
export function checkPositiveInteger(path: string, value: unknown, fallback: number, unit = ""): number {
  if (value === undefined) return fallback;
  if (isPositiveInteger(value)) return value;
  throw invalidOption(path, `a positive integer${unit}`, { got: { value } });
}

/**
 * An enum option: `fallback` when undefined, the value when one of `allowed`.
 *
 * @throws SkillctxError `INVALID_OPTIONS` (`<path> must be "a" or "b"; got <value>`).
 */
export function checkEnum<T extends string>(path: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalidOption(path, quotedChoices(allowed), { got: { value } });
}
