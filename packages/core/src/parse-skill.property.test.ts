import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SkillctxError } from "./errors.js";
import { normalizeText, parseFrontmatter, splitFrontmatter } from "./frontmatter.js";
import { parseSkill, safeParseSkill } from "./parse-skill.js";
import { SkillSchema } from "./skill.js";
import { validateSkillMd } from "./validate.js";

// Pieces that real frontmatter is made of, so generated texts hit the interesting paths
// (fences, quotes, block scalars, flow collections, anchors, tabs, colons, BOM, CRLF).
const piece = fc.constantFrom(
  "---", "----", "--- ", "\n", "\r\n", "\r", "\uFEFF", "\t", " ", "  ", ":", ": ", "- ", "#", "'", '"', "\\", "|", ">-",
  "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "? ", "name", "description", "triggers", "inputs", "paths", "trigger",
  "type: task", "type: keyword", "keywords", "metadata", "allowed-tools", "mcp_tools", "mcpServers", "__proto__", "constructor",
  "resources", "disable-model-invocation", "true", "~", "123", "é", "😀", "\u0000", "\u2028", "Use when: x", "...", "%YAML 1.2",
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
        expect(["NAME_MISSING", "YAML_INVALID", "FRONTMATTER_NOT_MAPPING", "FRONTMATTER_UNCLOSED"]).toContain(result.error.code);
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
        expect(split.bodyLine).toBe(norm.slice(0, split.bodyOffset).split("\n").length);
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
