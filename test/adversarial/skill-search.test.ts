/**
 * Adversarial tests of skill search (issue 26): a hostile skill that stuffs its description and body
 * with every word of the other skills (and of their users' requests) to win every search; a 1 MB
 * request; pathological Unicode in requests and in skills. Each runs in a fresh process (runIsolated)
 * with the bound it checks. The defence against stuffing is BM25's length normalisation plus the caps on
 * what is indexed of each field (core limits.ts: MAX_INDEXED_FIELD_CHARS, MAX_INDEXED_BODY_CHARS).
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const url = (file: string) => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href);

const PRELUDE = `
import { readFileSync } from "node:fs";
import { createSkillIndex } from ${url("packages/core/src/search/skill-index.ts")};
import { requestTerms } from ${url("packages/core/src/search/query-terms.ts")};
import { loadSkills } from ${url("packages/core/src/load-skills.ts")};
const fixture = ${JSON.stringify(path.join(ROOT, "eval/selection/fixture"))};
const skills = (await loadSkills([fixture + "/skills"])).skills;
const queries = readFileSync(fixture + "/queries.jsonl", "utf8").trim().split("\\n").map((line) => JSON.parse(line));
const inline = (name, description, content) => ({
  name, description, content, metadata: {},
  source: { kind: "inline", format: "inline", scope: "programmatic" }, trigger: { type: "on-demand" },
});
`;

describe("skill search under attack", () => {
  it("a skill stuffed with every word of the others and of their requests wins almost no search", async () => {
    const result = await runIsolated<{ hostileFirst: number; answerable: number; rightFirst: number }>(
      `${PRELUDE}
export default async () => {
  const everything = [
    ...skills.map((s) => s.name + " " + s.description + " " + s.content),
    ...queries.map((q) => q.query),
  ].join(" ");
  // Every word many times over, in the description and the body (far past the indexed caps).
  const stuffed = (everything + " ").repeat(400);
  const hostile = inline("zz-everything", stuffed, stuffed);
  const index = createSkillIndex({ minScore: 0 });
  let hostileFirst = 0, answerable = 0, rightFirst = 0;
  for (const q of queries) {
    if (q.expect === null) continue;
    answerable++;
    const [top] = await index.search([...skills, hostile], q.query);
    if (top?.name === "zz-everything") hostileFirst++;
    if (top?.name === q.expect) rightFirst++;
  }
  return { hostileFirst, answerable, rightFirst };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 600 }, "stuffed skill");
    expect(value.answerable).toBeGreaterThan(30);
    // The stuffed skill matches every request; it is first in at most a fifth of them (4 of 36 measured
    // before issue 33, 7 after it weighted bodies 1.5 as the held-out sets chose; 22 of 36 before each word
    // counted once per field, b = 1 and the description cap).
    expect(value.hostileFirst).toBeLessThanOrEqual(Math.floor(value.answerable / 5));
    expect(value.rightFirst).toBeGreaterThanOrEqual(Math.ceil(value.answerable * 0.8));
  });

  it("a skill whose body holds every word of the requests no skill serves is never a confident answer to them", async () => {
    // A body mentions many things in passing: a body of every no-skill request's words, said once each,
    // earns at most a weak match (confidence "low"), never a confident one.
    const result = await runIsolated<{ none: number; answered: string[] }>(
      `${PRELUDE}
export default async () => {
  const noSkill = queries.filter((q) => q.expect === null).map((q) => q.query);
  const hostile = inline("zz-claims", "Helps with everything.", noSkill.join(". "));
  const index = createSkillIndex();
  const answered = [];
  // Search ranks always (issue 33): an answer is a result marked confident, not merely a result.
  for (const query of noSkill) {
    const [top] = await index.search([...skills, hostile], query);
    if (top !== undefined && top.confidence === "high") answered.push(query + " -> " + top.name);
  }
  return { none: noSkill.length, answered };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 20_000, mb: 400 }, "claimed words");
    expect(value.none).toBeGreaterThan(4);
    expect(value.answered).toEqual([]);
  });

  it("a 1 MB request costs no more than its first 2,000 characters", async () => {
    const result = await runIsolated<{ terms: number; found: string[] }>(
      `${PRELUDE}
export default async () => {
  const index = createSkillIndex();
  const huge = "my kubernetes pod keeps crashing " + "lorem ipsum dolor sit amet ".repeat(40_000);
  const found = await index.search(skills, huge);
  const terms = (await requestTerms(huge)).length;
  // Twenty more of them: each is bounded, not only the first.
  for (let i = 0; i < 20; i++) await index.search(skills, huge + i);
  return { terms, found: found.map((m) => m.name) };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 10_000, mb: 400 }, "1 MB request");
    expect(value.terms).toBeLessThan(400);
    expect(value.found[0]).toBe("k8s-debug");
  });

  it("pathological Unicode in requests and skills neither throws nor hangs", async () => {
    const result = await runIsolated<{ results: number[]; unicodeFound: string | null }>(
      `${PRELUDE}
export default async () => {
  const zalgo = "p\\u0336\\u0337\\u0338".repeat(1) + "\\u0301".repeat(50_000) + "df";
  const requests = [
    "\\ud800\\udfff\\ud800 lone surrogates \\udc00",
    zalgo,
    "\\u202e fdp mrof \\u202d \\u200d\\u200b\\ufeff",
    "\\u0000\\u0001\\u0007 pdf\\u0000form",
    "🧪".repeat(100_000),
    "ǅǈǋ ﬀ ﬁ ﬂ Ⅻ ① ｐｄｆ",
    "ا".repeat(50_000),
    "日本語".repeat(30_000),
  ];
  const odd = [
    inline("日本語-帳票", "PDFの帳票に記入する。フォームのフィールドを読む。", "## 署名\\n電子署名を確認する。"),
    inline("zero\\u200bwidth", "\\u202e reversed text \\ud800 skill with lone surrogate", "\\u0301".repeat(100_000)),
  ];
  const index = createSkillIndex({ minScore: 0 });
  const results = [];
  for (const r of requests) results.push((await index.search([...skills, ...odd], r)).length);
  const [top] = await index.search([...skills, ...odd], "帳票に記入");
  return { results, unicodeFound: top?.name ?? null };
};`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(result, { ms: 15_000, mb: 500 }, "Unicode");
    expect(value.results).toHaveLength(8);
    expect(value.unicodeFound).toBe("日本語-帳票");
  });
});
