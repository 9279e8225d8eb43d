import { z } from "zod";

/** A text part of a message. Other part types (images, files, ...) pass through untouched. */
export const TextPartSchema = z.object({ type: z.literal("text"), text: z.string() });
export const ContentPartSchema = z.union([TextPartSchema, z.looseObject({ type: z.string() })]);

export const ToolCallSchema = z.object({ id: z.string(), name: z.string(), args: z.unknown() });

/** One message of the conversation, in skillctx's neutral shape (adapters convert to and from others). */
export const MessageSchema = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.union([z.string(), z.array(ContentPartSchema)]),
  toolCalls: z.array(ToolCallSchema).optional(),
  toolCallId: z.string().optional(),
});

export type TextPart = z.infer<typeof TextPartSchema>;
export type ContentPart = z.infer<typeof ContentPartSchema>;
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type Message = z.infer<typeof MessageSchema>;

/** The text of a message: the string content, or its text parts joined by a newline. */
export function messageText(message: Message): string {
  if (typeof message.content === "string") return message.content;
  let text = "";
  let first = true;
  for (const part of message.content) {
    if (part.type !== "text" || typeof (part as TextPart).text !== "string") continue;
    text += first ? (part as TextPart).text : `\n${(part as TextPart).text}`;
    first = false;
  }
  return text;
}

/** A copy of `message` with `texts` appended as extra text parts; the original is left untouched. */
export function withAppendedText(message: Message, texts: readonly string[]): Message {
  const parts: ContentPart[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content];
  for (const text of texts) parts.push({ type: "text", text });
  return { ...message, content: parts };
}
