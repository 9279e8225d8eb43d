import type { Message, TextPart } from "../messages.js";

/**
 * The texts `buildContext` attached to `after`, compared with the message it was built from: the
 * engine appends text parts and keeps everything else, and returns the same object when it attached nothing.
 */
export function appendedTexts(before: Message, after: Message): string[] {
  if (before === after || typeof after.content === "string") return [];
  const kept = typeof before.content === "string" ? 1 : before.content.length;
  return after.content
    .slice(kept)
    .filter((part): part is TextPart => part.type === "text" && typeof (part as TextPart).text === "string")
    .map((part) => part.text);
}

/** `text` with the attached texts after it, separated by blank lines. */
export function withTexts(text: string, texts: readonly string[]): string {
  return texts.length === 0 ? text : [text, ...texts].join("\n\n");
}
