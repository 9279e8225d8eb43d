/** A range of the text where inline syntax (code spans, `` !`cmd` ``) is live: outside every code block. */
export interface ProseSegment {
  /** Offset of the segment's first character. */
  start: number;
  /** Offset just past its last character (a segment never includes its final line break). */
  end: number;
}

interface OpenFence {
  char: "`" | "~";
  length: number;
  /** The shortest closing run, e.g. "~~~~". */
  marker: string;
  quoteDepth: number;
  maxCloseIndent: number;
}

interface LineShape {
  blank: boolean;
  quoteDepth: number;
  /** Columns of indentation after the blockquote markers (tabs stop every 4 columns). */
  indent: number;
  /** The line from its first non-blank character after the blockquote markers. */
  rest: string;
}

/**
 * Splits markdown into the stretches of prose where inline code spans and commands are parsed, leaving out
 * fenced code blocks (``` and ~~~, closed only by the same character at least as long; an unclosed fence runs to
 * the end), indented code blocks (relative to the enclosing list item), and HTML comment blocks.
 *
 * A segment is one paragraph-like run of lines: a blank line, a heading, a new list item or any block
 * boundary starts a new one, so an inline span never crosses from one block into the next.
 */
export function proseSegments(text: string): ProseSegment[] {
  const segments: ProseSegment[] = [];
  const lists: number[] = []; // content columns of the open list items, innermost last
  let fence: OpenFence | undefined;
  let inComment = false;
  let indentedBase: number | undefined; // set while inside an indented code block
  let paragraph = false;
  let current: ProseSegment | undefined;

  const flush = (): void => {
    if (current !== undefined) segments.push(current);
    current = undefined;
  };
  const addProse = (start: number, end: number, startsBlock: boolean): void => {
    if (startsBlock) flush();
    if (current === undefined) current = { start, end };
    else current.end = end;
  };

  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const raw = text.slice(lineStart, lineEnd);
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const from = lineStart;
    lineStart = lineEnd + 1;

    if (fence !== undefined) {
      if (!line.includes(fence.marker)) continue; // fast path: cannot be a closing fence
      const shape = lineShape(line, fence.quoteDepth);
      if (shape.quoteDepth === fence.quoteDepth && shape.indent <= fence.maxCloseIndent && closesFence(shape.rest, fence)) {
        fence = undefined;
      }
      continue;
    }
    if (inComment) {
      if (line.includes("-->")) inComment = false;
      continue;
    }

    const shape = lineShape(line, Number.POSITIVE_INFINITY);
    if (shape.blank) {
      paragraph = false;
      flush();
      continue;
    }

    let depth = lists.length;
    while (depth > 0 && (lists[depth - 1] ?? 0) > shape.indent) depth--;
    const base = depth > 0 ? (lists[depth - 1] ?? 0) : 0;

    if (indentedBase !== undefined) {
      if (shape.indent - indentedBase >= 4) continue;
      indentedBase = undefined;
    }

    if (shape.indent - base >= 4) {
      if (paragraph) {
        addProse(from, lineEnd, false); // an indented line cannot interrupt a paragraph
      } else {
        lists.length = depth;
        indentedBase = base;
        flush();
      }
      continue;
    }

    const opener = fenceOpener(shape.rest);
    if (opener !== undefined) {
      lists.length = depth;
      fence = { ...opener, quoteDepth: shape.quoteDepth, maxCloseIndent: base + 3 };
      paragraph = false;
      flush();
      continue;
    }
    if (shape.rest.startsWith("<!--")) {
      lists.length = depth;
      inComment = !shape.rest.includes("-->", 4);
      paragraph = false;
      flush();
      continue;
    }
    if (shape.rest[0] === "#" && /^#{1,6}(?:[ \t]|$)/.test(shape.rest)) {
      lists.length = depth;
      paragraph = false;
      addProse(from, lineEnd, true);
      flush();
      continue;
    }

    const marker = LIST_START.test(shape.rest[0] ?? "") ? /^(?:[-+*]|\d{1,9}[.)])(?=[ \t]|$)/.exec(shape.rest) : null;
    if (marker !== null) {
      lists.length = depth;
      const afterMarker = shape.rest.slice(marker[0].length);
      const gap = columnsOfLeadingSpace(afterMarker, shape.indent + marker[0].length);
      const content = shape.indent + marker[0].length + (gap === 0 || gap > 4 ? 1 : gap);
      lists.push(content);
      const itemOpener = fenceOpener(afterMarker.trimStart());
      if (itemOpener !== undefined) {
        fence = { ...itemOpener, quoteDepth: shape.quoteDepth, maxCloseIndent: content + 3 };
        paragraph = false;
        flush();
        continue;
      }
      paragraph = true;
      addProse(from, lineEnd, true);
      continue;
    }

    // Plain text: a lazy continuation keeps the open list items; a new paragraph closes the deeper ones.
    if (!paragraph) lists.length = depth;
    addProse(from, lineEnd, !paragraph);
    paragraph = true;
  }
  flush();
  return segments;
}

const LIST_START = /[-+*0-9]/;

/** Reads blockquote markers (at most `maxQuotes`) and the indentation after them. */
function lineShape(line: string, maxQuotes: number): LineShape {
  let index = 0;
  let column = 0;
  let quoteDepth = 0;
  while (quoteDepth < maxQuotes) {
    let probe = index;
    while (probe < line.length && probe - index < 3 && line[probe] === " ") probe++;
    if (line[probe] !== ">") break;
    quoteDepth++;
    index = probe + 1;
    if (line[index] === " " || line[index] === "\t") index++;
    column = 0;
  }
  while (index < line.length && (line[index] === " " || line[index] === "\t")) {
    column = line[index] === "\t" ? column + 4 - (column % 4) : column + 1;
    index++;
  }
  const rest = line.slice(index);
  return { blank: rest.trim() === "", quoteDepth, indent: column, rest };
}

function columnsOfLeadingSpace(text: string, startColumn: number): number {
  let column = startColumn;
  for (const char of text) {
    if (char === " ") column++;
    else if (char === "\t") column += 4 - (column % 4);
    else break;
  }
  return column - startColumn;
}

function fenceOpener(rest: string): { char: "`" | "~"; length: number; marker: string } | undefined {
  if (rest[0] !== "`" && rest[0] !== "~") return undefined;
  const match = /^(`{3,}|~{3,})(.*)$/.exec(rest);
  if (match === null) return undefined;
  const run = match[1] ?? "";
  const char = run[0] === "~" ? "~" : "`";
  // CommonMark: a backtick fence's info string has no backticks; such a line is inline code instead.
  if (char === "`" && (match[2] ?? "").includes("`")) return undefined;
  return { char, length: run.length, marker: run };
}

function closesFence(rest: string, fence: OpenFence): boolean {
  const match = /^(`{3,}|~{3,})[ \t]*$/.exec(rest);
  const run = match?.[1];
  return run !== undefined && run[0] === fence.char && run.length >= fence.length;
}
