import { proseSegments, scanInline } from "@skillctx/core/internal";

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

/** A `` !`cmd` `` to run, or a `` \!`cmd` `` to print literally (as `` !`cmd` ``); offsets into the whole text. */
export type InlineSpan =
  | { kind: "command"; start: number; end: number; command: string }
  | { kind: "escape"; start: number; end: number };

/**
 * Finds the `` !`cmd` `` spans that {@link renderCommands} would run, in document order.
 *
 * A command is a code span of single backticks right after an unescaped `!`, read with the one CommonMark
 * scanner of `@skillctx/core` (the same one that decides which CLAUDE.md `@imports` are code). Nothing inside
 * fenced code blocks (``` or ~~~), indented code blocks, HTML blocks and comments, other code spans, raw inline
 * HTML or autolinks counts; `` \!`cmd` `` is an escape, not a command; `` !`` `` (empty) is left alone. A
 * command may span lines within one paragraph.
 *
 * @example
 * findCommands("Branch: !`git branch --show-current`\n\n```\n!`not run`\n```")
 * // → [{ start: 8, end: 36, command: "git branch --show-current", line: 1 }]
 */
export function findCommands(text: string): CommandSpan[] {
  const lines = new LineCounter(text);
  const commands: CommandSpan[] = [];
  visitSpans(text, (span) => {
    if (span.kind === "command")
      commands.push({ start: span.start, end: span.end, command: span.command, line: lines.lineAt(span.start) });
  });
  return commands;
}

/** Calls `visit` with every command and escape span of the text, in document order. Linear in the text. */
export function visitSpans(text: string, visit: (span: InlineSpan) => void): void {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a speed shortcut; every command or escape span holds "!`", so a text without it has none for the scan to find either
  if (!text.includes("!`")) return;
  scanInline(text, proseSegments(text), (token) => {
    if (token.kind !== "code" || token.ticks !== 1 || token.bang === "none") return;
    const inner = text.slice(token.start + 1, token.end - 1);
    if (inner.trim() === "") return;
    if (token.bang === "live")
      visit({ kind: "command", start: token.start - 1, end: token.end, command: inner.replace(/\r\n/g, "\n") });
    else visit({ kind: "escape", start: token.start - 2, end: token.end });
  });
}

/** Maps offsets to 1-based line numbers; offsets must be asked for in increasing order. Linear over all calls. */
export class LineCounter {
  #line = 1;
  /** The first line break not yet counted, or -1 when there is none left. */
  #next: number;

  constructor(private readonly text: string) {
    this.#next = text.indexOf("\n");
  }

  lineAt(offset: number): number {
    while (this.#next !== -1 && this.#next < offset) {
      this.#line++;
      this.#next = this.text.indexOf("\n", this.#next + 1);
    }
    return this.#line;
  }
}
