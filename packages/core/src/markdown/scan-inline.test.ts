import { describe, expect, test } from "vitest";
import { scanBlocks } from "./scan-blocks.js";
import { scanInline } from "./scan-inline.js";
import type { InlineToken } from "./scan-inline.js";

// The tokens of `text` read as one prose segment, as [kind, text, ticks?, bang?].
function tokens(text: string, gaps?: Array<{ start: number; end: number }>): Array<[string, string, number?, string?]> {
  const found: InlineToken[] = [];
  scanInline(text, [gaps === undefined ? { start: 0, end: text.length } : { start: 0, end: text.length, gaps }], (t) =>
    found.push(t),
  );
  return found.map((t) =>
    t.kind === "code" ? [t.kind, text.slice(t.start, t.end), t.ticks, t.bang] : [t.kind, text.slice(t.start, t.end)],
  );
}

describe("scanInline: code spans", () => {
  test("a run of N backticks closes at the next run of exactly N", () => {
    expect(tokens("a `b` c ``d ` e`` f")).toEqual([
      ["code", "`b`", 1, "none"],
      ["code", "``d ` e``", 2, "none"],
    ]);
  });

  test("an unmatched run is text, and a longer run skips shorter ones", () => {
    expect(tokens("it's a ` tick and `` two")).toEqual([]);
    expect(tokens("``a ` !`x` ` b`` then `y`")).toEqual([
      ["code", "``a ` !`x` ` b``", 2, "none"],
      ["code", "`y`", 1, "none"],
    ]);
  });

  test("backslashes escape outside spans only: \\` opens nothing, and a span may end in a backslash", () => {
    expect(tokens("\\`x `y`")).toEqual([["code", "`y`", 1, "none"]]);
    expect(tokens("`a\\` b`")).toEqual([["code", "`a\\`", 1, "none"]]);
  });

  test("says what stands before a span: a live !, an escaped \\!, or anything else", () => {
    expect(tokens("!`a` \\!`b` \\\\!`c` !!`d` x`e`")).toEqual([
      ["code", "`a`", 1, "live"],
      ["code", "`b`", 1, "escaped"],
      ["code", "`c`", 1, "live"],
      ["code", "`d`", 1, "live"],
      ["code", "`e`", 1, "none"],
    ]);
  });
});

describe("scanInline: raw HTML and autolinks", () => {
  test("comments, tags, processing instructions, declarations and CDATA are not prose", () => {
    expect(tokens('a <!-- `x` --> <span title="`">`y` </span> <?p `?> <!X `> <![CDATA[`]]>')).toEqual([
      ["html", "<!-- `x` -->"],
      ["html", '<span title="`">'],
      ["code", "`y`", 1, "none"],
      ["html", "</span>"],
      ["html", "<?p `?>"],
      ["html", "<!X `>"],
      ["html", "<![CDATA[`]]>"],
    ]);
  });

  test("<!--> and <!---> are complete comments (CommonMark 0.31)", () => {
    expect(tokens("<!--> `a` <!---> `b`")).toEqual([
      ["html", "<!-->"],
      ["code", "`a`", 1, "none"],
      ["html", "<!--->"],
      ["code", "`b`", 1, "none"],
    ]);
  });

  test("autolinks, tried before raw HTML", () => {
    expect(tokens("<https://x.test/`a`> <a`b@c.de> <!x@y.z>")).toEqual([
      ["html", "<https://x.test/`a`>"],
      ["html", "<a`b@c.de>"],
      ["html", "<!x@y.z>"],
    ]);
  });

  test("what is not a tag stays text", () => {
    expect(tokens("a < b, <1> `c` <a b='`'")).toEqual([["code", "`c`", 1, "none"]]);
  });

  test("a code span that starts first wins over a tag, and the other way round", () => {
    expect(tokens('`<a title="` x">')).toEqual([["code", '`<a title="`', 1, "none"]]);
    expect(tokens('<a title="`"> x`')).toEqual([["html", '<a title="`">']]);
  });

  test("block-quote markers inside the paragraph read as spaces", () => {
    // "<a\n> b='`x`'>": without the gap the `>` of the second line would close the tag.
    const text = "<a\n> b='`x`'>";
    expect(tokens(text, [{ start: 3, end: 5 }])).toEqual([["html", text]]);
    expect(tokens(text)).toEqual([
      ["html", "<a\n>"],
      ["code", "`x`", 1, "none"],
    ]);
  });
});

describe("scanInline: offsets after block-quote markers", () => {
  test("tokens after a gap, in a quoted paragraph further into the text, keep their offsets in the text", () => {
    const text = "x\n\n> a\n>  `b` <c>\n> `d`";
    const { prose } = scanBlocks(text);
    expect(prose[1]?.gaps).toEqual([
      { start: 7, end: 10 },
      { start: 18, end: 20 },
    ]);
    const found: InlineToken[] = [];
    scanInline(text, prose, (t) => found.push(t));
    expect(found.map((t) => [t.start, t.end, text.slice(t.start, t.end)])).toEqual([
      [10, 13, "`b`"],
      [14, 17, "<c>"],
      [20, 23, "`d`"],
    ]);
  });
});
