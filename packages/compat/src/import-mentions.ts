import { codeRegions, inCode } from "@skillctx/core/internal";

/** One `@path` mention of a CLAUDE.md text that is not code. */
export interface ImportMention {
  /** Offset of the `@`. */
  at: number;
  /** The path as written (`\ ` still escaped), without the `@`. */
  written: string;
  /** 1-based line. */
  line: number;
  /** Offset just past the mention's line (after its line break, or the end of the text). */
  lineEnd: number;
  /** The line holds nothing but `@` mentions (a missing file then deserves a warning). */
  standalone: boolean;
}

// `@path` at the start of a line or after whitespace; `\ ` keeps a space in the path (Claude Code syntax).
const IMPORT = /(^|[ \t])@((?:[^\s\\]|\\ )+)/gm;

/**
 * The `@path` mentions of a CLAUDE.md text, in order, leaving out every mention inside code as the one
 * markdown scanner of `@skillctx/core` reads it (`codeRegions`): fenced and indented code, code spans,
 * HTML blocks and comments, raw inline HTML. The same scanner decides what `` !`cmd` `` rendering skips.
 * Linear in the text.
 */
export function importMentions(text: string): ImportMention[] {
  if (!text.includes("@")) return [];
  const code = codeRegions(text);
  const mentions: ImportMention[] = [];
  let line = 1;
  let lineStart = 0;
  let lineEnd = -1;
  let standalone = false;
  for (const match of text.matchAll(IMPORT)) {
    const at = (match.index ?? 0) + (match[1]?.length ?? 0);
    if (at >= lineEnd) {
      // Move to the mention's line (counting the lines skipped), then judge that line once.
      for (let i = text.indexOf("\n", lineStart); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) {
        line++;
        lineStart = i + 1;
      }
      const newline = text.indexOf("\n", lineStart);
      lineEnd = newline === -1 ? text.length : newline + 1;
      const content = text.slice(lineStart, lineEnd);
      standalone =
        /^[ \t]*@\S/.test(content) &&
        content
          .trim()
          .split(/(?<!\\)\s+/)
          .every((word) => word.startsWith("@"));
    }
    if (inCode(code, at)) continue;
    mentions.push({ at, written: match[2] ?? "", line, lineEnd, standalone });
  }
  return mentions;
}
