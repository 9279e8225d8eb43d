import type { ToolResult } from "../context-types.js";
import { ellipsizeUtf16 } from "@skillctx/core/internal";

/** A successful tool result. */
export function ok(content: string): ToolResult {
  return { content };
}

/** A failed tool result: the model sees `message` and may try again. */
export function fail(message: string): ToolResult {
  return { content: message, isError: true };
}

/** Most characters of model-sent text (a tool or skill name) quoted back in an error result. */
export const MAX_ECHO_CHARS = 200;

/** `text` as a JSON string for an error result, cut at {@link MAX_ECHO_CHARS} characters with "…". */
export function quoted(text: string): string {
  return JSON.stringify(ellipsizeUtf16(text, MAX_ECHO_CHARS));
}
