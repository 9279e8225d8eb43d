import { createHash } from "@skillctx/core/internal";
import type { Message } from "../messages.js";
import { messageText } from "../messages.js";

// A message object's content hash, computed once per object.
const contentHashes = new WeakMap<object, string>();

/** A stable hash of what a message says (role, text, tool calls), the same in every process. */
export function contentHash(message: Message): string {
  const cached = contentHashes.get(message);
  if (cached !== undefined) return cached;
  const hash = createHash("sha256");
  hash.update(message.role);
  hash.update("\0");
  hash.update(messageText(message));
  if (message.toolCallId !== undefined) hash.update(`\0id:${message.toolCallId}`);
  if (message.toolCalls !== undefined) hash.update(`\0calls:${JSON.stringify(message.toolCalls)}`);
  const value = hash.digest("base64url").slice(0, 22);
  contentHashes.set(message, value);
  return value;
}
