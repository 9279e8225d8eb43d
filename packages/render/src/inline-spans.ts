import type { ProseSegment } from "./markdown-blocks.js";

/** A `` !`cmd` `` to run, or a `` \!`cmd` `` to print literally; offsets into the whole text. */
export type InlineSpan =
  | { kind: "command"; start: number; end: number; command: string }
  | { kind: "escape"; start: number; end: number; literal: string };

const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const LESS_THAN = 0x3c;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * Finds command and escape spans in one prose segment, appending them to `out` in order.
 *
 * Follows CommonMark code spans: a run of N backticks opens a span that closes at the next run of exactly N
 * (backslashes do not escape inside it); a backslash-escaped backtick opens nothing. A command is a code span
 * of single backticks right after an unescaped `!`; an inline HTML comment hides what it contains.
 * Runs in time linear in the segment: each closer search only moves forward.
 */
export function scanInline(text: string, segment: ProseSegment, out: InlineSpan[]): void {
  const closers = new CloserIndex(text, segment);
  const { end } = segment;
  let escapedBang = -1;
  let commentSearchFailed = false;
  let i = segment.start;
  while (i < end) {
    const code = text.charCodeAt(i);
    if (code === BACKSLASH && i + 1 < end) {
      const next = text[i + 1] ?? "";
      if (next === "!" && text.charCodeAt(i + 2) === BACKTICK && i + 2 < end) {
        const close = commandCloser(text, i + 2, end, closers);
        if (close !== -1) {
          out.push({ kind: "escape", start: i, end: close + 1, literal: text.slice(i + 1, close + 1) });
          i = close + 1;
          continue;
        }
        escapedBang = i + 1;
        i += 2;
        continue;
      }
      i += ASCII_PUNCTUATION.test(next) ? 2 : 1;
      continue;
    }
    if (code === BACKTICK) {
      const length = runLength(text, i, end);
      const close = closers.next(i + length, length);
      if (close === -1) {
        i += length;
        continue;
      }
      const bang = i - 1;
      if (length === 1 && bang >= segment.start && text[bang] === "!" && bang !== escapedBang) {
        const command = text.slice(i + 1, close);
        if (command.trim() !== "") out.push({ kind: "command", start: bang, end: close + 1, command: command.replace(/\r\n/g, "\n") });
      }
      i = close + length;
      continue;
    }
    if (code === LESS_THAN && !commentSearchFailed && text.startsWith("<!--", i)) {
      const close = text.indexOf("-->", i + 4);
      if (close !== -1 && close + 3 <= end) {
        i = close + 3;
        continue;
      }
      commentSearchFailed = true; // no later comment in this segment can close either
    }
    i++;
  }
}

/** End offset of a single-backtick span opened at `tick` with non-blank text, or -1. */
function commandCloser(text: string, tick: number, end: number, closers: CloserIndex): number {
  if (runLength(text, tick, end) !== 1) return -1;
  const close = closers.next(tick + 1, 1);
  return close !== -1 && text.slice(tick + 1, close).trim() !== "" ? close : -1;
}

function runLength(text: string, from: number, end: number): number {
  let i = from;
  while (i < end && text.charCodeAt(i) === BACKTICK) i++;
  return i - from;
}

/** Positions of the maximal backtick runs of a segment, by length, each list read with a forward-only cursor. */
class CloserIndex {
  readonly #runs = new Map<number, { positions: number[]; cursor: number }>();

  constructor(text: string, segment: ProseSegment) {
    let i = segment.start;
    while (i < segment.end) {
      if (text.charCodeAt(i) !== BACKTICK) {
        i++;
        continue;
      }
      const length = runLength(text, i, segment.end);
      let entry = this.#runs.get(length);
      if (entry === undefined) {
        entry = { positions: [], cursor: 0 };
        this.#runs.set(length, entry);
      }
      entry.positions.push(i);
      i += length;
    }
  }

  /** Start of the first run of exactly `length` backticks at or after `from`, or -1. */
  next(from: number, length: number): number {
    const entry = this.#runs.get(length);
    if (entry === undefined) return -1;
    while (entry.cursor < entry.positions.length && (entry.positions[entry.cursor] ?? 0) < from) entry.cursor++;
    return entry.positions[entry.cursor] ?? -1;
  }
}
