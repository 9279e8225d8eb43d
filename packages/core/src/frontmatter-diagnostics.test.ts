// What a user reads when a frontmatter block is off: each diagnostic's code, severity, message and file line,
// the YAML retry's results, and the key lines and typed values the skill parser asks for (issue 38: the
// survivors of the `frontmatter` mutation target).
import { describe, expect, it } from "vitest";
import { parseFrontmatter, readFrontmatter, yamlMessage } from "./frontmatter.js";
import { MAX_YAML_ERRORS } from "./limits.js";

const block = (lines: string[], lead = "") => `${lead}---\n${lines.join("\n")}\n---\nbody\n`;

describe("frontmatter diagnostics: severities, messages and lines", () => {
  it("an unclosed block is a warning on the fence's line, and the whole text stays the body", () => {
    const text = "\n\n---\nname: a\n";
    const parsed = parseFrontmatter(text, { path: "a/SKILL.md" });
    expect(parsed).toEqual({
      data: undefined,
      body: text,
      bodyLine: 1,
      diagnostics: [
        {
          code: "FRONTMATTER_UNCLOSED",
          severity: "warning",
          message: "frontmatter opened with --- is never closed; the whole file is read as the body",
          path: "a/SKILL.md",
          line: 3,
        },
      ],
    });
  });

  it("a block over the cap names the cap with thousands separators", () => {
    const parsed = parseFrontmatter(block([`d: ${"x".repeat(1500)}`], "\n"), { maxFrontmatterChars: 1200 });
    expect(parsed.diagnostics).toEqual([
      {
        code: "FRONTMATTER_TOO_LARGE",
        severity: "error",
        message: "frontmatter is longer than 1,200 characters; not read",
        line: 2,
      },
    ]);
  });

  it(`reports exactly ${MAX_YAML_ERRORS} YAML errors without a count line, and counts from the next one on`, () => {
    const bad = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: @x`);
    const exact = parseFrontmatter(block(bad(MAX_YAML_ERRORS)));
    expect(exact.diagnostics).toHaveLength(MAX_YAML_ERRORS);
    expect(exact.diagnostics.map((d) => d.line)).toEqual(bad(MAX_YAML_ERRORS).map((_, i) => i + 2));
    const over = parseFrontmatter(block(bad(MAX_YAML_ERRORS + 3)), { path: "f.md" });
    expect(over.diagnostics).toHaveLength(MAX_YAML_ERRORS + 1);
    expect(over.diagnostics.at(-1)).toEqual({
      code: "YAML_INVALID",
      severity: "error",
      message: "invalid YAML in frontmatter: 3 more YAML errors from this line on",
      path: "f.md",
      line: MAX_YAML_ERRORS + 2,
    });
    for (const d of over.diagnostics.slice(0, -1)) {
      expect(d.severity).toBe("error");
      expect(d.message.startsWith("invalid YAML in frontmatter: ")).toBe(true);
      expect(d.message).not.toMatch(/ at line \d+/);
    }
  });

  it("a YAML message keeps its first line, without the position the diagnostic carries", () => {
    expect(
      yamlMessage("Plain value cannot start with reserved character @ at line 2, column 4:\n\nk: @x\n   ^\n"),
    ).toBe("Plain value cannot start with reserved character @");
    expect(yamlMessage("  Map keys must be unique  ")).toBe("Map keys must be unique");
    expect(yamlMessage("mentions at line 2, column 4 in the middle")).toBe(
      "mentions at line 2, column 4 in the middle",
    );
  });

  it("an alias that names no anchor is a warning that quotes it, on its own line", () => {
    const parsed = parseFrontmatter(block(["description: d", "", "globs: *.ts"], "\n"), { path: "r.mdc" });
    expect(parsed.data).toEqual({ description: "d", globs: "*.ts" });
    expect(parsed.diagnostics).toEqual([
      {
        code: "YAML_UNRESOLVED_ALIAS",
        severity: "warning",
        message: '*.ts names no anchor; read as the text "*.ts" (quote it to be portable)',
        path: "r.mdc",
        line: 5,
      },
    ]);
  });

  it("an alias bomb is one error on the block's first line, and no data", () => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 6; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    const parsed = parseFrontmatter(block(lines, "\n\n"));
    expect(parsed.data).toBeUndefined();
    expect(parsed.diagnostics).toEqual([
      {
        code: "YAML_INVALID",
        severity: "error",
        message: "invalid YAML in frontmatter: aliases expand to more than 10,000 values (an alias bomb); refused",
        line: 4,
      },
    ]);
  });

  it("names the trail of a __proto__ key inside a list", () => {
    const parsed = parseFrontmatter(block(["items:", "  - ok: 1", "  - __proto__: 2", "    kept: 3"]));
    expect(parsed.data).toEqual({ items: [{ ok: "1" }, { kept: "3" }] });
    expect(parsed.diagnostics).toHaveLength(1);
    expect(parsed.diagnostics[0]).toMatchObject({ code: "FIELD_INVALID", severity: "warning", line: 2 });
    expect(parsed.diagnostics[0]!.message).toBe(
      "field items[1].__proto__ is not kept (it would change an object's prototype)",
    );
  });
});

describe("frontmatter: the YAML retry's results", () => {
  it("quotes a broken flow value of a SKILL.md (repairFlowValues) with a warning, and leaves it an error elsewhere", () => {
    const text = block(["name: a", "tags: [next,@supabase/ssr]"]);
    const repaired = parseFrontmatter(text, { repairFlowValues: true, path: "s/SKILL.md" });
    expect(repaired.data).toEqual({ name: "a", tags: "[next,@supabase/ssr]" });
    expect(repaired.diagnostics).toEqual([
      {
        code: "YAML_UNQUOTED_FLOW",
        severity: "warning",
        message:
          "value that is not valid YAML (a flow collection or a reserved character) read as a quoted string: [next,@supabase/ssr]",
        path: "s/SKILL.md",
        line: 3,
      },
    ]);
    const strict = parseFrontmatter(text);
    expect(strict.data).toBeUndefined();
    expect(strict.diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([["YAML_INVALID", "error", 3]]);
  });

  it("reads `name:value` as Gemini CLI does, with a warning on its line", () => {
    const parsed = parseFrontmatter(block(["description: d", "name:no-space"], "\n"));
    expect(parsed.data).toEqual({ description: "d", name: "no-space" });
    expect(parsed.diagnostics).toEqual([
      {
        code: "YAML_KEY_NO_SPACE",
        severity: "warning",
        message: "key with no space after its ':' read as Gemini CLI reads it: no-space",
        line: 4,
      },
    ]);
  });

  it("shows a repaired value on one line, cut to 80 characters", () => {
    const exact = `Use when: ${"y".repeat(70)}`;
    const long = `Use when: ${"z".repeat(71)}`;
    const parsed = parseFrontmatter(block([`a: ${exact}`, `b: ${long}`, "c: one: two", "  three   four"]));
    // The quoted value folds its line break; the inner spaces stay in the data, not in the message.
    expect(parsed.data).toEqual({ a: exact, b: long, c: "one: two three   four" });
    expect(parsed.diagnostics.map((d) => [d.code, d.severity, d.line])).toEqual([
      ["YAML_UNQUOTED_COLON", "warning", 2],
      ["YAML_UNQUOTED_COLON", "warning", 3],
      ["YAML_UNQUOTED_COLON", "warning", 4],
    ]);
    const shown = parsed.diagnostics.map((d) =>
      d.message.replace("value with an unquoted ': ' read as a quoted string: ", ""),
    );
    expect(shown).toEqual([exact, `${long.slice(0, 77)}...`, "one: two three four"]);
  });

  it("leaves a value with a ` #` comment alone, and a nested `name:x` as the plain text it is", () => {
    for (const line of ["description: Use when: x # note", "tags: [a,@b] # note"]) {
      const parsed = parseFrontmatter(block(["name: a", line]), { repairFlowValues: true });
      expect(parsed.data, line).toBeUndefined();
      expect(
        parsed.diagnostics.map((d) => d.code),
        line,
      ).toContain("YAML_INVALID");
    }
    const nested = parseFrontmatter(block(["metadata:", "  name:x", "description: Use when: y"]));
    expect(nested.data).toEqual({ metadata: "name:x", description: "Use when: y" });
    expect(nested.diagnostics.map((d) => d.code)).toEqual(["YAML_UNQUOTED_COLON"]);
  });

  it("keeps the original errors, on the original lines, when the repaired block still fails", () => {
    const parsed = parseFrontmatter(block(["a: Use when: x", "- stray"], "\n"));
    expect(parsed.data).toBeUndefined();
    expect(parsed.diagnostics.every((d) => d.code === "YAML_INVALID" && d.severity === "error")).toBe(true);
    expect(parsed.diagnostics[0]!.line).toBe(3);
  });
});

describe("frontmatter: key lines and typed values for the skill parser", () => {
  it("gives file lines of top-level keys and YAML-typed values on the full YAML path", () => {
    // A flow mapping sends the block past the fast reader.
    const read = readFrontmatter(block(["name: a", "n: 12", "", "flags: {x: true}", "'q k': ~"], "\n"));
    expect(read.data).toEqual({ name: "a", n: "12", flags: { x: "true" }, "q k": "~" });
    expect([read.keyLine("name"), read.keyLine("n"), read.keyLine("flags"), read.keyLine("q k")]).toEqual([3, 4, 6, 7]);
    expect(read.keyLine("missing")).toBeUndefined();
    expect(read.typedValue("n")).toBe(12);
    expect(read.typedValue("flags")).toEqual({ x: true });
    expect(read.typedValue("q k")).toBeNull();
    expect(read.typedValue("missing")).toBeUndefined();
  });

  it("gives the same on the fast path", () => {
    const read = readFrontmatter(block(["name: a", "", "n: 12", "list:", "  - 1"], "\n\n"));
    expect(read.data).toEqual({ name: "a", n: "12", list: ["1"] });
    expect([read.keyLine("name"), read.keyLine("n"), read.keyLine("list")]).toEqual([4, 6, 7]);
    expect(read.keyLine("missing")).toBeUndefined();
    expect(read.typedValue("n")).toBe(12);
    expect(read.typedValue("list")).toEqual([1]);
    expect(read.typedValue("missing")).toBeUndefined();
  });

  it("has no key lines or typed values when the block cannot be read", () => {
    const read = readFrontmatter(block(["a: 1", "a: 2"]));
    expect(read.data).toBeUndefined();
    expect(read.keyLine("a")).toBeUndefined();
    expect(read.typedValue("a")).toBeUndefined();
  });
});
