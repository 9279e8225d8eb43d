import { SkillctxError, type SkillctxErrorCode } from "./errors.js";

/**
 * The one shape of a refused option: `<path> must be <expected>`, then `; got <value>` when the value
 * is worth showing. `path` names the option as the caller wrote it (`limits.maxGuidanceBlockBytes`,
 * `subAgent.maxSteps`, `tools[2]`).
 */
export function optionMessage(path: string, expected: string, got?: { value: unknown }): string {
  return got === undefined
    ? `${path} must be ${expected}`
    : `${path} must be ${expected}; got ${shownValue(got.value)}`;
}

/**
 * A `SkillctxError` for a refused option, with {@link optionMessage}'s text and `code` (default
 * `INVALID_OPTIONS`); `got` adds the value given.
 */
export function invalidOption(
  path: string,
  expected: string,
  options: { got?: { value: unknown }; code?: SkillctxErrorCode } = {},
): SkillctxError {
  return new SkillctxError(options.code ?? "INVALID_OPTIONS", optionMessage(path, expected, options.got));
}

/** A value as an option message shows it: JSON, except what JSON cannot say (NaN, ±Infinity, undefined, functions). */
export function shownValue(value: unknown): string {
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return `${value}n`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value); // a cycle
  }
}

/** An integer of at least 1 (a count, a size in bytes). */
export function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

/** A safe integer of at least `min`. */
export function isWholeNumberAtLeast(value: unknown, min: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min;
}

/** A string with something besides white space. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** An array of strings (each any string). */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`: the choices of an enum option, as its message names them. */
export function quotedChoices(allowed: readonly string[]): string {
  const quoted = allowed.map((a) => JSON.stringify(a));
  return quoted.length <= 1 ? (quoted[0] ?? "") : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
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
 * A whole-number option of at least `min`: `fallback` when undefined.
 *
 * @throws SkillctxError `INVALID_OPTIONS` (`<path> must be a whole number of at least <min>; got <value>`).
 */
export function checkWholeNumber(path: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (isWholeNumberAtLeast(value, min)) return value;
  throw invalidOption(path, `a whole number of at least ${min}`, { got: { value } });
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

/**
 * A boolean option: `fallback` when undefined.
 *
 * @throws SkillctxError `INVALID_OPTIONS` (`<path> must be true or false; got <value>`).
 */
export function checkBoolean(path: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  throw invalidOption(path, "true or false", { got: { value } });
}
