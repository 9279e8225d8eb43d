// Reading YAML nodes as values (`asWritten` for the loader and validator, `typedValue` for typed fields,
// `scalarText` for keys): null values, aliases to nothing (`globs: *.ts`), the alias table, keys that are
// not strings, documents built in code, and the caps' typed errors.
import { Alias, Document, Scalar, parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { SkillctxError } from "./errors.js";
import { parseYamlBlock } from "./yaml-document.js";
import { asWritten, scalarText, typedValue, unresolvedAliases } from "./yaml-values.js";

/** The error `run` throws (fails the test when it does not throw). */
function thrown(run: () => unknown): SkillctxError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SkillctxError);
    return error as SkillctxError;
  }
  throw new Error("did not throw");
}

describe("scalarText", () => {
  it("gives a scalar's text as written, an alias's target text, and '*name' for an alias to nothing", () => {
    const { doc, aliases } = parseYamlBlock("a: &x 010\nb: *x\nc: *.ts\nd: [1]\ne:\n");
    const value = (key: string) => (doc.get(key, true) as unknown) ?? null;
    for (const table of [aliases, undefined]) {
      expect(scalarText(value("a"), doc, table)).toBe("010");
      expect(scalarText(value("b"), doc, table)).toBe("010");
      expect(scalarText(value("c"), doc, table)).toBe("*.ts");
      expect(scalarText(value("d"), doc, table)).toBeUndefined();
      expect(scalarText(value("e"), doc, table)).toBe("");
    }
    expect(scalarText(null, doc)).toBe("");
    expect(scalarText(undefined, doc)).toBe("");
  });

  it("gives a scalar built in code (no source text) as its value's text", () => {
    const doc = new Document({ n: 5, z: null });
    expect(scalarText(doc.get("n", true), doc)).toBe("5");
    expect(scalarText(doc.get("z", true), doc)).toBe("");
    expect(scalarText(new Scalar(undefined), doc)).toBe("");
  });
});

describe("asWritten and typedValue", () => {
  it("give null values as '' and null, and values that are not yaml nodes as they are", () => {
    const doc = parseDocument("a:\n");
    expect(asWritten(null, doc)).toBe("");
    expect(typedValue(null, doc)).toBeNull();
    expect(asWritten(undefined, doc)).toBe("");
    expect(asWritten("plain", doc)).toBe("plain");
    expect(typedValue(7, doc)).toBe(7);
  });

  it("make enumerable own keys, so the result lists and serialises", () => {
    const doc = parseDocument("b: 1\na: [x]\n");
    const written = asWritten(doc.contents, doc) as Record<string, unknown>;
    expect(Object.keys(written)).toEqual(["b", "a"]);
    expect(JSON.stringify(written)).toBe('{"b":"1","a":["x"]}');
  });

  it("name keys as yaml's toJS does: numbers and NaN as text, collections as JSON", () => {
    const doc = parseDocument("1: one\n.nan: n\n.inf: i\n? [a, b]\n: s\n? {k: v}\n: m\n");
    expect(Object.keys(typedValue(doc.contents, doc) as object)).toEqual([
      "1",
      "NaN",
      "Infinity",
      '["a","b"]',
      '{"k":"v"}',
    ]);
    expect(Object.keys(asWritten(doc.contents, doc) as object)).toEqual([
      "1",
      ".nan",
      ".inf",
      '["a","b"]',
      '{"k":"v"}',
    ]);
  });

  it("read a document built in code: scalars without source text are their values", () => {
    const doc = new Document({ n: 5, t: true, z: null });
    expect(asWritten(doc.contents, doc)).toEqual({ n: "5", t: "true", z: "" });
  });

  it("resolve an alias the table does not hold through the document", () => {
    const { doc } = parseYamlBlock("a: &x 1\nb: *x\n");
    expect(typedValue(doc.contents, doc, new Map())).toEqual({ a: 1, b: 1 });
    expect(asWritten(doc.contents, doc, new Map())).toEqual({ a: "1", b: "1" });
  });
});

describe("the caps throw YAML_INVALID", () => {
  it("counts only values reached through aliases, not plain ones", () => {
    const doc = parseDocument("a: [x, y, z]\nb: {c: d}\n");
    expect(typedValue(doc.contents, doc, undefined, { maxAliasExpansions: 1 })).toEqual({
      a: ["x", "y", "z"],
      b: { c: "d" },
    });
    const bomb = parseDocument("a: &a [x, y]\nb: [*a, *a]\n");
    const error = thrown(() => typedValue(bomb.contents, bomb, undefined, { maxAliasExpansions: 5 }));
    expect(error.code).toBe("YAML_INVALID");
    expect(error.message).toContain("more than 5 values (an alias bomb)");
    expect(typedValue(bomb.contents, bomb, undefined, { maxAliasExpansions: 6 })).toEqual({
      a: ["x", "y"],
      b: [
        ["x", "y"],
        ["x", "y"],
      ],
    });
  });

  it("counts the depth of mapping values and keys", () => {
    const maps = parseDocument("a: {b: {c: 1}}\n");
    // The top mapping is at depth 0, the scalar 1 at depth 3.
    expect(typedValue(maps.contents, maps, undefined, { maxDepth: 3 })).toEqual({ a: { b: { c: 1 } } });
    const deep = thrown(() => typedValue(maps.contents, maps, undefined, { maxDepth: 2 }));
    expect(deep.code).toBe("YAML_INVALID");
    expect(deep.message).toBe("values nested deeper than 2 levels; refused");
    const keys = parseDocument("? [[x]]\n: 1\n");
    expect(Object.keys(asWritten(keys.contents, keys, undefined, { maxDepth: 3 }) as object)).toEqual(['[["x"]]']);
    expect(thrown(() => asWritten(keys.contents, keys, undefined, { maxDepth: 2 })).code).toBe("YAML_INVALID");
  });

  it("refuses an alias inside the value it names", () => {
    const doc = parseDocument("a: &a [x, *a]\n");
    const error = thrown(() => asWritten(doc.contents, doc));
    expect(error.code).toBe("YAML_INVALID");
    expect(error.message).toBe("alias *a is inside the value it names; refused");
  });
});

describe("unresolvedAliases", () => {
  it("lists aliases to nothing in document order, with or without the alias table", () => {
    const source = "a: *.ts\nb: &x 1\nc: *x\nd: [*nope]\n";
    const { doc, aliases } = parseYamlBlock(source);
    const expected = [
      { text: "*.ts", offset: 3 },
      { text: "*nope", offset: source.indexOf("*nope") },
    ];
    expect(unresolvedAliases(doc, aliases)).toEqual(expected);
    expect(unresolvedAliases(doc)).toEqual(expected);
  });

  it("gives an alias built in code, without a place in any text, offset 0", () => {
    const doc = new Document({ a: 1 });
    doc.set("b", new Alias("gone"));
    expect(unresolvedAliases(doc)).toEqual([{ text: "*gone", offset: 0 }]);
  });
});
