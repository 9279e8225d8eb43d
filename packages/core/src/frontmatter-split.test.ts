/**
 * Where the frontmatter block ends, on both of the split's paths: the quick one (no quote before the first
 * fence line, or the fast reader reads the block) and the line scanner (a quoted value that may span lines).
 * Lines and the size cap are exact: an editor jumps to them and the cap decides what is read.
 */
import { describe, expect, it } from "vitest";
import { normalizeText, splitFrontmatter } from "./frontmatter-split.js";

describe("splitFrontmatter: a BOM and line ends", () => {
  it("drops a BOM before the opening fence and before a text without frontmatter", () => {
    expect(splitFrontmatter("\ufeff---\nname: a\n---\nbody\n")).toMatchObject({
      frontmatter: "name: a",
      body: "body\n",
      bodyLine: 4,
      fenceLine: 1,
    });
    expect(splitFrontmatter("\ufeffHello\n")).toMatchObject({ frontmatter: undefined, body: "Hello\n" });
    expect(normalizeText("\ufeffa\r\nb\rc")).toBe("a\nb\nc");
    // Only a leading BOM is one; a later U+FEFF is text.
    expect(normalizeText("a\ufeff")).toBe("a\ufeff");
  });
});

describe("splitFrontmatter: lines on the quick path", () => {
  it("gives the body's line when quotes closed on their lines let the fast reader find the end", () => {
    const text = "\n\n---\na: \"x\"\nb: 'y'\n---\nbody\n";
    expect(splitFrontmatter(text)).toMatchObject({
      frontmatter: "a: \"x\"\nb: 'y'",
      body: "body\n",
      bodyLine: 7,
      fenceLine: 3,
      frontmatterLine: 4,
    });
  });
});

describe("splitFrontmatter: the line scanner's path", () => {
  const quoted = 'a: "x\n---\ny"';

  it("closes after a quoted value that hides a fence line, with the body's line", () => {
    expect(splitFrontmatter(`---\n${quoted}\n---\nbody\n`)).toMatchObject({
      frontmatter: quoted,
      body: "body\n",
      bodyLine: 6,
    });
  });

  it("closes at a fence that ends the text, with no newline after it", () => {
    expect(splitFrontmatter(`---\n${quoted}\n---`)).toMatchObject({ frontmatter: quoted, body: "" });
    expect(splitFrontmatter(`---\n${quoted}\n---`).unclosed).toBeUndefined();
  });
});

describe("splitFrontmatter: the size cap, to the character", () => {
  // The cap counts from the block's first character to the end of the closing fence line.
  const cases = [
    ["a plain block (the quick path)", "a: 1"],
    ["a quoted value over two lines (the line scanner)", 'a: "x\n  y"'],
  ] as const;
  for (const [what, block] of cases) {
    it(`reads ${what} whose fence line ends at the cap, and not one character less`, () => {
      const text = `---\n${block}\n---\nbody\n`;
      const reach = block.length + 1 + 3;
      expect(splitFrontmatter(text, { maxFrontmatterChars: reach }).frontmatter).toBe(block);
      expect(splitFrontmatter(text, { maxFrontmatterChars: reach - 1 })).toMatchObject({
        frontmatter: undefined,
        tooLarge: true,
      });
    });
  }

  it("past the cap, counts only a real fence line as a closing one (too large), else unclosed", () => {
    const long = `a: "${"x".repeat(50)}`;
    const after = (tail: string) => splitFrontmatter(`---\n${long}\n${tail}\n`, { maxFrontmatterChars: 20 });
    expect(after("---  ")).toMatchObject({ tooLarge: true });
    expect(after("x---").unclosed).toBe(true);
    expect(after("---x").unclosed).toBe(true);
    expect(after(" ---").unclosed).toBe(true);
  });
});
