import type { ContextStep } from "@skillctx/engine";
import type { ContentPart, Message } from "@skillctx/engine";

/**
 * The one reader of `step.attachments` for the adapters: the texts attached to each message index, in
 * the order appended. Adapters place them in their framework's native form from this; none diffs messages.
 */
export function attachmentsByMessage(step: Pick<ContextStep, "attachments">): Map<number, string[]> {
  const byIndex = new Map<number, string[]>();
  for (const { messageIndex, text } of step.attachments) {
    const texts = byIndex.get(messageIndex);
    if (texts === undefined) byIndex.set(messageIndex, [text]);
    else texts.push(text);
  }
  return byIndex;
}

/**
 * `message` (a message of `step.messages`) without the `count` text parts the engine appended: the
 * host's own content, as parts. With `count` 0 the message is returned as it is.
 */
export function withoutAttachments(message: Message, count: number): Message {
  if (count === 0 || typeof message.content === "string") return message;
  const kept: ContentPart[] = message.content.slice(0, Math.max(0, message.content.length - count));
  return { ...message, content: kept };
}
