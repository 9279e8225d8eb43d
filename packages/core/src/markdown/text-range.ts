/** A half-open range `[start, end)` of UTF-16 offsets into a text. */
export interface TextRange {
  /** Offset of the first character. */
  start: number;
  /** Offset just past the last character. */
  end: number;
}

/** A stretch of prose: one paragraph or heading, where inline syntax (code spans, `` !`cmd` ``) is live. */
export interface ProseSegment extends TextRange {
  /**
   * Block-quote markers at the start of the paragraph's later lines (`> ` of `> b` in `> a\n> b`): not part
   * of the paragraph's content, so inline syntax reads them as spaces. Absent when there are none.
   */
  gaps?: TextRange[];
}

/**
 * Whether `offset` lies in one of `regions` (sorted, disjoint, as {@link codeRegions} returns them).
 * Binary search: O(log n).
 */
export function inCode(regions: readonly TextRange[], offset: number): boolean {
  let low = 0;
  let high = regions.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const region = regions[mid] as TextRange;
    if (offset < region.start) high = mid - 1;
    else if (offset >= region.end) low = mid + 1;
    else return true;
  }
  return false;
}
