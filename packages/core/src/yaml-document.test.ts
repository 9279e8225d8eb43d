import fc from "fast-check";
import { LineCounter, parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "./frontmatter.js";
import { MAX_YAML_ALIAS_EXPANSIONS, MAX_YAML_DEPTH, MAX_YAML_ERRORS } from "./limits.js";
import { parseSkill, safeParseSkill } from "./parse-skill.js";
import { validateSkillMd } from "./validate.js";
import { parseYamlBlock, tooDeep } from "./yaml-document.js";
import { strictFindings } from "./yaml-strict.js";
import { asWritten, typedValue } from "./yaml-values.js";

const fm = (block: string) => `---\n${block}\n---\nbody\n`;

/** A "billion laughs" block: `levels` anchors, each a list of ten aliases to the previous one. */
function laughs(levels: number): string {
  const lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i < levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  return lines.join("\n");
}

describe("the alias guard counts alias expansions, not values", () => {
  it("reads a 10,000-item triggers list, block or flow, as a keyword skill", () => {
    const items = Array.from({ length: 10_000 }, (_, i) => `kw${i}`);
    const block = parseSkill(fm(`name: big\ndescription: d\ntriggers:\n${items.map((k) => `  - ${k}`).join("\n")}`));
    expect(block.trigger).toEqual({ type: "keyword", keywords: items });
    // Flow style goes through the full YAML parser, where the old guard counted every value.
    const flow = safeParseSkill(fm(`name: big\ndescription: d\ntriggers: [${items.join(", ")}]`));
    expect(flow.ok && flow.skill.trigger).toEqual({ type: "keyword", keywords: items });
    expect(flow.ok && flow.diagnostics).toEqual([]);
  });

  it("refuses a billion-laughs block with a diagnostic that says so", () => {
    const parsed = parseFrontmatter(fm(laughs(9)), { path: "bomb.md" });
    expect(parsed.data).toBeUndefined();
    expect(parsed.diagnostics).toHaveLength(1);
    expect(parsed.diagnostics[0]).toMatchObject({ code: "YAML_INVALID", severity: "error", path: "bomb.md", line: 2 });
    expect(parsed.diagnostics[0]!.message).toContain("alias bomb");
    expect(parsed.diagnostics[0]!.message).toContain(MAX_YAML_ALIAS_EXPANSIONS.toLocaleString("en-US"));
    // A legacy file with it is not a skill; the validator says invalid in both modes.
    expect(safeParseSkill(fm(laughs(9)), { path: "/r/bomb.md", root: "/r" })).toMatchObject({
      ok: false,
      error: { code: "YAML_INVALID" },
    });
    expect(validateSkillMd(fm(`name: a\ndescription: d\nmetadata:\n  x: 1\n${laughs(9)}`)).valid).toBe(false);
  });

  it("resolves aliases up to the cap, and counts nested aliases too", () => {
    // Three levels: 10 + 100 + 1,000 values through aliases, well under the cap.
    const ok = parseFrontmatter(fm(laughs(3)));
    expect(ok.diagnostics).toEqual([]);
    expect((ok.data!["l2"] as unknown[][]).flat()).toHaveLength(100);
    // Four levels: l1 is 10 × 11 values, l2 10 × 111, l3 10 × 1,111: 12,330 in all.
    const doc = parseDocument(laughs(4));
    expect(() => asWritten(doc.contents, doc, undefined, { maxAliasExpansions: 12_330 })).not.toThrow();
    expect(() => asWritten(doc.contents, doc, undefined, { maxAliasExpansions: 12_329 })).toThrow(/alias bomb/);
  });

  it("refuses an alias inside the value it names", () => {
    const parsed = parseFrontmatter(fm("a: &a [x, *a]"));
    expect(parsed.data).toBeUndefined();
    expect(parsed.diagnostics[0]!.message).toContain("alias *a is inside the value it names");
  });

  it("resolves as yaml does: the last anchor of that name before the alias", () => {
    const parsed = parseFrontmatter(fm("a: &x one\nb: *x\nc: &x two\nd: *x\ne: *nope"));
    expect(parsed.data).toEqual({ a: "one", b: "one", c: "two", d: "two", e: "*nope" });
    expect(parsed.diagnostics.map((d) => [d.code, d.line])).toEqual([["YAML_UNRESOLVED_ALIAS", 6]]);
  });
});

describe("duplicate keys, found in one pass", () => {
  it("are the keys yaml's uniqueKeys finds: equal YAML values, not equal texts", () => {
    const problems = (block: string) => parseYamlBlock(block).errors.map((e) => e.message);
    expect(problems("a: 1\na: 2")).toEqual(["Map keys must be unique"]);
    expect(problems("1: a\n0x1: b")).toEqual(["Map keys must be unique"]);
    expect(problems("~: a\nnull: b")).toEqual(["Map keys must be unique"]);
    expect(problems("1: a\n'1': b")).toEqual([]);
    expect(problems(".nan: a\n.nan: b")).toEqual([]);
    expect(problems("m: {x: 1, x: 2}")).toEqual(["Map keys must be unique"]);
    expect(problems("[a]: 1\n[a]: 2")).toEqual([]);
  });

  it("agree with yaml's own check on generated blocks", () => {
    const key = fc.constantFrom(
      "a",
      "b",
      "1",
      "0x1",
      "'1'",
      '"a"',
      "~",
      "null",
      "true",
      "True",
      "1.0",
      "01",
      ".nan",
      "",
    );
    const block = fc
      .array(fc.tuple(key, fc.constantFrom("x", "{a: 1, a: 2}", "[1]")), { maxLength: 6 })
      .map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`).join("\n"));
    fc.assert(
      fc.property(block, (text) => {
        const ours = parseYamlBlock(text).errors.map((e) => [e.offset, e.message]);
        const theirs = parseDocument(text, { uniqueKeys: true, prettyErrors: false }).errors.map((e) => [
          e.pos[0],
          e.message.replace(/ at line \d+, column \d+:[\s\S]*$/, ""),
        ]);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 500 },
    );
  });

  it("make a 5,000-key block readable (the yaml check is quadratic), and the keys' lines known", () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `k${i}: [v]`).join("\n");
    const result = safeParseSkill(fm(`name: a\ndescription: d\n${keys}\nk0: [again]`));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ code: "YAML_INVALID", line: 5_004 });
    const good = safeParseSkill(fm(`name: a\ndescription: d\n${keys}`));
    expect(good.ok && Object.keys(good.skill.extra!)).toHaveLength(5_000);
    expect(good.ok && good.diagnostics.map((d) => [d.code, d.line])).toEqual([["UNKNOWN_FIELDS", 4]]);
    expect(good.ok && good.diagnostics[0]!.message).toContain("and 4,980 more");
  });
});

describe("nesting past the cap", () => {
  it("refuses deep flow nesting before parsing it, on the line where it passes the cap", () => {
    const depth = MAX_YAML_DEPTH + 1;
    const parsed = parseFrontmatter(fm(`name: a\nx: ${"[".repeat(depth)}${"]".repeat(depth)}`), { path: "deep.md" });
    expect(parsed.data).toBeUndefined();
    expect(parsed.diagnostics).toMatchObject([{ code: "YAML_INVALID", line: 3 }]);
    expect(parsed.diagnostics[0]!.message).toContain(`deeper than ${MAX_YAML_DEPTH} levels`);
    const atCap = parseFrontmatter(fm(`x: ${"[".repeat(MAX_YAML_DEPTH)}${"]".repeat(MAX_YAML_DEPTH)}`));
    expect(atCap.diagnostics).toEqual([]);
  });

  it("refuses compact `- - -` nesting past the cap", () => {
    const parsed = parseFrontmatter(fm(`x:\n  ${"- ".repeat(MAX_YAML_DEPTH + 1)}y`));
    expect(parsed.diagnostics[0]!.message).toContain("deeper than");
  });

  it("is not fooled by brackets and dashes in quoted text, comments or plain values", () => {
    const many = "[".repeat(200);
    expect(
      tooDeep(`a: "${many}"\nb: '${many}'\n# ${many}\nc: x${many}\nd: x ${"- ".repeat(100)}`, MAX_YAML_DEPTH),
    ).toBeUndefined();
  });

  it("refuses deep nesting through aliases, where no bracket shows it", () => {
    const lines = ["a0: &a0 [x]"];
    for (let i = 1; i <= MAX_YAML_DEPTH + 1; i++) lines.push(`a${i}: &a${i} [*a${i - 1}]`);
    const parsed = parseFrontmatter(fm(lines.join("\n")));
    expect(parsed.diagnostics[0]!.message).toContain(`nested deeper than ${MAX_YAML_DEPTH} levels`);
  });
});

describe("many errors", () => {
  it("reports the first ones and counts the rest", () => {
    const parsed = parseFrontmatter(fm(Array.from({ length: 200 }, (_, i) => `k${i}: @x`).join("\n")));
    expect(parsed.diagnostics).toHaveLength(MAX_YAML_ERRORS + 1);
    expect(parsed.diagnostics.every((d) => d.code === "YAML_INVALID" && d.severity === "error")).toBe(true);
    expect(parsed.diagnostics.at(-1)!.message).toMatch(/\d+ more YAML errors from this line on/);
    // Judged as written (--strict): without it the validator repairs `@x` as Codex and list do.
    const validated = validateSkillMd(fm(Array.from({ length: 200 }, (_, i) => `k${i}: @x`).join("\n")), {
      strict: true,
    });
    expect(validated.diagnostics.filter((d) => d.code === "YAML_INVALID")).toHaveLength(MAX_YAML_ERRORS + 1);
  });
});

describe("typedValue", () => {
  it("gives YAML types like yaml's toJS, without __proto__ keys", () => {
    const doc = parseDocument("a: 1\nb: [true, ~, x, 1.5]\nc: {1: one, null: n, __proto__: {p: 1}}\n");
    expect(typedValue(doc.contents, doc)).toEqual({ a: 1, b: [true, null, "x", 1.5], c: { 1: "one", "": "n" } });
  });
});

describe("strict findings stay linear", () => {
  it("finds stray tabs among many quoted scalars", () => {
    const block = `${Array.from({ length: 500 }, (_, i) => `k${i}: "a\tb"`).join("\n")}\nz: x\t`;
    const counter = new LineCounter();
    const doc = parseDocument(block, { lineCounter: counter });
    const tabs = strictFindings(doc, block).filter((f) => f.message.startsWith("tab"));
    expect(tabs).toHaveLength(1);
    expect(counter.linePos(tabs[0]!.offset).line).toBe(501);
  });
});
