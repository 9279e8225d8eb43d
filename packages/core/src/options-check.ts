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
 * A boolean option: `fallback` when undefined.
 *
 * @throws SkillctxError `INVALID_OPTIONS` (`<path> must be true or false; got <value>`).
 */
export function checkBoolean(path: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  throw invalidOption(path, "true or false", { got: { value } });
}
