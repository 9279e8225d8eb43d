import { SkillctxError } from "../errors.js";

/** What {@link safeParseJson} returns: the value, or the parser's message (never the text itself). */
export type SafeParseJsonResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The one parser of JSON text that came from outside (a repository, a server, a model, a cache file).
 * The error keeps the engine's message (V8 names the position, e.g. `... at position 12`) and the
 * engine's error as `cause`.
 *
 * @throws SkillctxError `JSON_INVALID` when `text` is not JSON.
 * @example
 * parseJson('{"a":1}') // { a: 1 }
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SkillctxError("JSON_INVALID", parserMessage(error), { cause: error });
  }
}

/**
 * {@link parseJson} that never throws: `{ ok: true, value }` or `{ ok: false, error }` with the parser's message.
 *
 * @example
 * safeParseJson("{") // { ok: false, error: "Expected property name or '}' in JSON at position 1 ..." }
 */
export function safeParseJson(text: string): SafeParseJsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: parserMessage(error) };
  }
}

// JSON.parse throws a SyntaxError, or a RangeError for text nested too deep for the engine's stack.
function parserMessage(error: unknown): string {
  return error instanceof Error ? error.message : "not JSON";
}
