/** A half-open range `[start, end)` of character offsets. */
export interface Range {
  start: number;
  end: number;
}

/**
 * The parts of a markdown text that are code: fenced blocks (``` or ~~~, up to three spaces of
 * indent; an unclosed fence runs to the end) and inline code spans (a backtick run closed by a run
 * of the same length). Sorted, non-overlapping.
 */
export function codeRegions(text: string): Range[] {
  const regions: Range[] = [];
  let offset = 0;
  let fence: { char: string; length: number; start: number } | undefined;
  let proseStart = 0;

  while (offset <= text.length) {
    const newline = text.indexOf("\n", offset);
    const end = newline < 0 ? text.length : newline + 1;
    const line = text.slice(offset, end);
    const marker = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line.replace(/\r?\n$/, ""));
    if (fence === undefined) {
      // A backtick fence's info string may not hold a backtick (CommonMark).
      if (marker?.[1] !== undefined && !(marker[1][0] === "`" && (marker[2] ?? "").includes("`"))) {
        regions.push(...inlineSpans(text, proseStart, offset));
        fence = { char: marker[1][0] ?? "`", length: marker[1].length, start: offset };
      }
    } else if (
      marker?.[1] !== undefined &&
      marker[1][0] === fence.char &&
      marker[1].length >= fence.length &&
      (marker[2] ?? "").trim() === ""
    ) {
      regions.push({ start: fence.start, end });
      fence = undefined;
      proseStart = end;
    }
    if (newline < 0) break;
    offset = end;
  }
  if (fence !== undefined) regions.push({ start: fence.start, end: text.length });
  else regions.push(...inlineSpans(text, proseStart, text.length));
  return regions;
}

/** Whether `offset` lies in one of the sorted `regions`. */
export function inRegions(regions: readonly Range[], offset: number): boolean {
  let low = 0;
  let high = regions.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const r = regions[mid];
    if (r === undefined) break;
    if (offset < r.start) high = mid - 1;
    else if (offset >= r.end) low = mid + 1;
    else return true;
  }
  return false;
}

// Inline code spans in the prose text[from, to), paragraph by paragraph (a span never crosses a blank line).
function inlineSpans(text: string, from: number, to: number): Range[] {
  const spans: Range[] = [];
  const blank = /\n[ \t]*\r?\n/g;
  blank.lastIndex = from;
  let start = from;
  for (let m = blank.exec(text); m !== null && m.index < to; m = blank.exec(text)) {
    spans.push(...paragraphSpans(text, start, m.index + 1));
    start = m.index + 1;
    blank.lastIndex = start;
  }
  spans.push(...paragraphSpans(text, start, to));
  return spans;
}

// A run of n backticks up to the next run of exactly n, within text[from, to).
function paragraphSpans(text: string, from: number, to: number): Range[] {
  const spans: Range[] = [];
  const runs: Array<{ at: number; length: number }> = [];
  const pattern = /`+/g;
  pattern.lastIndex = from;
  for (let m = pattern.exec(text); m !== null && m.index < to; m = pattern.exec(text)) {
    // A backslash-escaped backtick does not open a span.
    if (m.index > 0 && text[m.index - 1] === "\\" && m[0].length === 1) continue;
    runs.push({ at: m.index, length: Math.min(m[0].length, to - m.index) });
  }
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i];
    if (open === undefined) continue;
    const closeIndex = runs.findIndex((run, j) => j > i && run.length === open.length);
    if (closeIndex < 0) continue;
    const close = runs[closeIndex];
    if (close === undefined) continue;
    spans.push({ start: open.at, end: close.at + close.length });
    i = closeIndex;
  }
  return spans;
}
