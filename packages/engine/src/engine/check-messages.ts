import { SkillctxError } from "@skillctx/core";
import { messageSchemas } from "../messages.js";
import type { Message } from "../messages.js";
import { contentHash } from "./fingerprint.js";
import { errorText } from "@skillctx/core/internal";

/**
 * Checks `messages[from..]` (the part of the history not seen last step) against `MessageSchema` and
 * that each can be fingerprinted (tool-call arguments must be JSON: no cycles, no BigInt), before the
 * step changes anything. A message seen before is the same object, so it is not checked again.
 *
 * @throws SkillctxError `MESSAGES_INVALID` naming the first bad message and field.
 */
export function checkMessages(messages: unknown, from: number): asserts messages is readonly Message[] {
  if (!Array.isArray(messages)) throw invalid(`messages must be an array of messages; got ${describe(messages)}`);
  let index = from;
  if (index >= messages.length) return;
  const { MessageSchema } = messageSchemas();
  try {
    for (; index < messages.length; index++) {
      const message: unknown = messages[index];
      const parsed = MessageSchema.safeParse(message);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue === undefined || issue.path.length === 0 ? "" : `.${issue.path.map(String).join(".")}`;
        const got = issue?.path.length === 0 ? `; got ${describe(message)}` : "";
        throw invalid(`messages[${index}]${field}: ${issue?.message ?? "invalid"}${got}`, index);
      }
      contentHash(message as Message);
    }
  } catch (error) {
    if (SkillctxError.isInstance(error)) throw error;
    // A cycle or a BigInt in tool-call arguments, a getter that throws, a revoked proxy, ...
    throw invalid(`messages[${index}] cannot be read: ${errorText(error)}`, index, error);
  }
}

function invalid(message: string, index?: number, cause?: unknown): SkillctxError {
  return new SkillctxError("MESSAGES_INVALID", message, {
    ...(cause !== undefined && { cause }),
    ...(index !== undefined && { data: { index } }),
  });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}
