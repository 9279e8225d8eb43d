import { describe, expect, test } from "vitest";
import {
  closesFence,
  fenceOpener,
  isAtxHeading,
  isSetextUnderline,
  isThematicBreak,
  listMarker,
} from "./block-starts.js";
import { scanBlocks } from "./scan-blocks.js";

// Each recogniser reads one line `[at, end)`; here `end` also stops short of the text's end, to pin that
// nothing after the line (the next line, in a caller) is read.
const prose = (text: string) => scanBlocks(text).prose.map((r) => text.slice(r.start, r.end));
const code = (text: string) => scanBlocks(text).code.map((r) => text.slice(r.start, r.end));
const BACKTICK = 0x60;

describe("fences (CommonMark 0.31.2 §4.5, https://spec.commonmark.org/0.31.2/#fenced-code-blocks)", () => {
  test("only ``` and ~~~ open a fence, and only what lies before the line's end is read", () => {
    expect(fenceOpener("aaa", 0, 3)).toBeUndefined();
    expect(fenceOpener("```x`", 0, 4)).toEqual({ char: BACKTICK, length: 3 });
    expect(fenceOpener("```x`", 0, 5)).toBeUndefined();
    expect(fenceOpener("````", 0, 3)).toEqual({ char: BACKTICK, length: 3 });
  });

  test("a closing run stops at the line's end, and may carry trailing spaces and tabs only", () => {
    expect(closesFence("````", 0, 3, BACKTICK, 4)).toBe(false);
    expect(closesFence("``` \t", 0, 5, BACKTICK, 3)).toBe(true);
    expect(closesFence("``` x", 0, 4, BACKTICK, 3)).toBe(true);
    expect(code("```\nx\n```  \ny")).toEqual(["```\nx\n```  "]);
    expect(code("```\nx\n``` x\ny")).toEqual(["```\nx\n``` x\ny"]);
  });
});

describe("ATX headings (§4.2, https://spec.commonmark.org/0.31.2/#atx-headings)", () => {
  test("one to six #, then a space, a tab or the line's end", () => {
    expect(prose("###### x\ny")).toEqual(["###### x", "y"]);
    expect(prose("####### x\ny")).toEqual(["####### x\ny"]);
    expect(prose("#x\ny")).toEqual(["#x\ny"]);
    expect(prose("#\ny")).toEqual(["#", "y"]);
    expect(prose("#\ty\nz")).toEqual(["#\ty", "z"]);
    expect(prose("a\n  ##\nb")).toEqual(["a", "##", "b"]);
  });

  test("the recogniser alone: no # is no heading, and the line's end counts as an end", () => {
    expect(isAtxHeading(" x", 0, 2)).toBe(false);
    expect(isAtxHeading("x", 0, 1)).toBe(false);
    expect(isAtxHeading("##x", 0, 2)).toBe(true);
    expect(isAtxHeading("a\n##", 2, 4)).toBe(true);
    expect(isAtxHeading("#######", 0, 7)).toBe(false);
  });
});

describe("setext underlines and thematic breaks (§4.3, §4.1)", () => {
  test("an underline is = or - only, then spaces and tabs", () => {
    expect(isSetextUnderline("== \t", 0, 4)).toBe(true);
    expect(isSetextUnderline("==x", 0, 2)).toBe(true);
    expect(isSetextUnderline("== x", 0, 4)).toBe(false);
    expect(isSetextUnderline("__", 0, 2)).toBe(false);
    expect(prose("a\n===  \nb")).toEqual(["a", "b"]);
    expect(prose("a\n=== x\nb")).toEqual(["a\n=== x\nb"]);
  });

  test("three *, - or _ make a break, which ends a paragraph", () => {
    expect(prose("a\n___\nb")).toEqual(["a", "b"]);
    expect(prose("a\n* * *\nb")).toEqual(["a", "b"]);
    expect(prose("a\n__\nb")).toEqual(["a\n__\nb"]);
    expect(isThematicBreak("===", 0, 3)).toBe(false);
    expect(isThematicBreak("_ _x", 0, 3)).toBe(false);
  });
});

describe("list markers (§5.2, https://spec.commonmark.org/0.31.2/#list-items)", () => {
  test("bullets are unordered and count as starting at 1; ordered markers say whether they start at 1", () => {
    expect(listMarker("- x", 0, 3)).toEqual({ length: 1, ordered: false, startsAtOne: true });
    expect(listMarker("+", 0, 1)).toEqual({ length: 1, ordered: false, startsAtOne: true });
    expect(listMarker("1) x", 0, 4)).toEqual({ length: 2, ordered: true, startsAtOne: true });
    expect(listMarker("0. x", 0, 4)).toEqual({ length: 2, ordered: true, startsAtOne: false });
    expect(listMarker("001.", 0, 4)).toEqual({ length: 4, ordered: true, startsAtOne: true });
  });

  test("one to nine digits, then . or ), then a space, a tab or the line's end", () => {
    expect(listMarker("123456789. x", 0, 12)).toEqual({ length: 10, ordered: true, startsAtOne: false });
    expect(listMarker("1234567890. x", 0, 13)).toBeUndefined();
    expect(listMarker("12345678901. x", 0, 14)).toBeUndefined();
    expect(listMarker(". x", 0, 3)).toBeUndefined();
    expect(listMarker("1x y", 0, 4)).toBeUndefined();
    expect(listMarker("x y", 0, 3)).toBeUndefined();
    expect(listMarker("1.x", 0, 3)).toBeUndefined();
    expect(listMarker("-x", 0, 2)).toBeUndefined();
    expect(listMarker("1.\tx", 0, 4)).toEqual({ length: 2, ordered: true, startsAtOne: true });
  });

  test("the digits and the marker's end stop at the line's end", () => {
    expect(listMarker("12. x", 0, 1)).toBeUndefined(); // the line holds "1" only
    expect(listMarker("1.x", 0, 2)).toEqual({ length: 2, ordered: true, startsAtOne: true });
    expect(listMarker("-x", 0, 1)).toEqual({ length: 1, ordered: false, startsAtOne: true });
  });

  test("in a document: digits 0 and 9, nine digits, and what is not a marker", () => {
    expect(prose("10. x")).toEqual(["x"]);
    expect(prose("9) x")).toEqual(["x"]);
    expect(prose("123456789. x")).toEqual(["x"]);
    expect(prose("1234567890. x")).toEqual(["1234567890. x"]);
    expect(prose(". x")).toEqual([". x"]);
    expect(prose("1x y")).toEqual(["1x y"]);
    expect(prose("a b")).toEqual(["a b"]);
  });

  test("an empty item holds the next line indented past its marker", () => {
    // "-" alone opens an item whose content starts two columns in (§5.2, "starts with a blank line").
    expect(prose("-\n  foo")).toEqual(["foo"]);
    expect(code("-\n  foo")).toEqual([]);
    expect(code("-\n     code")).toEqual([]); // three columns past the item's content: a paragraph
    expect(prose("-\n     code")).toEqual(["code"]);
  });
});
