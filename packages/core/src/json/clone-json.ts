import { SkillctxError } from "../errors.js";
import { parseJson } from "./parse-json.js";

/**
 * A deep copy of `value` as JSON carries it: `toJSON` applied, undefined fields and functions dropped,
 * `undefined` itself becomes `null`. The copy shares nothing with `value`.
 *
 * @throws SkillctxError `JSON_INVALID` when `value` cannot be written as JSON (a cycle, a BigInt); the
 * message is the engine's.
 * @example
 * cloneJson({ a: [1, undefined], b: undefined }) // { a: [1, null] }
 */
export function cloneJson<T>(value: T): T {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new SkillctxError("JSON_INVALID", error instanceof Error ? error.message : "not JSON", { cause: error });
  }
  return (text === undefined ? null : parseJson(text)) as T;
}
