/**
 * Help text laid out for a terminal: paragraphs wrapped at word boundaries to a width, and two-column
 * lists (a label, then text with a hanging indent). Only for help, whose text is ours; nothing here is
 * cut (a word longer than the line stays whole). Builtins only: help loads nothing else.
 */

/** Width help wraps to when stdout is not a terminal (a pipe, a file, a test). */
export const DEFAULT_HELP_COLUMNS = 80;
/** Narrowest width help wraps to, however narrow the terminal says it is. */
export const MIN_HELP_COLUMNS = 40;

/** The width to lay help out in: the terminal's columns when known, else {@link DEFAULT_HELP_COLUMNS}. */
export function helpWidth(columns: number | undefined): number {
  if (columns === undefined || !Number.isFinite(columns) || columns <= 0) return DEFAULT_HELP_COLUMNS;
  return Math.max(MIN_HELP_COLUMNS, Math.floor(columns));
}

/** `text` wrapped to `width`: the first line after `first`, the others after `rest` (indents). */
export function wrap(text: string, width: number, first = "", rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  // The line's length in code points, kept as it grows (measuring the whole line at each word made
  // `skillctx list` on 1,000 skills spend about as long wrapping descriptions as scanning the skills).
  let length = codePoints(first);
  const restLength = codePoints(rest);
  let empty = true;
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    const wordLength = codePoints(word);
    if (!empty && length + 1 + wordLength > width) {
      lines.push(line);
      line = rest + word;
      length = restLength + wordLength;
    } else {
      line += (empty ? "" : " ") + word;
      length += (empty ? 0 : 1) + wordLength;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

// Code points of `text` (what `[...text].length` counts), without building the array for ASCII text.
function codePoints(text: string): number {
  let surrogates = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) surrogates++;
    }
  }
  return text.length - surrogates;
}

/**
 * Rows of `label  text`: labels padded to one column, texts wrapped beside them with a hanging indent.
 * When the label column would leave the text less than half the width, each text goes under its label.
 */
export function twoColumns(rows: ReadonlyArray<readonly [string, string]>, width: number, indent = "  "): string[] {
  const labelWidth = Math.max(...rows.map(([label]) => [...label].length));
  const textAt = indent.length + labelWidth + 2;
  const beside = width - textAt >= width / 2;
  const lines: string[] = [];
  for (const [label, text] of rows) {
    if (beside) {
      lines.push(...wrap(text, width, `${indent}${label.padEnd(labelWidth)}  `, " ".repeat(textAt)));
    } else {
      lines.push(`${indent}${label}`);
      lines.push(...wrap(text, width, `${indent}    `));
    }
  }
  return lines;
}
