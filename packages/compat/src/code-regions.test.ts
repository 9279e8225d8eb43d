import { describe, expect, test } from "vitest";
import { codeRegions, inRegions } from "./code-regions.js";

// The code parts of `text`, as strings, so expectations read like the markdown.
const code = (text: string) => codeRegions(text).map((r) => text.slice(r.start, r.end));

describe("codeRegions", () => {
  test("fenced blocks with backticks or tildes, closed by a fence at least as long", () => {
    const text = "a\n```ts\nx @a\n```\nb\n~~~~\ny\n~~~\nstill code\n~~~~\nc\n";
    expect(code(text)).toEqual(["```ts\nx @a\n```\n", "~~~~\ny\n~~~\nstill code\n~~~~\n"]);
  });

  test("an unclosed fence runs to the end of the text", () => {
    expect(code("a\n```\nb\nc")).toEqual(["```\nb\nc"]);
  });

  test("a fence may be indented up to three spaces, not four", () => {
    expect(code("   ```\nx\n   ```\n")).toEqual(["   ```\nx\n   ```\n"]);
    expect(code("    ```\nx\n")).toEqual([]);
  });

  test("inline spans close on a run of the same length", () => {
    expect(code("a `b` c ``d ` e`` f")).toEqual(["`b`", "``d ` e``"]);
  });

  test("an unmatched backtick opens nothing, and spans never cross a blank line", () => {
    expect(code("it's a ` tick\n\nand ` another")).toEqual([]);
    expect(code("a `b\nc` d")).toEqual(["`b\nc`"]);
  });

  test("spans inside a fence are part of the fence only", () => {
    expect(code("```\n`x`\n```\n`y`\n")).toEqual(["```\n`x`\n```\n", "`y`"]);
  });

  test("CRLF line ends", () => {
    expect(code("a\r\n```\r\nx\r\n```\r\nb")).toEqual(["```\r\nx\r\n```\r\n"]);
  });
});

describe("inRegions", () => {
  test("finds offsets inside, not at the end", () => {
    const regions = [
      { start: 2, end: 4 },
      { start: 10, end: 12 },
    ];
    expect([1, 2, 3, 4, 9, 10, 11, 12].map((o) => inRegions(regions, o))).toEqual([false, true, true, false, false, true, true, false]);
    expect(inRegions([], 0)).toBe(false);
  });
});
