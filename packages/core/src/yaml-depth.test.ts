// The nesting cap of `parseYamlBlock` (`tooDeep`), measured at small caps so each edge shows: where flow
// `[[` / `{{` and compact `- -` / `? ?` nesting passes the cap, what resets or hides the count, and what a
// refused block looks like to its callers (the loader and the validator).
import { LineCounter } from "yaml";
import { describe, expect, it } from "vitest";
import { parseYamlBlock, tooDeep } from "./yaml-document.js";

describe("tooDeep: the offset where nesting passes the cap", () => {
  it("counts flow sequences and flow mappings alike, at the bracket that passes the cap", () => {
    expect(tooDeep("[[a]]", 1)).toBe(1);
    expect(tooDeep("[[a]]", 2)).toBeUndefined();
    expect(tooDeep("a: [[x]]", 1)).toBe(4);
    expect(tooDeep("[a, [b]]", 1)).toBe(4);
    // No `[` at all: the `{` count alone decides.
    expect(tooDeep("{a: {b: c}}", 1)).toBe(4);
    expect(tooDeep("{a: {b: c}}", 2)).toBeUndefined();
    expect(tooDeep("{{a: b}: c}", 1)).toBe(1);
    // The first bracket at offset 1 (an indented block) is counted too.
    expect(tooDeep(" [[a]]", 1)).toBe(2);
    expect(tooDeep(" {a: {b: c}}", 1)).toBe(5);
  });

  it("closes each collection: siblings on their own lines stay at depth one", () => {
    expect(tooDeep("a: [x]\nb: [y]", 1)).toBeUndefined();
    expect(tooDeep("a: {x: 1}\nb: {y: 2}", 1)).toBeUndefined();
    expect(tooDeep("[a] [b]", 1)).toBeUndefined();
  });

  it("is not fooled by unbalanced closing brackets before the nesting", () => {
    expect(tooDeep("a: ]]\nb: [[c]]", 1)).toBe(10);
    expect(tooDeep("a: [x]]]\nb: [[y]]", 1)).toBe(13);
  });

  it("counts offsets in source text only (not the lexer's markers), after quotes, block scalars and `---`", () => {
    expect(tooDeep('"x": [[a]]', 1)).toBe(6);
    expect(tooDeep("a: |\n  x\nb: [[c]]", 1)).toBe(13);
    expect(tooDeep("--- [[x]]", 1)).toBe(5);
    // An unterminated flow sequence ends at the next line (the lexer's flow-error-end, no source text).
    expect(tooDeep("a: [x\nb: [[y]]", 1)).toBe(9);
  });

  it("counts compact `- -` and `? ?` on one line; a newline starts the count again", () => {
    expect(tooDeep("- - a", 1)).toBe(2);
    expect(tooDeep("- - a", 2)).toBeUndefined();
    expect(tooDeep("? ? a", 1)).toBe(2);
    expect(tooDeep("- ? - a", 2)).toBe(4);
    expect(tooDeep("- a\n- b", 1)).toBeUndefined();
    expect(tooDeep("- a", 1)).toBeUndefined();
    expect(tooDeep("- [[x]]", 1)).toBe(3);
    // Inside a flow collection, `-` is not a compact block indicator.
    expect(tooDeep("[- - - a]", 2)).toBeUndefined();
  });
});

describe("parseYamlBlock refuses a block nested past its cap", () => {
  it("without parsing it: an empty document, no aliases, one error at the offset", () => {
    const refused = parseYamlBlock("a: 1\nb: [[x]]", { maxDepth: 1 });
    expect(refused.errors).toEqual([{ offset: 9, message: "collections nested deeper than 1 levels; refused" }]);
    expect(refused.doc.contents).toBeNull();
    expect(refused.doc.errors).toEqual([]);
    expect(refused.aliases.size).toBe(0);
  });

  it("counts the lines of a refused block, so its caller can name the line and column", () => {
    const counter = new LineCounter();
    const refused = parseYamlBlock("a: 1\nb: 2\n[[x]]", { maxDepth: 1, lineCounter: counter });
    expect(refused.errors[0]!.offset).toBe(11);
    expect(counter.lineStarts).toEqual([0, 5, 10]);
    expect(counter.linePos(refused.errors[0]!.offset)).toEqual({ line: 3, col: 2 });
    const first = new LineCounter();
    const atStart = parseYamlBlock("[[x]]\na: 1", { maxDepth: 1, lineCounter: first });
    expect(first.linePos(atStart.errors[0]!.offset)).toEqual({ line: 1, col: 2 });
  });

  it("reads a block at the cap, and keeps yaml's own messages without positions", () => {
    const read = parseYamlBlock("a: [[x]]", { maxDepth: 2 });
    expect(read.errors).toEqual([]);
    expect(read.doc.toJS()).toEqual({ a: [["x"]] });
    expect(parseYamlBlock("a: @x").errors).toEqual([
      { offset: 3, message: "Plain value cannot start with reserved character @" },
    ]);
  });

  it("never throws with the cap off: nesting deeper than the stack is an error at the place it stopped", () => {
    const deep = parseYamlBlock("[".repeat(20_000), { maxDepth: Number.POSITIVE_INFINITY });
    expect(deep.errors[0]!.message).toBe("collections nested too deeply to read");
    expect(deep.errors[0]!.offset).toBeGreaterThan(0);
  });
});

describe("parseYamlBlock's errors", () => {
  it("come in source order, yaml's own and the duplicate keys alike", () => {
    // yaml reports this block's errors out of order (1, 0, 6).
    const offsets = (block: string) => parseYamlBlock(block).errors.map((e) => e.offset);
    expect(offsets("\t}'*x,")).toEqual([0, 1, 6]);
    expect(offsets("a: 1\na: 2\nb: @x")).toEqual([5, 13]);
    expect(offsets("b: @x\na: 1\na: 2")).toEqual([3, 11]);
  });
});
