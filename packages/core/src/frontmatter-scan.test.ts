/**
 * The frontmatter line classifier on its own: which line closes the block (the split relies on it when a
 * quoted value spans lines) and where a plain or flow value starts (the colon repair quotes from there).
 */
import { describe, expect, it } from "vitest";
import { FrontmatterScanner, type ScannedLine } from "./frontmatter-scan.js";

/** Every line pushed through one scanner, in order. */
function scan(...lines: string[]): ScannedLine[] {
  const scanner = new FrontmatterScanner();
  return lines.map((line) => scanner.push(line));
}

const plain = (start: number, keyColumn: number): ScannedLine => ({ closes: false, plain: { start, keyColumn } });
const flow = (start: number, keyColumn: number): ScannedLine => ({ closes: false, flow: { start, keyColumn } });
const nothing: ScannedLine = { closes: false };
const more = (isPlain: boolean): ScannedLine => ({ closes: false, continuation: isPlain });

describe("FrontmatterScanner: closing fences", () => {
  it("closes at three or more dashes at column 0, trailing blanks allowed, and nowhere else", () => {
    expect(scan("---")).toEqual([{ closes: true }]);
    expect(scan("-----")).toEqual([{ closes: true }]);
    expect(scan("--- \t")).toEqual([{ closes: true }]);
    expect(scan("--")).toEqual([nothing]);
    expect(scan(" ---")).toEqual([nothing]);
    expect(scan("--- x")).toEqual([nothing]);
  });

  it("never closes inside a double-quoted value that spans lines, and closes again once the quote ends", () => {
    expect(scan('description: "first', "---", 'x"', "---")).toEqual([nothing, nothing, nothing, { closes: true }]);
  });

  it("keeps a quote open across a line without its end, and reads escaped and doubled quotes as text", () => {
    expect(scan('d: "one', 'two \\" still open', "---", 'end"', "---")).toEqual([
      nothing,
      nothing,
      nothing,
      nothing,
      { closes: true },
    ]);
    expect(scan("d: 'it''s", "---", "done'", "---")).toEqual([nothing, nothing, nothing, { closes: true }]);
  });

  it("reads a line that opens with an unclosed quote (a quoted key or scalar) as the start of a quoted value", () => {
    expect(scan('"key', "---", 'rest": v', "---")).toEqual([nothing, nothing, nothing, { closes: true }]);
  });

  it("closes at a fence below a block scalar, whose indented lines are never values", () => {
    expect(scan("d: |", "  text: a: b", "---")).toEqual([nothing, more(false), { closes: true }]);
  });

  it("forgets an open quote on reset", () => {
    const scanner = new FrontmatterScanner();
    expect(scanner.push('d: "open')).toEqual(nothing);
    scanner.reset();
    expect(scanner.push("---")).toEqual({ closes: true });
  });

  it("forgets an open value on reset: the next indented line is read as a line of its own", () => {
    const scanner = new FrontmatterScanner();
    scanner.push("d: plain");
    scanner.reset();
    expect(scanner.push("  e: x: y")).toEqual(plain(5, 2));
  });
});

describe("FrontmatterScanner: where a value starts", () => {
  it("gives the columns of a plain value and of its key", () => {
    expect(scan("name: demo")).toEqual([plain(6, 0)]);
    expect(scan("  nested: a: b")).toEqual([plain(10, 2)]);
  });

  it("skips every whitespace character after the colon", () => {
    expect(scan("key:  two spaces")).toEqual([plain(6, 0)]);
    expect(scan("key:\ttab")).toEqual([plain(5, 0)]);
  });

  it("takes no colon without a space after it as a key (a URL, `a:b`)", () => {
    expect(scan("http://example.com")).toEqual([nothing]);
    expect(scan("a:b")).toEqual([nothing]);
  });

  it("reads keys after sequence markers, one or several", () => {
    expect(scan("- key: a: b")).toEqual([plain(7, 2)]);
    expect(scan("  - key: v")).toEqual([plain(9, 4)]);
    expect(scan("- - x: y")).toEqual([plain(7, 4)]);
    expect(scan("-\tk: v")).toEqual([plain(5, 2)]);
  });

  it("reads a bare marker, a comment, an empty value and a value that is a comment as no value", () => {
    expect(scan("-")).toEqual([nothing]);
    expect(scan("# comment")).toEqual([nothing]);
    expect(scan("- # comment")).toEqual([nothing]);
    expect(scan("key:")).toEqual([nothing]);
    expect(scan("key: # comment")).toEqual([nothing]);
    expect(scan("")).toEqual([nothing]);
  });

  it("reads a quoted key, with blanks before the colon, doubled and escaped quotes", () => {
    expect(scan('"a b": value')).toEqual([plain(7, 0)]);
    expect(scan('"a b" :  value')).toEqual([plain(9, 0)]);
    expect(scan("'it''s': v")).toEqual([plain(9, 0)]);
    expect(scan('"a\\"b": v')).toEqual([plain(8, 0)]);
    expect(scan('  "k": v')).toEqual([plain(7, 2)]);
  });

  it("reads a quoted scalar that is no key, or a quoted key with text before its colon, as no value", () => {
    expect(scan('"just text"')).toEqual([nothing]);
    expect(scan('"k"x: v')).toEqual([nothing]);
    expect(scan('"k":v')).toEqual([nothing]);
    expect(scan('"k":')).toEqual([nothing]);
  });

  it("reports no plain value for a quoted value closed on its line, and the next line is read afresh", () => {
    expect(scan('d: "a: b"', "e: f: g")).toEqual([nothing, plain(3, 0)]);
    expect(scan("d: 'a: b'", "e: f")).toEqual([nothing, plain(3, 0)]);
  });

  it("gives the columns of a flow value of a key, and none for a flow line without a key", () => {
    expect(scan("tags: [a, b]")).toEqual([flow(6, 0)]);
    expect(scan("  map: {a: 1}")).toEqual([flow(7, 2)]);
    expect(scan("[a, b]")).toEqual([nothing]);
    expect(scan("{a: 1}")).toEqual([nothing]);
  });

  it("reads a bare plain sequence item as no value (nothing to quote) but as the start of one", () => {
    expect(scan("- item", "  more", "- next")).toEqual([nothing, more(true), nothing]);
  });
});

describe("FrontmatterScanner: continuation lines", () => {
  it("marks the lines of a plain value indented past its key, blank ones included, as its continuation", () => {
    expect(scan("d: one", "  two", "", "   ", "  three", "e: f: g")).toEqual([
      plain(3, 0),
      more(true),
      more(true),
      more(true),
      more(true),
      plain(3, 0),
    ]);
  });

  it("ends a nested plain value at a line indented no further than its key", () => {
    expect(scan("  d: one", "   two", "  e: x")).toEqual([plain(5, 2), more(true), plain(5, 2)]);
  });

  it("marks the lines of a block scalar and of a flow value as no plain continuation", () => {
    expect(scan("d: >", "  folded", "e: x")).toEqual([nothing, more(false), plain(3, 0)]);
    expect(scan("t: [a,", "  b]", "e: x")).toEqual([flow(3, 0), more(false), plain(3, 0)]);
  });

  it("does not carry a plain value's continuation over to a block scalar that follows it", () => {
    expect(scan("a: x", "b: |", "  text")).toEqual([plain(3, 0), nothing, more(false)]);
  });
});

describe("FrontmatterScanner: corners", () => {
  it("reads a lone `-` as a marker with nothing after it, not as a value that later lines continue", () => {
    expect(scan("-", "  x: y")).toEqual([nothing, plain(5, 2)]);
    expect(scan("-   k: v")).toEqual([plain(7, 4)]);
  });

  it("keeps a nested value going over a blank line of spaces no deeper than its key", () => {
    expect(scan("  d: one", "  ", "   two")).toEqual([plain(5, 2), more(true), more(true)]);
  });

  it("reads a comment line with colons in it as no value", () => {
    expect(scan("# note: a: b")).toEqual([nothing]);
  });

  it("reads a single-quoted key with ': ' inside it, and an unclosed single quote", () => {
    expect(scan("'a: b': v")).toEqual([plain(8, 0)]);
    expect(scan("'abc", "---", "d'", "---")).toEqual([nothing, nothing, nothing, { closes: true }]);
  });

  it("takes no key on a line that opens a flow collection, ': ' inside it or not", () => {
    expect(scan("[a: b]")).toEqual([nothing]);
  });

  it("reads a backslash in single quotes as text, and ends double quotes at the first unescaped quote", () => {
    expect(scan("d: 'C:\\'", "---")).toEqual([nothing, { closes: true }]);
    expect(scan('d: "a""', "---")).toEqual([nothing, { closes: true }]);
  });
});
