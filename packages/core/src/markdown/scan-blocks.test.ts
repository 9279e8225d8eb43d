import { describe, expect, test } from "vitest";
import { MARKDOWN_MAX_NESTING } from "../limits.js";
import { scanBlocks } from "./scan-blocks.js";

// The code blocks and prose segments of `text`, as strings, so expectations read like the markdown.
const code = (text: string) => scanBlocks(text).code.map((r) => text.slice(r.start, r.end));
const prose = (text: string) => scanBlocks(text).prose.map((r) => text.slice(r.start, r.end));

describe("scanBlocks: fenced code", () => {
  test("backtick and tilde fences, closed only by the same character at least as long", () => {
    const text = "a\n```ts\nx\n```\nb\n~~~~\ny\n~~~\n```\nstill\n~~~~\nc\n";
    expect(code(text)).toEqual(["```ts\nx\n```", "~~~~\ny\n~~~\n```\nstill\n~~~~"]);
    expect(prose(text)).toEqual(["a", "b", "c"]);
  });

  test("an unclosed fence runs to the end; a closing line may not carry text", () => {
    expect(code("a\n```\nb\n``` x\nc")).toEqual(["```\nb\n``` x\nc"]);
  });

  test("up to three spaces of indent open and close a fence, four do not", () => {
    expect(code("   ```\nx\n   ```\n")).toEqual(["   ```\nx\n   ```".slice(3)]);
    expect(code("    ```\nx\n")).toEqual(["    ```"]); // indented code, then a paragraph
    expect(code("```\nx\n    ```\ny")).toEqual(["```\nx\n    ```\ny"]);
  });

  test("a backtick in a backtick fence's info string makes the line a paragraph", () => {
    expect(code("```a`b\nx")).toEqual([]);
    expect(code("~~~a`b\nx")).toEqual(["~~~a`b\nx"]);
  });

  test("a fence inside a list item or a block quote ends with its container", () => {
    expect(code("- ```\n  x\ny\n")).toEqual(["```\n  x"]);
    expect(prose("- ```\n  x\ny\n")).toEqual(["y"]);
    expect(code("> ```\n> x\nafter")).toEqual(["```\n> x"]);
  });

  test("CRLF line ends", () => {
    expect(code("a\r\n```\r\nx\r\n```\r\nb")).toEqual(["```\r\nx\r\n```"]);
    expect(prose("a\r\n```\r\nx\r\n```\r\nb")).toEqual(["a", "b"]);
  });
});

describe("scanBlocks: indented code", () => {
  test("four spaces or a tab after a blank line, running over blank lines", () => {
    expect(code("Para.\n\n    one\n\n\ttwo\n\nBack")).toEqual(["    one\n\n\ttwo"]);
  });

  test("an indented line cannot interrupt a paragraph, even a lazy one", () => {
    expect(code("Para\n    continued")).toEqual([]);
    expect(code("> quoted\n    lazy")).toEqual([]);
    expect(prose("> quoted\n    lazy")).toEqual(["quoted\n    lazy"]);
  });

  test("measured from the list item's content", () => {
    const text = ["- item", "", "    continuation", "", "      code in item"].join("\n");
    expect(prose(text)).toEqual(["item", "continuation"]);
    expect(code(text)).toEqual(["    code in item"]);
  });

  test("a list item whose text starts five columns after the marker holds indented code", () => {
    expect(code("-     code\n")).toEqual(["    code"]);
  });

  test("tabs count to the next multiple of four, also after a block-quote marker", () => {
    expect(code(">\t\tcode")).toEqual(["\t\tcode"]); // the first tab is half taken by the marker
    expect(code(">\tcode")).toEqual([]);
    expect(code(" \tcode")).toEqual([" \tcode"]);
  });
});

describe("scanBlocks: HTML blocks", () => {
  test("<pre>, <script>, <style>, <textarea> run to their closing tag, over blank lines", () => {
    for (const tag of ["pre", "script", "style", "textarea", "PRE"]) {
      const text = `<${tag} class="x">\n\n!\`a\`\n</${tag.toLowerCase()}> tail\nafter`;
      expect(code(text), tag).toEqual([`<${tag} class="x">\n\n!\`a\`\n</${tag.toLowerCase()}> tail`]);
      expect(prose(text)).toEqual(["after"]);
    }
  });

  test("comments, processing instructions, declarations and CDATA run to their end marker", () => {
    expect(code("<!--\n\nx\n-->\ny")).toEqual(["<!--\n\nx\n-->"]);
    expect(code("<!-->\ny")).toEqual(["<!-->"]);
    expect(code("<?php\n\necho 1;\n?>\ny")).toEqual(["<?php\n\necho 1;\n?>"]);
    expect(code("<!DOCTYPE html\n\n>\ny")).toEqual(["<!DOCTYPE html\n\n>"]);
    expect(code("<![CDATA[\n\nx\n]]>\ny")).toEqual(["<![CDATA[\n\nx\n]]>"]);
  });

  test("an unclosed comment runs to the end of the text", () => {
    expect(code("a\n\n<!-- open\n\n!`x`\n\n# not a heading")).toEqual(["<!-- open\n\n!`x`\n\n# not a heading"]);
  });

  test("block-level tags run to a blank line and may interrupt a paragraph", () => {
    expect(code("para\n<div>\n*x*\n\nafter")).toEqual(["<div>\n*x*"]);
    expect(code("</table>\nx\n\ny")).toEqual(["</table>\nx"]);
    expect(code("<hr/>\n\ny")).toEqual(["<hr/>"]);
  });

  test("a lone complete tag starts a block, but not inside a paragraph", () => {
    expect(code('<span title="a b">\n!`x`\n\nafter')).toEqual(['<span title="a b">\n!`x`']);
    expect(code("</em>  \nx")).toEqual(["</em>  \nx"]);
    expect(code('para\n<span title="a">\nmore')).toEqual([]);
    expect(code("<span> text\n")).toEqual([]); // not alone on its line
    expect(code("<span\n")).toEqual([]); // not complete on its line
  });

  test("inside containers, blank lines and lost containers end the block", () => {
    expect(code("> <div>\n> x\ny")).toEqual(["<div>\n> x"]);
    expect(code("- <div>\n  x\n\n  para")).toEqual(["<div>\n  x"]);
  });
});

describe("scanBlocks: prose segments", () => {
  test("one per paragraph and heading; thematic breaks and setext underlines are neither", () => {
    const text = "# Title\npara one\nline two\n***\nnext\n===\n\n- item\n  more\n- other\n> quote\nlazy";
    expect(prose(text)).toEqual(["# Title", "para one\nline two", "next", "item\n  more", "other", "quote\nlazy"]);
  });

  test("a list item interrupts a paragraph only when it is not empty and starts at 1", () => {
    expect(prose("a\n2. b")).toEqual(["a\n2. b"]);
    expect(prose("a\n*\nb")).toEqual(["a\n*\nb"]);
    expect(prose("a\n-\nb")).toEqual(["a", "b"]); // "-" underlines a setext heading
    expect(prose("a\n1. b")).toEqual(["a", "b"]);
    expect(prose("a\n* b")).toEqual(["a", "b"]);
  });

  test("block-quote markers of later lines are gaps inside the segment", () => {
    const text = "> a\n> b\n>c\n>  d\n\n> > e\n> lazy";
    const [first, second] = scanBlocks(text).prose;
    expect(text.slice(first?.start, first?.end)).toBe("a\n> b\n>c\n>  d");
    expect(first?.gaps?.map((g) => text.slice(g.start, g.end))).toEqual(["> ", ">", ">  "]);
    expect(text.slice(second?.start, second?.end)).toBe("e\n> lazy");
    expect(second?.gaps?.map((g) => text.slice(g.start, g.end))).toEqual(["> "]);
    expect(scanBlocks("a\n  b").prose[0]?.gaps).toBeUndefined();
  });

  test(`nesting deeper than ${MARKDOWN_MAX_NESTING} containers is read as text`, () => {
    const deep = `${"> ".repeat(MARKDOWN_MAX_NESTING + 5)}x\n`;
    expect(prose(deep)).toEqual([`${"> ".repeat(5)}x`]);
    const items = `${"- ".repeat(MARKDOWN_MAX_NESTING + 1)}x\n`;
    expect(prose(items)).toEqual(["- x"]);
  });

  test("empty text, blank text, and text without a final line break", () => {
    expect(scanBlocks("")).toEqual({ prose: [], code: [] });
    expect(scanBlocks(" \n\t\n")).toEqual({ prose: [], code: [] });
    expect(prose("x")).toEqual(["x"]);
  });
});

describe("scanBlocks: blank lines and containers", () => {
  test("a block quote ends at a blank line, even after a line holding only its marker", () => {
    expect(prose("> a\n>\n\nb")).toEqual(["a", "b"]);
    expect(code("> a\n>\n\n    code")).toEqual(["    code"]);
  });

  test("list items continue over any number of blank lines; an empty item does not", () => {
    expect(code("- a\n\n\n\n      code")).toEqual(["    code"]);
    expect(code("-\n\n      code")).toEqual(["      code"]);
  });
});

// Block quotes and list items as containers: CommonMark 0.31.2 §5.1 (https://spec.commonmark.org/0.31.2/#block-quotes)
// and §5.2 (https://spec.commonmark.org/0.31.2/#list-items). Where indented code starts shows which container
// took how many columns.
describe("scanBlocks: list items inside block quotes", () => {
  test("a line blank after its `>` keeps a list item that holds something, and closes an empty one", () => {
    expect(code("> - a\n>\n>       code")).toEqual(["    code"]);
    expect(prose("> - a\n>\n>       code")).toEqual(["a"]);
    expect(code("> -\n>\n>       code")).toEqual(["      code"]);
  });

  test("one space after `>` belongs to the marker", () => {
    expect(code(">\n>     code")).toEqual(["    code"]);
    expect(code(">\n>    not code")).toEqual([]);
  });

  test("a `>` indented four columns continues no quote: the line is a lazy continuation, without a gap", () => {
    const [segment] = scanBlocks("> a\n    > b").prose;
    expect(segment).toStrictEqual({ start: 2, end: 11 });
  });

  test("a lazy line of a list item's paragraph has no gap, and a segment without gaps has no `gaps` key", () => {
    expect(scanBlocks("- a\nb").prose).toStrictEqual([{ start: 2, end: 5 }]);
    expect(scanBlocks("a\nb").prose).toStrictEqual([{ start: 0, end: 3 }]);
    expect(scanBlocks("> a\nb").prose).toStrictEqual([{ start: 2, end: 5 }]);
  });
});
