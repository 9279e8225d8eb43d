import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wrap } from "./wrap.js";

// The rule as first written: each word goes on the line while the line, measured in code points, stays within the width.
function wrapByMeasure(text: string, width: number, first = "", rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (!empty && [...line].length + 1 + [...word].length > width) {
      lines.push(line);
      line = rest + word;
    } else {
      line += (empty ? "" : " ") + word;
    }
    empty = false;
  }
  lines.push(line);
  return lines;
}

describe("wrap", () => {
  it("breaks at word boundaries, counting code points (an emoji is one)", () => {
    expect(wrap("one two three four", 9)).toEqual(["one two", "three", "four"]);
    expect(wrap("😀😀😀 ab", 6)).toEqual(["😀😀😀 ab"]);
    expect(wrap("alpha beta gamma", 12, "- ", "  ")).toEqual(["- alpha beta", "  gamma"]);
  });

  it("lays out every text as measuring each line does", () => {
    const word = fc.string({
      unit: fc.constantFrom("a", "é", "😀", "\u{1F9D1}\u200D\u{1F4BB}", "\uD800", "\uDC00"),
      maxLength: 12,
    });
    const text = fc.array(word, { maxLength: 30 }).map((words) => words.join(" "));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 60 }), fc.constantFrom("", "  ", "- "), (t, width, indent) => {
        expect(wrap(t, width, indent, "    ")).toEqual(wrapByMeasure(t, width, indent, "    "));
      }),
      { numRuns: 500 },
    );
  });
});
