import { lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";

/** The message schemas, built on the first call (zod loads then; importing skillctx does not load it). Also exported by `skillctx/schemas`. */
export const messageSchemas = lazySchemas((z) => {
  /** A text part of a message. Other part types (images, files, ...) pass through untouched. */
  const TextPartSchema = z.object({ type: z.literal("text"), text: z.string() });
  const ContentPartSchema = z.union([TextPartSchema, z.looseObject({ type: z.string() })]);

  const ToolCallSchema = z.object({ id: z.string(), name: z.string(), args: z.unknown() });

  /** One message of the conversation, in skillctx's neutral shape (adapters convert to and from others). */
  const MessageSchema = z.object({
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.union([z.string(), z.array(ContentPartSchema)]),
    toolCalls: z.array(ToolCallSchema).optional(),
    toolCallId: z.string().optional(),
  });

  return { TextPartSchema, ContentPartSchema, ToolCallSchema, MessageSchema };
});

type Schemas = ReturnType<typeof messageSchemas>;

type ContentPartOutput = z.infer<Schemas["ContentPartSchema"]>;

// Interfaces over the inferred types, so that TypeDoc, editors and the API report name them where they are
// used (docs/decisions.md, "Named types").

/** A text part of a message. */
export interface TextPart extends z.infer<Schemas["TextPartSchema"]> {}
/** A part of another type (an image, a file, ...): passed through untouched. */
export interface OtherPart extends Exclude<ContentPartOutput, z.infer<Schemas["TextPartSchema"]>> {}
/** A part of a message's content. */
export type ContentPart = TextPart | OtherPart;
/** A tool call of an assistant message. */
export interface ToolCall extends z.infer<Schemas["ToolCallSchema"]> {}
/** One message of the conversation, in skillctx's neutral shape (adapters convert to and from others). */
export interface Message extends z.infer<Schemas["MessageSchema"]> {
  content: string | ContentPart[];
  toolCalls?: ToolCall[] | undefined;
}

// The named union is the schema's, member for member: the assignment fails to compile when they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const partsMatch: Same<ContentPart, ContentPartOutput> = true;
void partsMatch;

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
