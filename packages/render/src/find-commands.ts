import { scanInline } from "./inline-spans.js";
import type { InlineSpan } from "./inline-spans.js";
import { proseSegments } from "./markdown-blocks.js";

/** One `` !`cmd` `` found outside code. */
export interface CommandSpan {
  /** Offset of the `!`. */
  start: number;
  /** Offset just past the closing backtick. */
  end: number;
  /** The text between the backticks, as the shell will get it (CRLF line breaks become LF). */
  command: string;
  /** 1-based line of the `!`. */
  line: number;
}

/**
 * Finds the `` !`cmd` `` spans that {@link renderCommands} would run, in document order.
 *
 * Nothing inside fenced code blocks (``` or ~~~, any length of three or more), indented code blocks,
 * inline code spans or HTML comments counts; `` \!`cmd` `` is an escape, not a command; `` !`` `` (empty) is
 * left alone. A command may span lines within one paragraph.
 *
 * @example
 * findCommands("Branch: !`git branch --show-current`\n\n```\n!`not run`\n```")
 * // → [{ start: 8, end: 36, command: "git branch --show-current", line: 1 }]
 */
export function findCommands(text: string): CommandSpan[] {
  const lines = new LineCounter(text);
  const commands: CommandSpan[] = [];
  for (const span of scanSpans(text)) {
    if (span.kind === "command") {
      commands.push({ start: span.start, end: span.end, command: span.command, line: lines.lineAt(span.start) });
    }
  }
  return commands;
}

/** Every command and escape span of the text, in document order. */
export function scanSpans(text: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  if (!text.includes("!`")) return spans;
  for (const segment of proseSegments(text)) scanInline(text, segment, spans);
  return spans;
}

/** Maps offsets to 1-based line numbers; offsets must be asked for in increasing order. */
export class LineCounter {
  #offset = 0;
  #line = 1;

  constructor(private readonly text: string) {}

  lineAt(offset: number): number {
    for (let i = this.text.indexOf("\n", this.#offset); i !== -1 && i < offset; i = this.text.indexOf("\n", i + 1)) {
      this.#line++;
    }
    this.#offset = Math.max(this.#offset, offset);
    return this.#line;
  }
}
