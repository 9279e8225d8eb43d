// Runs no python3 and no uv: these are the pure TypeScript parsers of Python text, so no tool gate is needed.
// Typed script tools, the pure parts: docstring styles, PEP 723 blocks, annotation trees → JSON Schema.
import { describe, expect, it } from "vitest";
import { parseDocstring } from "../packages/engine/src/code/python/docstring.js";
import { scriptMetadata } from "../packages/engine/src/code/python/pep723.js";
import { annotationSchema } from "../packages/engine/src/code/python/annotation-schema.js";
import { toolName } from "../packages/engine/src/code/python/tool-spec.js";

describe("parseDocstring", () => {
  it("Google style: summary paragraph on one line, typed and untyped entries, continuation lines, the section ends at dedent", () => {
    const doc = parseDocstring(
      "Fills a PDF form\nfrom a JSON file.\n\nMore text.\n\nArgs:\n    path (str): The form.\n    values: Field values,\n        keyed by name.\n    *extra: Ignored.\n\nReturns:\n    values: not a parameter.\n",
    );
    expect(doc.summary).toBe("Fills a PDF form from a JSON file.");
    expect(Object.fromEntries(doc.params)).toEqual({
      path: "The form.",
      values: "Field values, keyed by name.",
      extra: "Ignored.",
    });
  });

  it("NumPy style: several names on one line, descriptions below, the next section stops it", () => {
    const doc = parseDocstring(
      "Summary.\n\nParameters\n----------\nx, y : float\n    Coordinates.\nlabel : str, optional\n    Text\n    shown.\n\nReturns\n-------\nx : not a parameter\n",
    );
    expect(Object.fromEntries(doc.params)).toEqual({ x: "Coordinates.", y: "Coordinates.", label: "Text shown." });
  });

  it("reST style, with and without a type; a summary-less docstring; an empty one", () => {
    const doc = parseDocstring(
      ":param str name: The name,\n    in full.\n:param count: How many.\n:type count: int\n:returns: nothing",
    );
    expect(doc.summary).toBeUndefined();
    expect(Object.fromEntries(doc.params)).toEqual({ name: "The name, in full.", count: "How many." });
    expect(parseDocstring(undefined)).toEqual({ summary: undefined, params: new Map() });
    expect(parseDocstring("   \n")).toEqual({ summary: undefined, params: new Map() });
  });

  it("reads long hostile lines without a parameter name as no parameters (linear scans: the test timeout bounds it)", () => {
    const doc = parseDocstring(`:param ${"a ".repeat(50_000)}\n${"Args:\n".repeat(2000)}${"    x".repeat(20_000)}`);
    expect(doc.params.size).toBe(0);
  });
});

describe("scriptMetadata (PEP 723)", () => {
  it("reads dependencies and requires-python of the script block, and keeps the block as written", () => {
    const source =
      '#!/usr/bin/env python3\n# /// script\n# requires-python = ">=3.11"\n# dependencies = ["httpx>=0.27", \'rich\']\n#\n# [tool.uv]\n# exclude-newer = "2024-01-01"\n# ///\nimport httpx\n';
    const meta = scriptMetadata(source);
    expect(meta).toEqual({
      line: 2,
      toml: 'requires-python = ">=3.11"\ndependencies = ["httpx>=0.27", \'rich\']\n\n[tool.uv]\nexclude-newer = "2024-01-01"',
      block: source.split("\n").slice(1, 8).join("\n"),
      dependencies: ["httpx>=0.27", "rich"],
      requiresPython: ">=3.11",
    });
  });

  it("no block, an unclosed block, another block type: undefined; two script blocks: an error", () => {
    expect(scriptMetadata("import os\n")).toBeUndefined();
    expect(scriptMetadata("# /// script\n# dependencies = []\nimport os\n")).toBeUndefined();
    expect(scriptMetadata("# /// pyproject\n# x = 1\n# ///\n")).toBeUndefined();
    expect(
      scriptMetadata("# /// script\n# dependencies = []\n# ///\n\n# /// script\n# dependencies = []\n# ///\n"),
    ).toEqual({ error: 'two "# /// script" blocks (lines 1 and 5)' });
  });
});

describe("annotationSchema", () => {
  const name = (id: string) => ({ k: "name" as const, id });
  const sub = (base: string, ...args: Parameters<typeof annotationSchema>[0][]) => ({
    k: "sub" as const,
    base: name(base),
    args,
    text: `${base}[...]`,
  });

  it("maps nested containers, Optional of a container, tuples and Literal of mixed types", () => {
    expect(annotationSchema(sub("typing.Optional", sub("list", sub("dict", name("str"), name("int")))))).toEqual({
      schema: {
        anyOf: [
          { type: "array", items: { type: "object", additionalProperties: { type: "integer" } } },
          { type: "null" },
        ],
      },
    });
    expect(annotationSchema(sub("Tuple", name("int"), { k: "ellipsis" }))).toEqual({
      schema: { type: "array", items: { type: "integer" } },
      tuple: true,
    });
    expect(annotationSchema(sub("tuple"))).toEqual({
      schema: { type: "array", minItems: 0, maxItems: 0, items: false },
      tuple: true,
    });
    expect(
      annotationSchema(sub("Literal", { k: "const", v: 1 }, { k: "str", v: "a" }, { k: "const", v: null })),
    ).toEqual({ schema: { enum: [1, "a", null] } });
    expect(annotationSchema({ k: "or", args: [name("int"), name("Any")], text: "int | Any" })).toEqual({ schema: {} });
  });

  it("names what cannot be expressed", () => {
    expect(annotationSchema(sub("list", name("Path")))).toEqual({ unsupported: "Path" });
    expect(annotationSchema(sub("Literal", name("X")))).toEqual({ unsupported: "Literal[...]" });
    expect(annotationSchema({ k: "str", v: "not a type(" })).toEqual({ unsupported: '"not a type("' });
    expect(annotationSchema(sub("tuple", name("int"), { k: "ellipsis" }, name("str")))).toEqual({
      unsupported: "tuple[...]",
    });
  });

  it("tool names are script stems limited to [A-Za-z0-9_-]", () => {
    expect(toolName("scripts/fill-form.py")).toBe("fill-form");
    expect(toolName("scripts/über tool.py")).toBe("_ber_tool");
    expect(toolName(`scripts/${"x".repeat(100)}.py`)).toHaveLength(64);
  });
});
