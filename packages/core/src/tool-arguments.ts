import { safeParseJson } from "./json/parse-json.js";

/** What {@link decodeToolArguments} returns: the arguments as a value, or why their text is not JSON. */
export type DecodedToolArguments = { ok: true; value: unknown } | { ok: false; error: string };

/** Options of {@link decodeToolArguments}. */
export interface DecodeToolArgumentsOptions {
  /**
   * Read `undefined`, `null` and blank text (a model that calls a tool without arguments) as `{}`.
   * @default false
   */
  emptyAsObject?: boolean;
}

/**
 * Tool-call arguments as a value, whichever form they arrive in: JSON text (OpenAI's wire form, or
 * arguments kept as text by another format) is parsed through core's JSON owner; any other value is
 * returned as it is. Never throws: text that is not JSON gives `{ ok: false, error }`, and each caller
 * decides what that means for it (no paths, an error result, the text kept as text).
 *
 * @example
 * decodeToolArguments('{"skill":"pdf"}') // { ok: true, value: { skill: "pdf" } }
 * decodeToolArguments({ skill: "pdf" }) // { ok: true, value: { skill: "pdf" } }
 * decodeToolArguments("", { emptyAsObject: true }) // { ok: true, value: {} }
 */
export function decodeToolArguments(raw: unknown, options: DecodeToolArgumentsOptions = {}): DecodedToolArguments {
  if (options.emptyAsObject === true && (raw === undefined || raw === null)) return { ok: true, value: {} };
  if (typeof raw !== "string") return { ok: true, value: raw };
  if (options.emptyAsObject === true && raw.trim() === "") return { ok: true, value: {} };
  return safeParseJson(raw);
}
