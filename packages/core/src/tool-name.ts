import { createHash } from "./crypto-lib.js";

/** Longest tool name model APIs accept (OpenAI, Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_TOOL_NAME_CHARS = 64;
/** Hex digits of the hash a cut or clashing tool name ends with. */
const HASH_DIGITS = 8;

/** `text` with every character outside `[A-Za-z0-9_-]` (a whole code point) replaced by `_`. */
export function reduceToolName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/gu, "_");
}

/**
 * A tool name that model APIs accept and that stays unique: `name` reduced to `[A-Za-z0-9_-]`, cut to
 * leave room, then `_` and the first 8 hex digits of the SHA-256 of `key` (what identifies the tool:
 * its original, unreduced names), {@link MAX_TOOL_NAME_CHARS} characters at most. The same key gives
 * the same name on every run.
 *
 * @example
 * hashedToolName("mcp__server__a_very_long_tool_name…", "server\0a very long tool name…") // "mcp__server__a_very…_1a2b3c4d"
 */
export function hashedToolName(name: string, key: string): string {
  const hash = createHash("sha256").update(key).digest("hex").slice(0, HASH_DIGITS);
  return `${reduceToolName(name).slice(0, MAX_TOOL_NAME_CHARS - HASH_DIGITS - 1)}_${hash}`;
}
