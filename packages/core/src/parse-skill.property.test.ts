import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SkillctxError } from "./errors.js";
import { parseFrontmatter } from "./frontmatter.js";
import { normalizeText, splitFrontmatter } from "./frontmatter-split.js";
import { parseSkill, safeParseSkill } from "./parse-skill.js";
import { SkillSchema } from "./schemas.js";
import { validateSkillMd } from "./validate.js";

// Pieces that real frontmatter is made of, so generated texts hit the interesting paths
// (fences, quotes, block scalars, flow collections, anchors, tabs, colons, BOM, CRLF).
const piece = fc.constantFrom(
  "---",
  "----",
  "--- ",
  "\n",
  "\r\n",
  "\r",
  "\uFEFF",
  "\t",
  " ",
  "  ",
  ":",
  ": ",
  "- ",
  "#",
  "'",
  '"',
  "\\",
  "|",
  ">-",
  "[",
  "]",
  "{",
  "}",
  ",",
  "&a ",
  "*a",
  "!!str ",
  "? ",
  "name",
  "description",
  "triggers",
  "inputs",
  "paths",
  "trigger",
  "type: task",
  "type: keyword",
  "keywords",
  "metadata",
  "allowed-tools",
  "mcp_tools",
  "mcpServers",
  "__proto__",
  "constructor",
  "resources",
  "disable-model-invocation",
  "true",
  "~",
  "123",
  "é",
  "😀",
  "\u0000",
  "\u2028",
  "Use when: x",
  "...",
  "%YAML 1.2",
);
const textLike = fc.oneof(
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.array(piece, { maxLength: 80 }).map((parts) => parts.join("")),
  fc
    .tuple(fc.array(piece, { maxLength: 40 }), fc.string({ maxLength: 60 }))
    .map(([parts, tail]) => `---\n${parts.join("")}\n---\n${tail}`),
);
const options = fc.record(
  {
    path: fc.constantFrom("/s/x/SKILL.md", "/s/a/b.md", "rel/skill.md", "", "/"),
    format: fc.constantFrom("skill-md" as const, "legacy" as const),
    root: fc.constantFrom("/s", "/other", ""),
  },
  { requiredKeys: [] },
);

describe("parser properties", () => {
  it("safeParseSkill never throws, and its errors are SkillctxError", () => {
    fc.assert(
      fc.property(textLike, options, (text, opts) => {
        const result = safeParseSkill(text, opts);
        if (result.ok) {
          // The parser builds skills without a runtime check: they must fit the schema exactly.
          expect(SkillSchema.parse(result.skill)).toEqual(result.skill);
          return;
        }
        expect(SkillctxError.isInstance(result.error)).toBe(true);
        // Only deliberate failures: no unexpected exception reached safeParseSkill's safety net.
        expect(["NAME_MISSING", "YAML_INVALID", "FRONTMATTER_NOT_MAPPING", "FRONTMATTER_UNCLOSED"]).toContain(
          result.error.code,
        );
        expect(result.error.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 3000 },
    );
  });

  it("parseSkill throws nothing but SkillctxError", () => {
    fc.assert(
      fc.property(textLike, options, (text, opts) => {
        try {
          parseSkill(text, opts);
        } catch (error) {
          expect(error).toBeInstanceOf(SkillctxError);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("splitFrontmatter loses nothing: the body is the tail of the normalised text", () => {
    fc.assert(
      fc.property(textLike, (text) => {
        const split = splitFrontmatter(text);
        const norm = normalizeText(text);
        expect(norm.slice(split.bodyOffset)).toBe(split.body);
        if (split.frontmatter !== undefined) expect(norm.slice(0, split.bodyOffset)).toContain(split.frontmatter);
        // A text that ends on its closing fence has an empty body on the line after it
        // (frontmatter.test.ts: "reads a head-only text"), one past the lines before bodyOffset.
        const endsOnFence = split.frontmatter !== undefined && split.bodyOffset === norm.length && !norm.endsWith("\n");
        expect(split.bodyLine).toBe(norm.slice(0, split.bodyOffset).split("\n").length + (endsOnFence ? 1 : 0));
      }),
      { numRuns: 3000 },
    );
  });

  it("parseFrontmatter keeps the whole text whenever it reads no mapping", () => {
    fc.assert(
      fc.property(textLike, (text) => {
        const parsed = parseFrontmatter(text);
        if (parsed.data === undefined) expect(parsed.body).toBe(normalizeText(text));
        for (const d of parsed.diagnostics) expect(d.line === undefined || d.line >= 1).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("validateSkillMd never throws", () => {
    fc.assert(
      fc.property(textLike, fc.boolean(), (text, strict) => {
        const result = validateSkillMd(text, { strict, dirName: "x" });
        expect(result.valid).toBe(!result.diagnostics.some((d) => d.severity === "error"));
      }),
      { numRuns: 3000 },
    );
  });
});

// Shapes hostile input takes: deep nesting, huge keys and values, odd unicode, BOMs, CRLF, NUL.
const hostileBlock = fc.oneof(
  fc.integer({ min: 1, max: 3000 }).map((n) => `x: ${"[".repeat(n)}${"]".repeat(n % 7 === 0 ? 0 : n)}`),
  fc.integer({ min: 1, max: 3000 }).map((n) => `x: ${"{a: ".repeat(n)}1${"}".repeat(n)}`),
  fc.integer({ min: 1, max: 2000 }).map((n) => `x:\n  ${"- ".repeat(n)}y`),
  fc.integer({ min: 1, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")),
  fc.integer({ min: 1, max: 300_000 }).map((n) => `${"k".repeat(n)}: v`),
  fc.integer({ min: 1, max: 300_000 }).map((n) => `name: a\ndescription: "${"é😀\u2028".repeat(Math.ceil(n / 4))}"`),
  fc.integer({ min: 2, max: 12 }).map((levels) => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < levels; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    return lines.join("\n");
  }),
  fc
    .array(
      fc.constantFrom(
        "\u0000",
        "\uFEFF",
        "\r\n",
        "\r",
        "\t",
        "\u0085",
        "\u2029",
        "\uD800",
        "\uDFFF",
        "\u200D",
        "name: a",
        "description: b",
        "- x",
        "&a",
        "*a",
        ": ",
      ),
      { maxLength: 60 },
    )
    .map((p) => p.join("")),
);
const hostileText = fc
  .tuple(
    fc.constantFrom("", "\uFEFF", "\n\n", "\r\n"),
    hostileBlock,
    fc.constantFrom("\n---\n", "\r\n---\r\n", "\n", ""),
    fc.string({ maxLength: 40 }),
  )
  .map(([lead, block, close, tail]) => `${lead}---\n${block}${close}${tail}`);

describe("parser properties on hostile shapes", () => {
  it("safeParseSkill and validateSkillMd never throw; failures are deliberate SkillctxErrors with a code and a line", () => {
    fc.assert(
      fc.property(hostileText, options, fc.boolean(), (text, opts, strict) => {
        const result = safeParseSkill(text, opts);
        if (result.ok) {
          expect(SkillSchema.parse(result.skill)).toEqual(result.skill);
          for (const d of result.diagnostics) expect(d.line === undefined || d.line >= 1).toBe(true);
        } else {
          expect(SkillctxError.isInstance(result.error)).toBe(true);
          expect([
            "NAME_MISSING",
            "YAML_INVALID",
            "FRONTMATTER_NOT_MAPPING",
            "FRONTMATTER_UNCLOSED",
            "FRONTMATTER_TOO_LARGE",
          ]).toContain(result.error.code);
          expect(result.error.line).toBeGreaterThanOrEqual(1);
        }
        const validated = validateSkillMd(text, { strict, dirName: "x" });
        expect(validated.valid).toBe(!validated.diagnostics.some((d) => d.severity === "error"));
        const parsed = parseFrontmatter(text);
        if (parsed.data === undefined) expect(parsed.body).toBe(normalizeText(text));
        expect(parsed.diagnostics.filter((d) => d.code === "YAML_INVALID").length).toBeLessThanOrEqual(11);
      }),
      { numRuns: 300 },
    );
  });
});

// Frontmatter of the common keys only takes a shorter path through the parser; one key more takes the
// full one. Both must read the common keys the same: the extra key adds only itself (to extra) and its warning.
describe("the common-keys path", () => {
  const value = fc.constantFrom(
    "x",
    "",
    "'a: b'",
    "[a, b]",
    "{a: 1}",
    "|\n  text",
    "true",
    "~",
    "123",
    "\n  k: v",
    "\n  - a\n  - b",
    "Read, Grep",
    "[]",
  );
  const key = fc.constantFrom(
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "allowed_tools",
  );
  it("reads the same skill as the full path, whatever the common keys hold", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, value), { selector: ([k]) => k, maxLength: 7 }),
        fc.constantFrom("skill-md" as const, "legacy" as const),
        (entries, format) => {
          const block = entries.map(([k, v]) => `${k}: ${v}`).join("\n");
          const path = format === "skill-md" ? "/s/x/SKILL.md" : "/s/x/a.md";
          const common = safeParseSkill(`---\n${block}\n---\nBody\n`, { path, format });
          const full = safeParseSkill(`---\n${block}\nx-other: 1\n---\nBody\n`, { path, format });
          expect(full.ok).toBe(common.ok);
          if (!common.ok || !full.ok) return;
          const { extra: fullExtra, ...fullRest } = full.skill;
          const { extra: commonExtra, ...commonRest } = common.skill;
          expect(fullRest).toEqual(commonRest);
          expect(fullExtra).toEqual({ ...commonExtra, "x-other": "1" });
          expect(full.diagnostics.filter((d) => d.code !== "UNKNOWN_FIELDS")).toEqual(common.diagnostics);
        },
      ),
      { numRuns: 500 },
    );
  });
});
