import { headUtf8BytesAtLine } from "./text/cut-text.js";

/** What {@link capTextUtf8Bytes} returns. */
export interface CappedText {
  /** The text, or its head followed by the note; at most `maxBytes` bytes when `maxBytes` leaves room for the note. */
  text: string;
  /** Whether the text was cut. */
  cut: boolean;
  /** UTF-8 bytes of the whole text. */
  size: number;
  /** UTF-8 bytes of the head that was kept (the whole text when not cut). */
  kept: number;
}

/**
 * The one capper of text that reaches the model (on core's cutter, text/cut-text.ts): cuts `text` to at most `maxBytes` UTF-8 bytes, note
 * included. The head is kept, ending at a line break when one is in its second half and never inside
 * a character, then a line with `note(kept, size)`. Past counting the text's bytes, the cost is in
 * proportion to `maxBytes`, not to the text.
 */
export function capTextUtf8Bytes(
  text: string,
  maxBytes: number,
  note: (keptBytes: number, size: number) => string,
): CappedText {
  // Every UTF-16 unit is 1 to 3 UTF-8 bytes: short texts need no count.
  if (text.length * 3 <= maxBytes)
    return { text, cut: false, size: Buffer.byteLength(text), kept: Buffer.byteLength(text) };
  const size = Buffer.byteLength(text);
  if (size <= maxBytes) return { text, cut: false, size, kept: size };
  const room = Math.max(0, maxBytes - Buffer.byteLength(note(size, size)) - 2);
  // Whole lines when a line break is in the head's second half; the cost is in proportion to `room`.
  const head = headUtf8BytesAtLine(text, room, 0.5);
  const kept = Buffer.byteLength(head);
  const separator = head === "" || head.endsWith("\n") ? "" : "\n";
  return { text: `${head}${separator}${note(kept, size)}`, cut: true, size, kept };
}
