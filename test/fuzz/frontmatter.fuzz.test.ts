// Fuzz: frontmatter, the YAML retry (colon-retry.ts), the fast path, YAML blocks and whole SKILL.md files.
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { parseFrontmatter, parseSkill, safeParseSkill } from "@skillctx/core";
import { quoteColonValues } from "../../packages/core/src/colon-retry.js";
import { parseSimpleFrontmatter } from "../../packages/core/src/frontmatter-fast.js";
import { splitFrontmatter } from "../../packages/core/src/frontmatter-split.js";
import { parseYamlBlock } from "../../packages/core/src/yaml-document.js";
import { fuzz, hostileText, report, RUNS } from "./harness.js";

// A SKILL.md: a frontmatter block of hostile lines (often `key: value`), then a body.
const skillFile = fc
  .tuple(
    fc.array(
      fc.oneof(
        hostileText,
        fc
          .tuple(fc.constantFrom("name", "description", "paths", "allowed-tools", "metadata", "x"), hostileText)
          .map(([k, v]) => `${k}: ${v}`),
      ),
      { maxLength: 8 },
    ),
    hostileText,
    fc.constantFrom("---\n", "---\r\n", "\ufeff---\n", ""),
  )
  .map(([lines, body, open]) => `${open}${lines.join("\n")}\n---\n${body}`);

afterAll(() => console.info(report()));

it("parseFrontmatter and parseSimpleFrontmatter: a result or a SkillctxError", async () => {
  const tried = await fuzz("frontmatter", fc.oneof(skillFile, hostileText), (text) => {
    parseFrontmatter(text);
    splitFrontmatter(text);
    parseSimpleFrontmatter(text);
  });
  expect(tried).toBe(RUNS);
});

it("the YAML retry (quoteColonValues) and YAML blocks: a result or a SkillctxError", async () => {
  const tried = await fuzz("yaml-retry", fc.oneof(skillFile, hostileText), (text) => {
    quoteColonValues(text);
    quoteColonValues(text, { flowLike: true });
    parseYamlBlock(text);
  });
  expect(tried).toBe(RUNS);
});

it("parseSkill and safeParseSkill: safeParseSkill never throws", async () => {
  const tried = await fuzz("parse-skill", fc.oneof(skillFile, hostileText), (text) => {
    safeParseSkill(text);
    parseSkill(text);
  });
  expect(tried).toBe(RUNS);
});
