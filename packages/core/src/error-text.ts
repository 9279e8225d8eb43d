import { MAX_ERROR_TEXT_CHARS } from "./limits.js";
import { ellipsizeUtf16 } from "./text/cut-text.js";

// What errorText says for a value that has no text form.
const UNPRINTABLE = "(an error that cannot be printed)";

/**
 * The message of anything thrown, for a diagnostic, a tool result or a log: an `Error`'s `message`,
 * a string as is, anything else through `String`. Never throws, whatever was thrown (a null-prototype
 * object, a Proxy whose traps throw, an Error whose `message` getter throws, a symbol, a BigInt), and
 * cut at {@link MAX_ERROR_TEXT_CHARS} UTF-16 units with "…".
 *
 * @example
 * errorText(new Error("boom")) // "boom"
 * errorText(Object.create(null)) // "(an error that cannot be printed)"
 */
export function errorText(error: unknown): string {
  return ellipsizeUtf16(fullText(error), MAX_ERROR_TEXT_CHARS);
}

function fullText(error: unknown): string {
  if (typeof error === "string") return error;
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      return typeof message === "string" ? message : String(message);
    }
  } catch {
    // A Proxy's getPrototypeOf trap or a `message` getter threw: fall through to String.
  }
  try {
    return String(error);
  } catch {
    // No toString or Symbol.toPrimitive that works (a null-prototype object, a throwing Proxy).
    return UNPRINTABLE;
  }
}
