// What `validate --strict` tells the author about YAML that strictyaml (the reference validator's reader,
// agentskills/agentskills skills-ref) refuses: each construct's kind, message and place, in source order.
import { Alias, Document, Pair, Scalar, parseDocument } from "yaml";
import type { YAMLMap, YAMLSeq } from "yaml";
import { describe, expect, it } from "vitest";
import { strictFindings } from "./yaml-strict.js";

const findings = (source: string) =>
  strictFindings(parseDocument(source), source).map((f) => [f.kind, f.message, source.slice(f.offset, f.offset + 6)]);

describe("strictFindings", () => {
  it("names each refused construct at its node (an anchored or tagged value's node starts at its text)", () => {
    const source = "a: &x v\nb: *x\nc: !!str t\nd: [1]\ne: {k: v}\n";
    expect(findings(source)).toEqual([
      ["portability", "anchor &x (strictyaml refuses anchors and aliases)", "v\nb: *"],
      ["portability", "alias *x (strictyaml refuses anchors and aliases)", "*x\nc: "],
      ["portability", "tag tag:yaml.org,2002:str (strictyaml refuses explicit tags)", "t\nd: ["],
      [
        "portability",
        "flow sequence [...] (strictyaml refuses flow style; use block style or quote the value)",
        "[1]\ne:",
      ],
      [
        "portability",
        "flow mapping {...} (strictyaml refuses flow style; use block style or quote the value)",
        "{k: v}",
      ],
    ]);
  });

  it("finds keys equal as written, and complex keys, but not keys that only look alike", () => {
    expect(findings("m:\n  1: a\n  '1': b\n  01: c\n")).toEqual([["duplicate", "duplicate key '1'", "'1': b"]]);
    // Both at the key's offset: the mapping is visited before its key.
    expect(findings("? [a]\n: v\n").map(([kind, message]) => [kind, message])).toEqual([
      ["portability", "complex mapping key (strictyaml reads keys as strings only)"],
      ["portability", "flow sequence [...] (strictyaml refuses flow style; use block style or quote the value)"],
    ]);
    expect(findings("a: 1\nb: 2\n")).toEqual([]);
  });

  it("wants sibling block mappings at one column, whatever the first one's column", () => {
    expect(findings("a:\n    x: 1\nb:\n    y: 2\n")).toEqual([]);
    expect(findings("a:\n  x: 1\nb: 2\nc:\n    y: 2\nd: {z: 1}\n").slice(0, 1)).toEqual([
      ["portability", "mapping indented differently from the previous mapping (strictyaml refuses this)", "y: 2\nd"],
    ]);
  });

  it("finds tabs outside quoted text, block scalar text and comments", () => {
    const source = 'a: "q\tq"\nb: |\n  x\ty\nc: v\t\n# c\td\ne: w #\tz\n';
    expect(findings(source)).toEqual([
      ["portability", "tab character outside quoted text (strictyaml only accepts spaces there)", "\t\n# c\t"],
    ]);
    expect(findings("a: 'x\ty'\n")).toEqual([]);
    expect(findings("a: x#\ty\n")).toHaveLength(1);
  });
});

describe("strictFindings: places and order", () => {
  const tabs = (source: string) => strictFindings(parseDocument(source), source).map((f) => f.offset);

  it("reports findings in source order, the tabs among the others", () => {
    const source = "a: x\t\nb: [1]\nc: !!str d\n";
    expect(strictFindings(parseDocument(source), source).map((f) => [f.offset, f.message.split(" ")[0]])).toEqual([
      [4, "tab"],
      [9, "flow"],
      [22, "tag"],
    ]);
  });

  it("finds a tab before a quoted value on the same line, and one that indents a block scalar's line", () => {
    expect(tabs('a:\tx\nb: "q"\n')).toEqual([2]);
    expect(tabs("b: |\n\t\n  x\n")).toEqual([5]);
  });

  it("reads text after a tab and `#` as a comment, and tabs inside folded text as text", () => {
    expect(tabs("a: x\t#\tc\n")).toEqual([4]);
    expect(tabs("b: >\n  x\ty\n")).toEqual([]);
  });

  it("compares sibling mappings' columns, whatever the length of the first key, and leaves flow mappings out", () => {
    expect(findings("a:\n  ? x\n  : 1\nb:\n  ? yy\n  : 2\n")).toEqual([]);
    expect(findings("a:\n  x: 1\nb: {y: 1}\n")).toEqual([
      [
        "portability",
        "flow mapping {...} (strictyaml refuses flow style; use block style or quote the value)",
        "{y: 1}",
      ],
    ]);
  });

  it("reads a document built in code (no source places) without throwing, each finding at offset 0", () => {
    const doc = new Document({ a: [1], b: { c: {} }, d: {} });
    const a = doc.get("a", true) as YAMLSeq;
    a.flow = true;
    a.anchor = "x";
    a.tag = "!t";
    doc.set(new Scalar("e"), new Alias("x"));
    expect(strictFindings(doc, "").map((f) => [f.offset, f.message.split(" ")[0]])).toEqual([
      [0, "anchor"],
      [0, "tag"],
      [0, "flow"],
      [0, "alias"],
    ]);
    // Its scalars have no place to exclude from the tab search either.
    expect(strictFindings(doc, "\t").map((f) => f.message.split(" ")[0])).toEqual([
      "anchor",
      "tag",
      "flow",
      "alias",
      "tab",
    ]);
  });

  it("says nothing of a pair without a key (`[: a]`, or pairs built in code), not even twice", () => {
    expect(findings("[: a]\n").map(([, message]) => (message ?? "").split(" ")[0])).toEqual(["flow", "flow"]);
    const doc = new Document({});
    (doc.contents as YAMLMap).items.push(new Pair<unknown, unknown>(null, 1), new Pair<unknown, unknown>(null, 2));
    expect(strictFindings(doc, "")).toEqual([]);
  });
});
