import { describe, expect, test } from "vitest";
import { htmlBlockStart } from "./html-block.js";
import { scanBlocks } from "./scan-blocks.js";
import { TextFinder } from "./text-finder.js";

// HTML blocks as CommonMark 0.31.2 §4.6 defines them (https://spec.commonmark.org/0.31.2/#html-blocks).
const code = (text: string) => scanBlocks(text).code.map((r) => text.slice(r.start, r.end));
const start = (text: string, lineEnd = text.length, inParagraph = false) =>
  htmlBlockStart(text, 0, lineEnd, inParagraph, new TextFinder(text));

// Condition 6's tag names, as the spec lists them.
const BLOCK_NAMES = (
  "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt " +
  "fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link " +
  "main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead " +
  "title tr track ul"
).split(" ");

describe("condition 6: block-level tag names", () => {
  test("each of the spec's names starts a block that may interrupt a paragraph", () => {
    for (const name of BLOCK_NAMES) {
      expect(code(`para\n<${name}>\nx\n\nafter`), name).toEqual([`<${name}>\nx`]);
      expect(code(`para\n</${name.toUpperCase()}\nx`), name).toEqual([`</${name.toUpperCase()}\nx`]);
    }
  });

  test("other names do not interrupt a paragraph (they are inline HTML there)", () => {
    for (const name of ["span", "a", "em", "x-div", "divx", "h7"]) {
      expect(code(`para\n<${name}>\nx`), name).toEqual([]);
    }
  });

  test("the name must end with a space, a tab, the line's end, > or />", () => {
    expect(code("<div.x\n\nb")).toEqual([]);
    expect(code("<div.>\nx")).toEqual([]);
    expect(code("<div/x\n\nb")).toEqual([]);
    expect(code("<div/>\nx\n\nb")).toEqual(["<div/>\nx"]);
    expect(code("<div\tx\n\nb")).toEqual(["<div\tx"]);
  });

  test("the recogniser reads the line only, and needs a < first", () => {
    expect(start("xdiv>")).toBeUndefined();
    expect(start("<divx", 4)).toBe(6);
    expect(start("<div", 4)).toBe(6);
    expect(start("<1div>")).toBeUndefined();
    expect(start("<>")).toBeUndefined();
  });
});

describe("conditions 1 to 5 and 7", () => {
  test("<pre/> is not condition 1, and condition 7 excludes the raw names: a paragraph", () => {
    expect(code("<pre/>\nx\n\ny")).toEqual([]);
    expect(code("<span/>\nx\n\ny")).toEqual(["<span/>\nx"]);
    expect(start("<pre/>")).toBeUndefined();
    expect(start("<pre>")).toBe(1);
  });

  test("blocks that end on their first line: <?>, <!-->, CDATA, a declaration", () => {
    expect(code("<?>\nx\n\ny")).toEqual(["<?>"]);
    expect(code("<![CDATA[x]]>\ny\n\nz")).toEqual(["<![CDATA[x]]>"]);
    expect(code("<!X>\ny\n\nz")).toEqual(["<!X>"]);
  });

  test("a second block of the same kind looks for its own end", () => {
    expect(code("<pre>\na\n</pre>\n\n<pre>\nb\n\nc\n</pre>\nafter")).toEqual([
      "<pre>\na\n</pre>",
      "<pre>\nb\n\nc\n</pre>",
    ]);
    expect(code("<?>\n\n<?php\n\nx\n?>\ny")).toEqual(["<?>", "<?php\n\nx\n?>"]);
    expect(code("<!-- a -->\n\n<!--\n\nb\n-->\nc")).toEqual(["<!-- a -->", "<!--\n\nb\n-->"]);
  });

  test("an end marker before the block's start does not end it (a declaration inside a block quote)", () => {
    expect(code("><!X a\n> b >\nafter")).toEqual(["<!X a\n> b >"]);
  });
});
