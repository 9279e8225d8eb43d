import { scanBlocks } from "./scan-blocks.js";
import { scanInline } from "./scan-inline.js";
import type { ProseSegment, TextRange } from "./text-range.js";

/**
 * Splits markdown into the stretches of prose where inline syntax (code spans, `` !`cmd` ``) is live:
 * each paragraph and heading, outside every code block and HTML block. See {@link scanBlocks}.
 */
export function proseSegments(text: string): ProseSegment[] {
  return scanBlocks(text).prose;
}

/**
 * The parts of a markdown text that are not prose, sorted and disjoint: fenced and indented code
 * blocks, HTML blocks (comments included), and within prose, code spans, raw inline HTML and autolinks.
 * What `` !`cmd` `` detection skips is exactly what this returns (both read the same scanner), so a
 * mention such as a CLAUDE.md `@import` inside any of these is code, not an instruction.
 * Linear in the input; test an offset with {@link inCode}.
 *
 * @example
 * const regions = codeRegions("See @a.md\n\n    @b.md\n");
 * inCode(regions, 4); // false: prose
 * inCode(regions, 15); // true: an indented code block
 */
export function codeRegions(text: string): TextRange[] {
  const { prose, code: blocks } = scanBlocks(text);
  const inline: TextRange[] = [];
  scanInline(text, prose, (token) => inline.push(token));
  if (blocks.length === 0) return inline;
  if (inline.length === 0) return blocks;
  // Merge two sorted, disjoint lists (block regions never overlap a prose segment).
  const merged: TextRange[] = [];
  let b = 0;
  for (const range of inline) {
    while (b < blocks.length && (blocks[b] as TextRange).start < range.start) merged.push(blocks[b++] as TextRange);
    merged.push(range);
  }
  while (b < blocks.length) merged.push(blocks[b++] as TextRange);
  return merged;
}
