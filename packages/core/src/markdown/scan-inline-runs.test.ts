import { describe, expect, test } from "vitest";
import { codeRegions } from "./code-regions.js";
import { scanInline } from "./scan-inline.js";
import type { InlineToken } from "./scan-inline.js";
import type { ProseSegment } from "./text-range.js";

// Code spans as CommonMark 0.31.2 §6.1 defines them (https://spec.commonmark.org/0.31.2/#code-spans): a run of
// N backticks closes at the next run of exactly N. These tests reach the run index's two ways of finding that
// closer (a direct search up to 32 runs in a segment, grouped by length above) and its growth past 64 runs.

function spans(text: string, segments: ProseSegment[] = [{ start: 0, end: text.length }]): string[] {
  const found: InlineToken[] = [];
  scanInline(text, segments, (t) => found.push(t));
  return found.map((t) => (t.kind === "code" ? `${text.slice(t.start, t.end)} ${t.bang}` : text.slice(t.start, t.end)));
}

describe("a segment of many backtick runs", () => {
  // 8 runs: 1, 1, 2, 2, 3, 1, 1, 3; the runs inside the third span are skipped when the next `c` span is sought.
  const unit = "`a` ``b`` ``` `c` ``` ";
  const expected = ["`a` none", "``b`` none", "``` `c` ``` none"];

  test("ten units (80 runs): every span found, in order", () => {
    const text = unit.repeat(10);
    expect(spans(text)).toEqual(Array.from({ length: 10 }, () => expected).flat());
  });

  test("an unmatched run after them stays text, and so does a run whose length no other run has", () => {
    // "\`" escapes one backtick of the eight, leaving an opener of 7: no run of 7 exists.
    const text = `${unit.repeat(6)}\`\` tail \\\`\`\`\`\`\`\`\` end !\`z\``;
    expect(spans(text)).toEqual([...Array.from({ length: 6 }, () => expected).flat(), "`z` live"]);
  });

  test("five units (40 runs) and four units (32 runs) give the same spans as one", () => {
    for (const count of [4, 5]) {
      expect(spans(unit.repeat(count))).toEqual(Array.from({ length: count }, () => expected).flat());
    }
  });

  test("the index is rebuilt for each segment: a long segment's runs are not seen from the next", () => {
    // The quoted paragraph has a gap (its second "> "), so it is scanned as a copy whose offsets start at 0.
    const text = "x `a` `b` `c`\n\n> `d\n> e";
    expect(codeRegions(text).map((r) => text.slice(r.start, r.end))).toEqual(["`a`", "`b`", "`c`"]);
    const many = `${unit.repeat(5)}\n\n> \`x\`\` y\n> z`;
    expect(codeRegions(many).map((r) => many.slice(r.start, r.end))).toEqual([
      ...Array.from({ length: 5 }, () => ["`a`", "``b``", "``` `c` ```"]).flat(),
    ]);
  });
});

describe("the segment's bounds", () => {
  test("a closer is sought, and measured, inside the segment only", () => {
    expect(spans("`a``", [{ start: 0, end: 3 }])).toEqual(["`a` none"]);
    expect(spans("`a` `b`", [{ start: 0, end: 4 }])).toEqual(["`a` none"]);
    expect(spans("`a` `b`", [{ start: 0, end: 6 }])).toEqual(["`a` none"]);
  });

  test("a ! before the segment is not the span's", () => {
    expect(spans("!`a`", [{ start: 1, end: 4 }])).toEqual(["`a` none"]);
    expect(spans("!`a`", [{ start: 0, end: 4 }])).toEqual(["`a` live"]);
  });
});
