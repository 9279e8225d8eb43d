/**
 * Caps a text that reaches the model at a number of UTF-8 bytes, with a visible note. A leaf module
 * shared by the engine and the tools.
 */
import { diagnostic } from "@skillctx/core";
import { capUtf8 } from "@skillctx/process";
import type { Diagnostic, Skill } from "@skillctx/core";

/** What {@link capText} returns. */
export interface CappedText {
  /** The text, or its head followed by the note; at most `maxBytes` bytes when `maxBytes` leaves room for the note. */
  text: string;
  /** Whether the text was cut. */
  cut: boolean;
  /** UTF-8 bytes of the whole text. */
  size: number;
}

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes, note included: the head is kept (ending at a line
 * break when one is in its second half, never inside a character: `capUtf8` of the process layer),
 * then a line with `note(kept, size)`. Past counting the text's bytes, the cost is in proportion to
 * `maxBytes`, not to the text.
 */
export function capText(text: string, maxBytes: number, note: (keptBytes: number, size: number) => string): CappedText {
  // Every UTF-16 unit is 1 to 3 UTF-8 bytes: short texts need no count.
  if (text.length * 3 <= maxBytes) return { text, cut: false, size: Buffer.byteLength(text) };
  const size = Buffer.byteLength(text);
  if (size <= maxBytes) return { text, cut: false, size };
  const room = Math.max(0, maxBytes - Buffer.byteLength(note(size, size)) - 2);
  // The first `room` units hold at least `room` bytes; a dangling high surrogate is left out.
  let prefix = text.slice(0, room);
  if (/[\uD800-\uDBFF]$/.test(prefix)) prefix = prefix.slice(0, -1);
  let head = capUtf8(prefix, room).text;
  const newline = head.lastIndexOf("\n");
  if (newline >= 0 && newline + 1 >= head.length / 2) head = head.slice(0, newline + 1);
  const separator = head === "" || head.endsWith("\n") ? "" : "\n";
  return { text: `${head}${separator}${note(Buffer.byteLength(head), size)}`, cut: true, size };
}

/**
 * A skill body capped at `maxBytes` for the model (attached by a trigger, or returned by `load_skill`):
 * the text with its note, and a `SKILL_BODY_CUT` warning naming `option` when it was cut.
 */
export function capSkillBody(
  skill: Pick<Skill, "name" | "source">,
  body: string,
  maxBytes: number,
  option: string,
): { text: string; diagnostic?: Diagnostic } {
  const capped = capText(body, maxBytes, (kept, size) => `[skillctx: the skill "${skill.name}" is cut here: ${kept} of its ${size} bytes are shown (limit ${maxBytes}).]`);
  if (!capped.cut) return { text: capped.text };
  return {
    text: capped.text,
    diagnostic: diagnostic("SKILL_BODY_CUT", "warning", `the body of "${skill.name}" (${capped.size} bytes) is over ${option} (${maxBytes}); only its first part reaches the model`, {
      path: skill.source.path,
    }),
  };
}
