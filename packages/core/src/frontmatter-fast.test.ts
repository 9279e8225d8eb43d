import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { isMap, parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { splitFrontmatter } from "./frontmatter-split.js";
import { parseSimpleFrontmatter } from "./frontmatter-fast.js";
import { asWritten } from "./yaml-values.js";

/** What the `yaml` package reads, scalars as written; undefined when it is not a clean mapping. */
function viaYaml(block: string): unknown {
  const doc = parseDocument(block, { uniqueKeys: true });
  if (doc.errors.length > 0) return "YAML ERROR";
  if (doc.contents === null) return {};
  return isMap(doc.contents) ? asWritten(doc.contents, doc) : "NOT A MAPPING";
}

const corpus = process.env["SKILLCTX_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus/", import.meta.url));
const HAS_CORPUS = existsSync(corpus); // absent on a fresh clone: the corpus test is skipped (test/setup/corpus.ts says so)

describe("parseSimpleFrontmatter", () => {
  it("reads the subset exactly as yaml does, with key lines", () => {
    const block = [
      "name: pdf",
      "description: >-",
      "  Folded text",
      "  on two lines.",
      "",
      "  New paragraph.",
      "literal: |",
      "  a",
      "    indented",
      "",
      "list:",
      "- one",
      "- 'it''s'",
      "map:",
      '  author: "Ann"',
      "  empty:",
      "# comment",
      "n: 123",
    ].join("\n");
    const fast = parseSimpleFrontmatter(block);
    expect(fast?.data).toEqual(viaYaml(block));
    expect(fast?.data).toMatchObject({
      description: "Folded text on two lines.\nNew paragraph.",
      literal: "a\n  indented\n",
      n: "123",
    });
    expect(fast?.keyLines.get("list")).toBe(10);
  });

  it.each([
    ["a colon in a value", "a: b: c"],
    ["a comment after a value", "a: b # c"],
    ["a flow list", "a: [x, y]"],
    ["an escape in double quotes", 'a: "x\\ty"'],
    ["a multi-line plain value", "a: x\n  y"],
    ["a tab", "a:\tb"],
    ["a duplicate key", "a: 1\na: 2"],
    ["an anchor", "a: &x y"],
    ["a keep-chomping block", "a: |+\n  x\n"],
    ["a nested mapping two levels deep", "a:\n  b:\n    c: d"],
  ])("leaves %s to the full parser", (_what, block) => {
    expect(parseSimpleFrontmatter(block)).toBeUndefined();
  });

  it.runIf(HAS_CORPUS)("agrees with yaml on every corpus frontmatter it reads, and reads most of them", async () => {
    let read = 0;
    let total = 0;
    for (const collection of await readdir(corpus)) {
      const dir = path.join(corpus, collection);
      if (!(await readdir(corpus, { withFileTypes: true })).find((e) => e.name === collection)?.isDirectory()) continue;
      for (const skill of await readdir(dir)) {
        const text = await readFile(path.join(dir, skill, "SKILL.md"), "utf8").catch(() => undefined);
        const block = text === undefined ? undefined : splitFrontmatter(text).frontmatter;
        if (block === undefined) continue;
        total++;
        const fast = parseSimpleFrontmatter(block);
        if (fast === undefined) continue;
        read++;
        expect(fast.data, skill).toEqual(viaYaml(block));
      }
    }
    expect(total).toBe(246);
    expect(read / total).toBeGreaterThan(0.9);
  });

  it("agrees with yaml on generated blocks whenever it reads them", () => {
    const word = fc.constantFrom(
      "a",
      "b c",
      "x:y",
      "-1",
      "?q",
      "'",
      '"',
      "#",
      " #",
      ": ",
      "|",
      ">",
      "é",
      "",
      "  ",
      "true",
      "~",
      "[",
      "1.0",
      "--",
      "a'b",
      'a"b',
      // Indicators that open a value only when alone or before a blank, document markers, and the characters
      // the fast reader leaves to the full parser (tabs, controls, line and paragraph separators, a BOM).
      "-",
      "?",
      ":",
      "---",
      "...",
      "\t",
      "\u0001",
      "\u0085",
      "\u2028",
      "\ufeff",
    );
    const text = fc.array(word, { maxLength: 4 }).map((w) => w.join(""));
    const value = fc.oneof(
      text,
      text.map((t) => `"${t}"`),
      text.map((t) => `'${t}'`),
      fc
        .tuple(
          fc.constantFrom("|", "|-", ">", ">-"),
          fc.array(
            fc.oneof(
              text.map((t) => `  ${t}`),
              fc.constant(""),
              text.map((t) => `    ${t}`),
            ),
            { maxLength: 4 },
          ),
        )
        .map(([h, ls]) => [h, ...ls].join("\n")),
      fc
        .array(
          text.map((t) => `  - ${t}`),
          { maxLength: 3 },
        )
        .map((ls) => ["", ...ls].join("\n")),
      fc
        .array(
          text.map((t) => `- ${t}`),
          { maxLength: 3 },
        )
        .map((ls) => ["", ...ls].join("\n")),
      fc
        .array(
          fc.tuple(fc.constantFrom("k", "author", "v1"), text).map(([k, t]) => `  ${k}: ${t}`),
          { maxLength: 3 },
        )
        .map((ls) => ["", ...ls].join("\n")),
    );
    const entry = fc
      .tuple(fc.constantFrom("name", "description", "metadata", "x-y", "a.b", "1", "_"), value)
      .map(([k, v]) => `${k}:${v.startsWith("\n") ? "" : " "}${v}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, fc.constant(""), fc.constant("# c")), { maxLength: 5 }), (entries) => {
        const block = entries.join("\n");
        const fast = parseSimpleFrontmatter(block);
        if (fast !== undefined) expect(fast.data).toEqual(viaYaml(block));
      }),
      { numRuns: 5000 },
    );
  });

  it("agrees with yaml on generated blocks of several keys, and gives each key's line", () => {
    const value = fc.oneof(
      { arbitrary: fc.constantFrom("x", "hello world", "'q'", '"d"', "", "1.5", "é", "|", ">-"), weight: 8 },
      { arbitrary: fc.constantFrom("a: b", "  ", "[a]", "- x", "#c", "x #c", "-"), weight: 1 },
    );
    const below = fc.oneof(
      { arbitrary: fc.constantFrom("  k: v", "  - a", "- b", "", "  # c", "  text", "  k2: 'v'"), weight: 8 },
      { arbitrary: fc.constantFrom("   ", "    deep", "-", "-x", "#top", "  k: a: b", "?x"), weight: 1 },
    );
    const before = fc.constantFrom("", "# c", "   ", "  # c", "#", " ");
    const entry = fc.tuple(
      value,
      fc.array(below, { maxLength: 4 }),
      fc.array(before, { maxLength: 2 }),
      fc.constantFrom(": ", ":", ":  "),
    );
    const keys = fc.uniqueArray(
      fc.constantFrom("name", "description", "metadata", "a", "b.c", "x-y", "_", "9", "license"),
      { minLength: 1, maxLength: 6 },
    );
    let read = 0;
    fc.assert(
      fc.property(
        keys,
        fc.array(entry, { minLength: 6, maxLength: 6 }),
        fc.boolean(),
        (names, entries, finalNewline) => {
          const lines: string[] = [];
          const lineOf = new Map<string, number>();
          names.forEach((key, i) => {
            const [v, more, blanks, colon] = entries[i]!;
            lines.push(...blanks);
            lineOf.set(key, lines.length);
            lines.push(v === "" ? `${key}:` : `${key}${colon}${v}`, ...more);
          });
          const block = lines.join("\n") + (finalNewline ? "\n" : "");
          const fast = parseSimpleFrontmatter(block);
          if (fast === undefined) return;
          read++;
          expect(fast.data).toEqual(viaYaml(block));
          expect([...fast.keyLines]).toEqual([...lineOf]);
        },
      ),
      { numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(50); // the generator reaches the reader's accepting paths
  });

  it("reads lists of flat mappings (`- name: x` / `  type: y`) as yaml does, and declines deeper ones", () => {
    const block = "inputs:\n  - name: a\n    required: true\n  - plain\n  - name: b\n\n    # c\n    default: 'x y'\n";
    expect(parseSimpleFrontmatter(block)?.data).toEqual({
      inputs: [{ name: "a", required: "true" }, "plain", { name: "b", default: "x y" }],
    });
    expect(parseSimpleFrontmatter(block)?.data).toEqual(viaYaml(block));
    for (const declined of [
      "inputs:\n- name: a\n  name: b", // a repeated key
      "inputs:\n- name: a\n   deeper: b", // a key off the item's column
      "inputs:\n- plain\n  k: v", // key lines under a scalar item
      "inputs:\n- __proto__: x",
      "inputs:\n- name: a: b",
    ])
      expect(parseSimpleFrontmatter(declined)).toBeUndefined();
  });

  it("agrees with yaml on generated lists of mappings whenever it reads them", () => {
    const line = fc.oneof(
      {
        arbitrary: fc.constantFrom("- k: v", "  k2: w", "- x", "-   a: b", "    c: d", "  k:", "- k:", "  j: 'q'"),
        weight: 8,
      },
      {
        arbitrary: fc.constantFrom("  - y", "  k: a: b", "- 'q': x", "  # c", "", "   e: f", "  k: v", "-"),
        weight: 2,
      },
    );
    let read = 0;
    fc.assert(
      fc.property(fc.constantFrom("", "  "), fc.array(line, { minLength: 1, maxLength: 6 }), (indent, lines) => {
        const block = `inputs:\n${lines.map((l) => (l === "" ? l : indent + l)).join("\n")}\nname: n`;
        const fast = parseSimpleFrontmatter(block);
        if (fast === undefined) return;
        read++;
        expect(fast.data).toEqual(viaYaml(block));
      }),
      { numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(50);
  });
});
