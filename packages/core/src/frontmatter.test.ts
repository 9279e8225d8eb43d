import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "./frontmatter.js";
import { normalizeText, splitFrontmatter } from "./frontmatter-split.js";
import { FrontmatterScanner } from "./frontmatter-scan.js";

describe("splitFrontmatter", () => {
  it("cuts a plain file into block and body with lines and offsets", () => {
    const text = "---\nname: a\ndescription: b\n---\n# Title\nbody\n";
    const split = splitFrontmatter(text);
    expect(split.frontmatter).toBe("name: a\ndescription: b");
    expect(split.body).toBe("# Title\nbody\n");
    expect(split.bodyLine).toBe(5);
    expect(text.slice(split.bodyOffset)).toBe(split.body);
    expect(split.frontmatterLine).toBe(2);
  });

  it("tolerates a BOM, leading blank lines and CRLF", () => {
    const split = splitFrontmatter("\uFEFF\r\n  \r\n---\r\nname: a\r\n---\r\nbody\r\n");
    expect(split.frontmatter).toBe("name: a");
    expect(split.body).toBe("body\n");
    expect(split.bodyLine).toBe(6);
    expect(normalizeText("\uFEFF\r\n  \r\n---\r\nname: a\r\n---\r\nbody\r\n").slice(split.bodyOffset)).toBe("body\n");
  });

  it("accepts fences of more than three dashes and trailing blanks", () => {
    const split = splitFrontmatter("-----  \nname: a\n----\nbody");
    expect(split.frontmatter).toBe("name: a");
    expect(split.body).toBe("body");
  });

  it("never closes at dashes inside a block scalar, an indented line or a value", () => {
    const text = "---\ndescription: |\n  before\n  ---\n  after\nnote: a --- b\n---\nbody";
    const split = splitFrontmatter(text);
    expect(split.frontmatter).toBe("description: |\n  before\n  ---\n  after\nnote: a --- b");
    expect(split.body).toBe("body");
  });

  it("never closes inside a quoted value that spans lines", () => {
    const text = '---\ndescription: "starts here\n---\nends here"\nname: a\n---\nbody';
    const split = splitFrontmatter(text);
    expect(split.frontmatter).toBe('description: "starts here\n---\nends here"\nname: a');
    expect(split.body).toBe("body");
  });

  it("handles single quotes with doubled quotes and escaped double quotes", () => {
    expect(splitFrontmatter("---\na: 'it''s\n---\nstill'\n---\nbody").body).toBe("body");
    expect(splitFrontmatter('---\na: "say \\"x\n---\ny"\n---\nbody').body).toBe("body");
    // Closed on its own line: the next fence closes the block.
    expect(splitFrontmatter("---\na: 'closed'\n---\nbody").body).toBe("body");
  });

  it("keeps the whole text as body when there is no opening fence", () => {
    const text = "# Title\n---\nname: a\n---\n";
    expect(splitFrontmatter(text)).toEqual({ frontmatter: undefined, body: text, bodyLine: 1, bodyOffset: 0 });
  });

  it("marks an unclosed block and keeps everything", () => {
    const split = splitFrontmatter("---\nname: a\nbody\n");
    expect(split.frontmatter).toBeUndefined();
    expect(split.unclosed).toBe(true);
    expect(split.body).toBe("---\nname: a\nbody\n");
  });

  it("reads a head-only text (no body, no final newline)", () => {
    const split = splitFrontmatter("---\nname: a\n---");
    expect(split.frontmatter).toBe("name: a");
    expect(split.body).toBe("");
    expect(split.bodyLine).toBe(4);
  });

  it("counts the body of a text that ends on its closing fence from the line after it, whatever the line ends", () => {
    for (const text of ["---\n---", "---\r---", "---\r\n---"]) {
      expect(splitFrontmatter(text), JSON.stringify(text)).toMatchObject({
        frontmatter: "",
        body: "",
        bodyLine: 3,
        bodyOffset: 7,
      });
    }
  });

  it("reads an empty block", () => {
    expect(splitFrontmatter("---\n---\nbody").frontmatter).toBe("");
  });

  it("takes only three or more dashes and blanks as a fence, and tabs as blank lines before it", () => {
    expect(splitFrontmatter("\t\n \t\n---\t\nname: a\n--- \t\nbody")).toMatchObject({
      frontmatter: "name: a",
      body: "body",
      fenceLine: 3,
      frontmatterLine: 4,
      bodyLine: 6,
    });
    for (const text of [
      "--\nname: a\n--\nbody",
      "---x\nname: a\n---\nbody",
      " ---\nname: a\n---\nbody",
      "x\n---\na: 1\n---\n",
    ])
      expect(splitFrontmatter(text).frontmatter, JSON.stringify(text)).toBeUndefined();
    expect(splitFrontmatter("---\nname: a\n--\n---x\n---\nbody").frontmatter).toBe("name: a\n--\n---x");
    expect(splitFrontmatter("---").unclosed).toBe(true);
  });
});

describe("parseFrontmatter", () => {
  it("reads every scalar as written", () => {
    const { data, diagnostics } = parseFrontmatter("---\nname: 123\nflag: true\nempty:\nnull: ~\nfloat: 1.0\n---\n");
    expect(data).toEqual({ name: "123", flag: "true", empty: "", null: "~", float: "1.0" });
    expect(diagnostics).toEqual([]);
  });

  it("reads lists, nested maps, block and quoted scalars", () => {
    const { data } = parseFrontmatter(
      '---\nlist:\n  - a\n  - 2\nmap:\n  k: v\nlit: |\n  x\n  y\nfold: >-\n  p\n  q\nq: "a\\tb"\n---\n',
    );
    expect(data).toEqual({ list: ["a", "2"], map: { k: "v" }, lit: "x\ny\n", fold: "p q", q: "a\tb" });
  });

  it("retries a value with an unquoted ': ' as a quoted string, with a warning on its line", () => {
    const { data, diagnostics, body } = parseFrontmatter(
      "---\nname: a\ndescription: Use when: the user asks\n---\nbody",
      {
        path: "x/SKILL.md",
      },
    );
    expect(data).toEqual({ name: "a", description: "Use when: the user asks" });
    expect(body).toBe("body");
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      code: "YAML_UNQUOTED_COLON",
      severity: "warning",
      path: "x/SKILL.md",
      line: 3,
    });
  });

  it("retries a multi-line plain value with quotes and backslashes inside", () => {
    const { data } = parseFrontmatter(
      '---\ndescription: Use when: a "quoted" \\ word\n  continues: here\nname: a\n---\n',
    );
    expect(data).toEqual({ description: 'Use when: a "quoted" \\ word continues: here', name: "a" });
  });

  it("does not touch block scalar lines when retrying", () => {
    const text = "---\nusage: |\n  Usage: x\ndescription: Use when: y\n---\n";
    expect(parseFrontmatter(text).data).toEqual({ usage: "Usage: x\n", description: "Use when: y" });
  });

  it("reports broken YAML with the file line and keeps the whole text", () => {
    // A sequence item beside a mapping key: no repair (Codex's included) can read it.
    const text = "\n---\nname: a\n- bad\n---\nbody\n";
    const parsed = parseFrontmatter(text, { path: "f.md" });
    expect(parsed.data).toBeUndefined();
    expect(parsed.body).toBe(text);
    expect(parsed.bodyLine).toBe(1);
    expect(parsed.diagnostics.length).toBeGreaterThan(0);
    expect(parsed.diagnostics[0]).toMatchObject({ code: "YAML_INVALID", severity: "error", path: "f.md" });
    expect(parsed.diagnostics[0]!.line).toBeGreaterThanOrEqual(4);
  });

  it("treats duplicate keys as broken YAML", () => {
    const parsed = parseFrontmatter("---\na: 1\na: 2\n---\n");
    expect(parsed.data).toBeUndefined();
    expect(parsed.diagnostics).toMatchObject([{ code: "YAML_INVALID", line: 3 }]);
  });

  it("keeps the whole text when the block is not a mapping", () => {
    const text = "---\n- a\n- b\n---\nbody";
    const parsed = parseFrontmatter(text);
    expect(parsed.data).toBeUndefined();
    expect(parsed.body).toBe(text);
    expect(parsed.diagnostics).toMatchObject([{ code: "FRONTMATTER_NOT_MAPPING", severity: "warning", line: 2 }]);
  });

  it("reads an empty or comment-only block as no metadata", () => {
    expect(parseFrontmatter("---\n# nothing\n---\nbody")).toEqual({
      data: {},
      body: "body",
      bodyLine: 4,
      diagnostics: [],
    });
  });

  it("warns about an unclosed block and keeps the text", () => {
    const parsed = parseFrontmatter("\n---\nname: a\n");
    expect(parsed.data).toBeUndefined();
    expect(parsed.body).toBe("\n---\nname: a\n");
    expect(parsed.diagnostics).toMatchObject([{ code: "FRONTMATTER_UNCLOSED", line: 2 }]);
  });

  it("returns no data and no diagnostics for a file without frontmatter", () => {
    expect(parseFrontmatter("# Just markdown\n")).toEqual({
      data: undefined,
      body: "# Just markdown\n",
      bodyLine: 1,
      diagnostics: [],
    });
  });

  it("never lets a __proto__ key change a prototype: the key is dropped, with a warning", () => {
    const { data, diagnostics } = parseFrontmatter("---\n__proto__:\n  polluted: yes\n---\n");
    expect(Object.keys(data!)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(["FIELD_INVALID"]);
  });

  it("drops a nested __proto__ key (a mapping's, a list item's) with a warning that names the field", () => {
    const cases: [string, unknown, string][] = [
      ["meta:\n  k: v\n  __proto__: x", { k: "v" }, "meta.__proto__"],
      ["meta:\n- __proto__: x", [{}], "meta[0].__proto__"],
      ["meta:\n- k: 1\n  __proto__: x", [{ k: "1" }], "meta[0].__proto__"],
    ];
    for (const [block, meta, field] of cases) {
      const { data, diagnostics } = parseFrontmatter(`---\nname: s\n${block}\n---\n`);
      expect(data, block).toEqual({ name: "s", meta });
      expect(
        diagnostics.map((d) => [d.code, d.severity, d.message]),
        block,
      ).toEqual([["FIELD_INVALID", "warning", `field ${field} is not kept (it would change an object's prototype)`]]);
    }
  });

  it("refuses alias bombs", () => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 8; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    const parsed = parseFrontmatter(`---\n${lines.join("\n")}\n---\n`);
    expect(parsed.data).toBeUndefined();
    expect(parsed.diagnostics[0]?.code).toBe("YAML_INVALID");
  });
});

describe("parseFrontmatter: aliases that name no anchor", () => {
  it("keeps `globs: *.ts` as the text the author wrote, with a warning on its line", () => {
    const result = parseFrontmatter("---\ndescription: TS rules\nglobs: *.ts\n---\nbody\n", { path: "r.mdc" });
    expect(result.data).toEqual({ description: "TS rules", globs: "*.ts" });
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([["YAML_UNRESOLVED_ALIAS", 3]]);
  });

  it("still resolves a real alias", () => {
    const result = parseFrontmatter("---\na: &x hello\nb: *x\n---\n");
    expect(result.data).toEqual({ a: "hello", b: "hello" });
    expect(result.diagnostics).toEqual([]);
  });
});

describe("parseFrontmatter: __proto__ keys", () => {
  it.each([
    ["top level", "---\n__proto__: x\nname: a\n---\n", { name: "a" }, "field __proto__"],
    [
      "in a mapping",
      "---\nmetadata:\n  __proto__: a\n  ok: b\n---\n",
      { metadata: { ok: "b" } },
      "field metadata.__proto__",
    ],
    [
      "in a flow mapping",
      "---\nmcp_tools: {__proto__: {command: x}}\n---\n",
      { mcp_tools: {} },
      "field mcp_tools.__proto__",
    ],
  ])("drops one %s, with a warning", (_where, text, data, named) => {
    const result = parseFrontmatter(text, { path: "f.md" });
    expect(result.data).toEqual(data);
    expect(JSON.stringify(result.data)).not.toContain("__proto__");
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ code: "FIELD_INVALID", severity: "warning", path: "f.md" });
    expect(result.diagnostics[0]!.message).toContain(named);
  });
});

describe("splitFrontmatter: the size cap", () => {
  const block = `name: a\ndescription: ${"x".repeat(200)}`;

  it("stops at the cap: too large when a fence line follows, unclosed when none does", () => {
    const closed = `\n---\n${block}\n---\nbody\n`;
    expect(splitFrontmatter(closed, { maxFrontmatterChars: 100 })).toMatchObject({
      frontmatter: undefined,
      tooLarge: true,
      fenceLine: 2,
      body: closed,
    });
    expect(splitFrontmatter(closed, { maxFrontmatterChars: 1000 })).toMatchObject({
      frontmatter: block,
      fenceLine: 2,
      frontmatterLine: 3,
    });
    const open = `---\n${block}\nmore\n`;
    const split = splitFrontmatter(open, { maxFrontmatterChars: 100 });
    expect(split).toMatchObject({ frontmatter: undefined, unclosed: true, fenceLine: 1 });
    expect(split.tooLarge).toBeUndefined();
  });

  it("makes a block over the cap an error of parseFrontmatter, keeping the whole text", () => {
    const text = `---\n${block}\n---\nbody\n`;
    const parsed = parseFrontmatter(text, { path: "big.md", maxFrontmatterChars: 100 });
    expect(parsed.data).toBeUndefined();
    expect(parsed.body).toBe(text);
    expect(parsed.diagnostics).toMatchObject([
      { code: "FRONTMATTER_TOO_LARGE", severity: "error", path: "big.md", line: 1 },
    ]);
    expect(parsed.diagnostics[0]!.message).toContain("longer than 100 characters");
  });

  it("is the default for every reader: 256 KiB", () => {
    const big = `---\nname: a\nd: ${"x".repeat(262_144)}\n---\nbody\n`;
    expect(splitFrontmatter(big).tooLarge).toBe(true);
    expect(splitFrontmatter(`---\nname: a\nd: ${"x".repeat(262_000)}\n---\nbody\n`).frontmatter).toBeDefined();
  });
});

describe("splitFrontmatter: the shortcuts agree with the line scanner", () => {
  // The block's end as the scanner alone finds it, line by line (what splitFrontmatter did before its shortcuts).
  function scannedEnd(text: string): string | undefined {
    const lines = normalizeText(text).split("\n");
    const open = lines.findIndex((l) => l.trim() !== "");
    if (open === -1 || !/^-{3,}[ \t]*$/.test(lines[open]!)) return undefined;
    const scanner = new FrontmatterScanner();
    for (let i = open + 1; i < lines.length; i++)
      if (scanner.push(lines[i]!).closes) return lines.slice(open + 1, i).join("\n");
    return undefined;
  }

  it("ends the block where the scanner does, on generated blocks with quotes, block scalars and fences inside", () => {
    const piece = fc.constantFrom("a", "b c", "'", '"', "''", '\\"', "---", "# x", ": ", "|", ">", "-", "x:y", " ");
    const text = fc.array(piece, { maxLength: 4 }).map((p) => p.join(""));
    const line = fc.oneof(
      text.map((t) => `name: ${t}`),
      text.map((t) => `description: "${t}`),
      text.map((t) => `description: '${t}'`),
      text.map((t) => `  ${t}`),
      text.map((t) => `- ${t}`),
      fc.constantFrom(
        "description: |",
        "description: >-",
        "tags:",
        "---",
        "----  ",
        "",
        "# c",
        "meta:",
        '  author: "A"',
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.array(line, { maxLength: 3 }), (block, after) => {
        const file = ["---", ...block, "---", ...after, "body"].join("\n");
        expect(splitFrontmatter(file).frontmatter).toBe(scannedEnd(file));
      }),
      { numRuns: 5000 },
    );
  });

  it("reads a quoted value that hides a fence line to its real end", () => {
    const text = '---\nname: a\ndescription: "one\n---\ntwo"\nlicense: MIT\n---\nbody\n';
    expect(splitFrontmatter(text).frontmatter).toBe('name: a\ndescription: "one\n---\ntwo"\nlicense: MIT');
    expect(splitFrontmatter(text).body).toBe("body\n");
  });
});
