import type { ToolResult } from "./tool-provider.js";

/** A successful tool result. */
export function ok(content: string): ToolResult {
  return { content };
}

/** A failed tool result: the model sees `message` and may try again. */
export function fail(message: string): ToolResult {
  return { content: message, isError: true };
}

/** The message of anything thrown, on one line when possible. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : String(error);
}
