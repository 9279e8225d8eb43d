import { describe, expect, test } from "vitest";
import { inlineHtmlEnd } from "./inline-html.js";
import { scanInline } from "./scan-inline.js";
import { TextFinder } from "./text-finder.js";

// Raw HTML and autolinks as CommonMark 0.31.2 defines them: §6.6 raw HTML
// (https://spec.commonmark.org/0.31.2/#raw-html) and §6.5 autolinks (https://spec.commonmark.org/0.31.2/#autolinks).

// The raw HTML and autolinks (and code spans, to show what stays prose) of `text` read as one prose segment.
function tokens(text: string): string[] {
  const found: string[] = [];
  scanInline(text, [{ start: 0, end: text.length }], (t) => found.push(`${t.kind}:${text.slice(t.start, t.end)}`));
  return found;
}

// inlineHtmlEnd on `text` with the segment ending at `end` (the whole text by default).
const htmlEnd = (text: string, end = text.length) => inlineHtmlEnd(text, 0, end, new TextFinder(text));

describe("tag names and attribute names", () => {
  test("a tag name is an ASCII letter, then letters, digits and -", () => {
    expect(tokens("<A> <Z> <a> <z> <h0> <h9> <x-y>")).toEqual([
      "html:<A>",
      "html:<Z>",
      "html:<a>",
      "html:<z>",
      "html:<h0>",
      "html:<h9>",
      "html:<x-y>",
    ]);
    expect(tokens("<é> <{> <@> <[> <`a`>")).toEqual(["code:`a`"]);
  });

  test("an attribute name starts with a letter, _ or :, and goes on with digits, . and -", () => {
    expect(tokens("<a _b :c d0.e-f>")).toEqual(["html:<a _b :c d0.e-f>"]);
    expect(tokens("<a 0b> `x`")).toEqual(["code:`x`"]);
    expect(tokens("<a .b> `x`")).toEqual(["code:`x`"]);
  });

  test("an attribute needs whitespace before it: space, tab or a line ending, CR included", () => {
    expect(tokens("<a\tb='c'>")).toEqual(["html:<a\tb='c'>"]);
    expect(tokens("<a\nb>")).toEqual(["html:<a\nb>"]);
    expect(tokens("<a\rb>")).toEqual(["html:<a\rb>"]);
    expect(tokens("<a\r\nb>")).toEqual(["html:<a\r\nb>"]);
    expect(tokens("<a!> `x`")).toEqual(["code:`x`"]);
    expect(tokens('<a b="c"d> `x`')).toEqual(["code:`x`"]);
  });
});

describe("attribute values", () => {
  test("unquoted: any run of characters but whitespace, quotes, =, <, > and `", () => {
    expect(tokens("<a b=c d=e> `x`")).toEqual(["html:<a b=c d=e>", "code:`x`"]);
    expect(tokens("<a b=c\td=e>")).toEqual(["html:<a b=c\td=e>"]);
    expect(tokens("<a b=c\nd=e>")).toEqual(["html:<a b=c\nd=e>"]);
    expect(tokens("<a b=c\rd=e>")).toEqual(["html:<a b=c\rd=e>"]);
    expect(tokens("<a b = c/>")).toEqual(["html:<a b = c/>"]);
    // Each of these characters ends the value, and then the tag is not complete.
    expect(tokens('<a b=c"d> `x`')).toEqual(["code:`x`"]);
    expect(tokens("<a b=c'd> `x`")).toEqual(["code:`x`"]);
    expect(tokens("<a b=c=d> `x`")).toEqual(["code:`x`"]);
    expect(tokens("<a b=c<d>")).toEqual(["html:<d>"]);
    expect(tokens("<a b=c`d`>")).toEqual(["code:`d`"]);
    expect(tokens("<a b=c>d>")).toEqual(["html:<a b=c>"]);
  });

  test("a value is required after =", () => {
    expect(tokens("<a b=> `x`")).toEqual(["code:`x`"]);
    expect(tokens("<a b= > `x`")).toEqual(["code:`x`"]);
  });

  test("quoted: the next quote of the same kind closes it; one that never closes makes the tag text", () => {
    expect(tokens(`<a b='"' c="'">`)).toEqual([`html:<a b='"' c="'">`]);
    expect(tokens(` a='<c d="' >`)).toEqual([]);
    expect(tokens(`<a b="c`)).toEqual([]);
  });

  test("a tag inside an earlier tag's unclosed value is still read", () => {
    // `<a b="<c d="` fails (the value of e never closes); `<c d=" e=">` is a tag of its own.
    expect(tokens(`<a b="<c d=" e="> tail`)).toEqual([`html:<c d=" e=">`]);
  });
});

describe("closing tags, self-closing tags, and what is not a tag", () => {
  test("a closing tag holds a name and optional whitespace, nothing else", () => {
    expect(tokens("</a > </a\n>")).toEqual(["html:</a >", "html:</a\n>"]);
    expect(tokens("</a b> `x`")).toEqual(["code:`x`"]);
    expect(tokens("</a/> `x`")).toEqual(["code:`x`"]);
  });

  test("/ closes a tag only right before >", () => {
    expect(tokens("<a/> <a />")).toEqual(["html:<a/>", "html:<a />"]);
    expect(tokens("<a/x> `y`")).toEqual(["code:`y`"]);
  });

  test("<! needs a letter to be a declaration", () => {
    expect(tokens("<!1 `x` >")).toEqual(["code:`x`"]);
    expect(tokens("<! `x` >")).toEqual(["code:`x`"]);
  });

  test("CDATA runs from its own start, not from before it", () => {
    expect(tokens("]]> <![CDATA[ `x` ]]> `y`")).toEqual(["html:<![CDATA[ `x` ]]>", "code:`y`"]);
  });
});

describe("e-mail autolinks", () => {
  test("domain labels of 1 to 63 letters, digits and inner hyphens", () => {
    const label63 = `a${"b".repeat(61)}c`;
    expect(tokens(`<x@example.com> <x@a-b.c> <x@a.bc.def> <x@${label63}.io>`)).toEqual([
      "html:<x@example.com>",
      "html:<x@a-b.c>",
      "html:<x@a.bc.def>",
      `html:<x@${label63}.io>`,
    ]);
    expect(tokens(`<x@${label63}d.io> <x@-a.b> <x@a-.b>`)).toEqual([]);
  });
});

describe("inlineHtmlEnd: nothing past the segment's end is read", () => {
  test("comments", () => {
    expect(htmlEnd("<!-->")).toBe(5);
    expect(htmlEnd("<!-->", 4)).toBe(-1);
    expect(htmlEnd("<!--->")).toBe(6);
    expect(htmlEnd("<!--->", 5)).toBe(-1);
    expect(htmlEnd("<!-- x -->", 9)).toBe(-1);
  });

  test("tags", () => {
    expect(htmlEnd("</a>", 3)).toBe(-1);
    expect(htmlEnd("</a >", 4)).toBe(-1);
    expect(htmlEnd("<a >", 3)).toBe(-1);
    expect(htmlEnd("<a/>", 3)).toBe(-1);
    expect(htmlEnd("<a/>", 4)).toBe(4);
    expect(htmlEnd('<a b="c">', 7)).toBe(-1);
  });

  test("autolinks", () => {
    expect(htmlEnd("<ab:c>")).toBe(6);
    expect(htmlEnd("<ab:c>", 5)).toBe(-1);
    expect(htmlEnd("<x@y.z>", 6)).toBe(-1);
  });
});
