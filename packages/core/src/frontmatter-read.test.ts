/**
 * What the skill parser reads through `readFrontmatter` besides the data: each top-level key's file line and
 * its value with YAML types, on the fast path and on the full one (after a colon repair too), and the
 * full path's corners (a comment-only block, a block that is not a mapping, `__proto__` at depth).
 */
import { describe, expect, it } from "vitest";
import { parseFrontmatter, readFrontmatter, yamlMessage } from "./frontmatter.js";

const fm = (...lines: string[]) => `---\n${lines.join("\n")}\n---\nBody.\n`;

describe("readFrontmatter: key lines and typed values", () => {
  it("on the fast path", () => {
    const read = readFrontmatter(fm("a: 1", "b: true", "c: text"));
    expect([read.keyLine("a"), read.keyLine("c"), read.keyLine("zz")]).toEqual([2, 4, undefined]);
    expect([read.typedValue("a"), read.typedValue("b"), read.typedValue("c"), read.typedValue("zz")]).toEqual([
      1,
      true,
      "text",
      undefined,
    ]);
  });

  it("on the full path after a colon repair: the lines are the file's", () => {
    const read = readFrontmatter(fm("a: x: y", "b: 1", "c: [1, 2]"));
    expect(read.data).toEqual({ a: "x: y", b: "1", c: ["1", "2"] });
    expect([read.keyLine("a"), read.keyLine("b"), read.keyLine("c")]).toEqual([2, 3, 4]);
    expect([read.typedValue("b"), read.typedValue("c")]).toEqual([1, [1, 2]]);
  });

  it("on the full path, keys below blank and comment lines", () => {
    const read = readFrontmatter(fm("a: &x 1", "", "# note", "b: *x"));
    expect([read.keyLine("a"), read.keyLine("b")]).toEqual([2, 5]);
    expect(read.typedValue("b")).toBe(1);
  });
});

describe("readFrontmatter: the full path's corners", () => {
  it("reads a comment-only block the fast reader leaves (a tab) as no metadata, without a diagnostic", () => {
    expect(parseFrontmatter(fm("# note\twith a tab"))).toMatchObject({ data: {}, diagnostics: [], body: "Body.\n" });
  });

  it("says why a block that is not a mapping is read as body", () => {
    const { data, diagnostics } = parseFrontmatter(fm("- a", "- b"), { path: "x.md" });
    expect(data).toBeUndefined();
    expect(diagnostics.map((d) => [d.code, d.severity, d.line, d.message])).toEqual([
      [
        "FRONTMATTER_NOT_MAPPING",
        "warning",
        2,
        "the leading --- block is not a YAML mapping; the whole file is read as the body",
      ],
    ]);
  });

  it("names a __proto__ key two levels down by its whole path", () => {
    const { data, diagnostics } = parseFrontmatter(fm("meta:", "  inner:", "    __proto__: x", "    k: v"));
    expect(data).toEqual({ meta: { inner: { k: "v" } } });
    expect(diagnostics.map((d) => d.message)).toEqual([
      "field meta.inner.__proto__ is not kept (it would change an object's prototype)",
    ]);
  });
});

describe("yamlMessage", () => {
  it("keeps a yaml error's first line without the position the diagnostic carries", () => {
    expect(yamlMessage("Map keys must be unique at line 12, column 345:\n\na: 1\n^")).toBe("Map keys must be unique");
    expect(yamlMessage("Nested mappings are not allowed at line 3, column 10")).toBe("Nested mappings are not allowed");
    expect(yamlMessage("plain message")).toBe("plain message");
  });
});
