/**
 * Adversarial tests of frontmatter and YAML parsing (issue 10): alias bombs, large legitimate lists,
 * oversize and unclosed frontmatter, deep nesting, shapes that were quadratic, and a repository that
 * mixes all of them with good skills. Each attack runs in a fresh process (runIsolated) and each test's
 * name states its bound: generous time and memory, never tight timings. Each script also reports the
 * worst single operation it saw (`worstMs`), for the record.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";
import { compareCodePoints } from "../../packages/core/src/code-point-order.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CORPUS = process.env["SKILLCTX_CORPUS"] ?? path.resolve(ROOT, "../shared/corpus");

// Shared by the scripts: a temp folder, timing of single operations, and the generators of hostile text.
const PRELUDE = `
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadSkills, parseFrontmatter, safeParseSkill, validateSkillMd, createSkillCache, buildCatalog } from "@skillctx/core";
const dir = mkdtempSync(path.join(tmpdir(), "skillctx-adv-parsing-"));
const put = (rel, text) => { const file = path.join(dir, rel); mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, text); return file; };
let worstMs = 0;
const timed = (run) => { const t = performance.now(); const value = run(); worstMs = Math.max(worstMs, performance.now() - t); return value; };
const timedAsync = async (run) => { const t = performance.now(); const value = await run(); worstMs = Math.max(worstMs, performance.now() - t); return value; };
const fm = (block, body = "body\\n") => "---\\n" + block + "\\n---\\n" + body;
const laughs = (levels) => {
  const lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i < levels; i++) lines.push("l" + i + ": &l" + i + " [" + Array(10).fill("*l" + (i - 1)).join(", ") + "]");
  return lines.join("\\n");
};
const outcome = (r) => (r.ok ? { ok: true, codes: r.diagnostics.map((d) => d.code) } : { ok: false, code: r.error.code, line: r.error.line, message: r.error.message });
const done = (value) => { rmSync(dir, { recursive: true, force: true }); return { ...value, worstMs: Math.round(worstMs) }; };
`;

describe("adversarial: alias bombs and large legitimate lists", () => {
  it("a billion-laughs block (9 and 30 levels) is refused with a clear diagnostic in < 2 s and < 300 MB", async () => {
    const result = await runIsolated<{
      nine: { ok: boolean; code?: string; message?: string };
      thirty: { ok: boolean; code?: string };
      frontmatter: Array<{ code: string; message: string }>;
      valid: boolean;
      skillMd: { ok: boolean; codes?: string[] };
      worstMs: number;
    }>(
      `${PRELUDE}
export default async () => {
  const nine = timed(() => outcome(safeParseSkill(fm(laughs(9)), { path: "/r/bomb.md", root: "/r" })));
  const thirty = timed(() => outcome(safeParseSkill(fm(laughs(30)), { path: "/r/bomb.md", root: "/r" })));
  const frontmatter = timed(() => parseFrontmatter(fm(laughs(9))).diagnostics.map((d) => ({ code: d.code, message: d.message })));
  const valid = timed(() => validateSkillMd(fm("name: x\\ndescription: d\\n" + laughs(12)), { dirName: "x" }).valid);
  // A SKILL.md with a bomb in a closed block loads like one with broken YAML: named after its folder.
  const skillMd = timed(() => outcome(safeParseSkill(fm(laughs(12)), { path: "/s/x/SKILL.md" })));
  return done({ nine, thirty, frontmatter, valid, skillMd });
};`,
      { timeoutMs: 20_000 },
    );
    expectBounded(result, { ms: 2_000, mb: 300 });
    const value = result.value!;
    expect(value.nine).toMatchObject({ ok: false, code: "YAML_INVALID" });
    expect(value.nine.message).toContain("alias bomb");
    expect(value.thirty).toMatchObject({ ok: false, code: "YAML_INVALID" });
    expect(value.frontmatter).toHaveLength(1);
    expect(value.frontmatter[0]!.message).toMatch(/aliases expand to more than 10,000 values \(an alias bomb\)/);
    expect(value.valid).toBe(false);
    expect(value.skillMd).toMatchObject({ ok: true });
    expect(value.skillMd.codes).toContain("YAML_INVALID");
  }, 30_000);

  it("10,000-item triggers lists (block, flow, quoted) are valid keyword skills, read in < 5 s and < 400 MB", async () => {
    const result = await runIsolated<{ sizes: Array<[boolean, string, number]>; loaded: number; worstMs: number }>(
      `${PRELUDE}
export default async () => {
  const items = Array.from({ length: 10_000 }, (_, i) => "keyword" + i);
  const shapes = {
    block: "triggers:\\n" + items.map((k) => "  - " + k).join("\\n"),
    flow: "triggers: [" + items.join(", ") + "]",
    quoted: "triggers:\\n" + items.map((k) => '  - "' + k + '\\\\t"').join("\\n"),
  };
  const sizes = [];
  for (const [shape, block] of Object.entries(shapes)) {
    const r = timed(() => safeParseSkill(fm("name: big\\ndescription: d\\n" + block), { path: "/s/big/SKILL.md" }));
    sizes.push([r.ok && r.diagnostics.length === 0, shape, r.ok && r.skill.trigger.type === "keyword" ? r.skill.trigger.keywords.length : -1]);
  }
  put("big/SKILL.md", fm("name: big\\ndescription: d\\n" + shapes.flow));
  const { skills } = await timedAsync(() => loadSkills([dir], { cache: createSkillCache() }));
  return done({ sizes, loaded: skills.length });
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 5_000, mb: 400 });
    expect(result.value!.sizes).toEqual([
      [true, "block", 10_000],
      [true, "flow", 10_000],
      [true, "quoted", 10_000],
    ]);
    expect(result.value!.loaded).toBe(1);
  }, 40_000);
});

describe("adversarial: oversize, unclosed and deeply nested frontmatter", () => {
  it("a 10 MB frontmatter is FRONTMATTER_TOO_LARGE (cap 256 KiB), from text and from a file, in < 3 s and < 500 MB", async () => {
    const result = await runIsolated<{
      text: unknown;
      legacy: unknown;
      validate: string[];
      loaded: string[];
      errors: string[];
      worstMs: number;
    }>(
      `${PRELUDE}
export default async () => {
  const huge = fm("name: huge\\ndescription: d\\nmetadata:\\n" + Array.from({ length: 400_000 }, (_, i) => "  k" + i + ": value").join("\\n"));
  const text = timed(() => outcome(safeParseSkill(huge, { path: "/s/huge/SKILL.md" })));
  const legacy = timed(() => outcome(safeParseSkill(huge, { path: "/r/huge.md", root: "/r" })));
  const validate = timed(() => validateSkillMd(huge, { dirName: "huge" }).diagnostics.map((d) => d.code));
  put("huge/SKILL.md", huge);
  put("fine/SKILL.md", fm("name: fine\\ndescription: A sibling"));
  const { skills, diagnostics } = await timedAsync(() => loadSkills([dir], { cache: createSkillCache() }));
  return done({ text, legacy, validate, loaded: skills.map((s) => s.name), errors: diagnostics.filter((d) => d.severity === "error").map((d) => d.code) });
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 3_000, mb: 500 });
    const value = result.value!;
    expect(value.text).toMatchObject({ ok: false, code: "FRONTMATTER_TOO_LARGE", line: 1 });
    expect(value.legacy).toMatchObject({ ok: false, code: "FRONTMATTER_TOO_LARGE", line: 1 });
    expect(value.validate).toEqual(["FRONTMATTER_TOO_LARGE"]);
    expect(value.loaded).toEqual(["fine"]);
    // The file reader may refuse the 10 MB file by size first (TOO_LARGE); either way, one error.
    expect(value.errors).toHaveLength(1);
    expect(["FRONTMATTER_TOO_LARGE", "TOO_LARGE"]).toContain(value.errors[0]);
  }, 40_000);

  it("unclosed frontmatter in a 50 MB file is not a skill (SKILL.md) and stops no sibling, in < 10 s and < 1 GB", async () => {
    const result = await runIsolated<{
      text: unknown;
      legacy: { ok: boolean; codes?: string[] };
      loaded: string[];
      errors: string[];
      validate: string[];
      worstMs: number;
    }>(
      `${PRELUDE}
export default async () => {
  // 50 MB: an opening fence, a name, then lines of prose and never a closing fence.
  const big = "---\\nname: huge\\ndescription: never closed\\n" + "text that goes on and on, - - - [ { & * : \\n".repeat(1_150_000);
  const text = timed(() => outcome(safeParseSkill(big, { path: "/s/huge/SKILL.md" })));
  // A legacy file reads it whole, as OpenHands does (python-frontmatter finds no block).
  const legacy = timed(() => outcome(safeParseSkill(big, { path: "/r/huge.md", root: "/r" })));
  const validate = timed(() => validateSkillMd(big, { dirName: "huge" }).diagnostics.map((d) => d.code));
  put("huge/SKILL.md", big);
  put("fine/SKILL.md", fm("name: fine\\ndescription: A sibling"));
  const { skills, diagnostics } = await timedAsync(() => loadSkills([path.join(dir, "huge"), path.join(dir, "fine")], { cache: createSkillCache() }));
  return done({ text, legacy, validate, loaded: skills.map((s) => s.name), errors: diagnostics.filter((d) => d.severity === "error").map((d) => d.code) });
};`,
      { timeoutMs: 60_000 },
    );
    expectBounded(result, { ms: 10_000, mb: 1024 });
    const value = result.value!;
    expect(value.text).toMatchObject({ ok: false, code: "FRONTMATTER_UNCLOSED", line: 1 });
    expect(value.legacy).toEqual({ ok: true, codes: ["FRONTMATTER_UNCLOSED"] });
    expect(value.validate).toEqual(["FRONTMATTER_UNCLOSED"]);
    expect(value.loaded).toEqual(["fine"]);
    // The file reader may refuse the 50 MB file by size first; either way it is an error, and only one.
    expect(value.errors).toHaveLength(1);
  }, 70_000);

  it("100,000-deep flow nesting and 100,000-deep compact sequences are refused (cap 64 levels) in < 2 s and < 300 MB", async () => {
    const result = await runIsolated<{ outcomes: unknown[]; messages: string[]; validate: boolean[]; worstMs: number }>(
      `${PRELUDE}
export default async () => {
  const blocks = [
    "name: a\\nx: " + "[".repeat(100_000) + "]".repeat(100_000),
    "name: a\\nx: " + "{".repeat(100_000),
    "name: a\\nx:\\n  " + "- ".repeat(100_000) + "y",
  ];
  const outcomes = blocks.map((b) => timed(() => outcome(safeParseSkill(fm(b), { path: "/r/deep.md", root: "/r" }))));
  const messages = blocks.map((b) => timed(() => parseFrontmatter(fm(b)).diagnostics.map((d) => d.message).join(" | ")));
  const validate = blocks.map((b) => timed(() => validateSkillMd(fm("description: d\\n" + b), { strict: true }).valid));
  return done({ outcomes, messages, validate });
};`,
      { timeoutMs: 20_000 },
    );
    expectBounded(result, { ms: 2_000, mb: 300 });
    const value = result.value!;
    expect(value.outcomes).toMatchObject([
      { ok: false, code: "YAML_INVALID", line: 3 },
      { ok: false, code: "YAML_INVALID", line: 3 },
      { ok: false, code: "YAML_INVALID", line: 4 },
    ]);
    for (const m of value.messages) expect(m).toContain("nested deeper than 64 levels");
    expect(value.validate).toEqual([false, false, false]);
  }, 30_000);
});

describe("adversarial: shapes that used to cost quadratic time", () => {
  it("20,000 keys, 20,000 aliases, 20,000 tabbed quoted values and a 100,000-marker line are each read in < 5 s (< 400 MB)", async () => {
    const result = await runIsolated<{
      keys: unknown;
      aliases: unknown;
      tabs: boolean;
      markers: unknown;
      unknown: number;
      worstMs: number;
    }>(
      `${PRELUDE}
export default async () => {
  const keys = timed(() => outcome(safeParseSkill(fm("name: a\\ndescription: d\\n" + Array.from({ length: 20_000 }, (_, i) => "k" + i + ": [v]").join("\\n")), { path: "/s/a/SKILL.md" })));
  const unknown = timed(() => { const r = safeParseSkill(fm("name: a\\ndescription: d\\n" + Array.from({ length: 20_000 }, (_, i) => "k" + i + ": [v]").join("\\n"))); return r.ok ? r.diagnostics.find((d) => d.code === "UNKNOWN_FIELDS").message.length : -1; });
  const aliases = timed(() => outcome(safeParseSkill(fm("name: a\\ndescription: d\\nanchor: &x v\\nlist:\\n" + Array.from({ length: 20_000 }, () => "  - *x").join("\\n")), { path: "/s/a/SKILL.md" })));
  const tabs = timed(() => validateSkillMd(fm("name: a\\ndescription: d\\nmetadata:\\n" + Array.from({ length: 20_000 }, (_, i) => '  k' + i + ': "a\\tb"').join("\\n") + "\\n  z: x\\t"), { dirName: "a" }).valid);
  const markers = timed(() => outcome(safeParseSkill(fm("name: a\\ndescription: Use when: " + "- ".repeat(100_000)), { path: "/s/a/SKILL.md" })));
  return done({ keys, aliases, tabs, markers, unknown });
};`,
      { timeoutMs: 40_000 },
    );
    expect(result.failed, result.stderr).toBe(false);
    const value = result.value!;
    expect(value.keys).toMatchObject({ ok: true, codes: ["UNKNOWN_FIELDS"] });
    // The warning names 20 fields and counts the rest, instead of 20,000 names.
    expect(value.unknown).toBeLessThan(400);
    // A SKILL.md whose YAML is refused still loads by its folder name, with the error.
    expect(value.aliases).toMatchObject({ ok: true });
    expect((value.aliases as { codes: string[] }).codes).toContain("YAML_INVALID");
    expect(value.tabs).toBe(false);
    expect(value.markers).toMatchObject({ ok: true });
    // Quadratic, 20,000 keys took minutes; now the cost is the yaml parser's own (about 1 s for 220 KB of flow lists).
    expect(value.worstMs).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(400);
  }, 50_000);
});

describe("adversarial: a repository mixing hostile and good skills", () => {
  it("loads every good skill of a 300-file tree with every hostile kind, each bad file one error, in < 20 s and < 800 MB", async () => {
    const result = await runIsolated<{
      good: number;
      loaded: number;
      errors: Record<string, number>;
      unexpected: string[];
      catalogChars: number;
      worstMs: number;
    }>(
      `${PRELUDE}
export default async () => {
  const hostile = [
    ["unclosed", () => "---\\nname: x\\ndescription: never closed\\n" + "prose\\n".repeat(1000)],
    ["broken-legacy", () => "---\\ntriggers: [a\\n---\\nAlways on?\\n"],
    ["bomb", () => fm(laughs(10))],
    ["huge", () => fm("name: h\\ndescription: d\\nmeta: " + "x".repeat(300_000))],
    ["deep", () => fm("x: " + "[".repeat(50_000))],
    ["bom-crlf", () => "\\uFEFF---\\r\\nname: bom\\r\\ndescription: fine\\r\\n---\\r\\nbody\\r\\n"],
    ["nul", () => fm("name: n\\ndescription: a\\u0000b")],
    ["long-description", () => fm("name: l\\ndescription: " + "word ".repeat(1000))],
    ["empty-tools", () => fm("name: t\\ndescription: d\\nallowed-tools:")],
  ];
  let good = 0;
  let next = 0;
  for (let i = 0; i < 300; i++) {
    if (i % 3 === 0) { put("good/s" + i + "/SKILL.md", fm("name: s" + i + "\\ndescription: Good skill " + i)); good++; continue; }
    const [kind, make] = hostile[next++ % hostile.length];
    if (kind === "broken-legacy") put("legacy/" + kind + i + ".md", make());
    else put("bad/" + kind + i + "/SKILL.md", make().replace(/name: \\w+/, "name: " + kind + i));
  }
  const { skills, diagnostics } = await timedAsync(() => loadSkills([path.join(dir, "good"), path.join(dir, "bad"), path.join(dir, "legacy")], { cache: createSkillCache() }));
  const errors = {};
  for (const d of diagnostics) if (d.severity === "error") errors[d.code] = (errors[d.code] ?? 0) + 1;
  const names = new Set(skills.map((s) => s.name));
  const unexpected = [];
  for (let i = 0; i < 300; i += 3) if (!names.has("s" + i)) unexpected.push("s" + i);
  const catalog = timed(() => buildCatalog(skills).text);
  return done({ good, loaded: skills.length, errors, unexpected, catalogChars: catalog.length });
};`,
      { timeoutMs: 60_000 },
    );
    expectBounded(result, { ms: 20_000, mb: 800 });
    const value = result.value!;
    expect(value.unexpected).toEqual([]);
    expect(value.good).toBe(100);
    // Each hostile kind appears 22 or 23 times among the other 200 files.
    expect(Object.keys(value.errors).sort(compareCodePoints)).toEqual([
      "FRONTMATTER_TOO_LARGE",
      "FRONTMATTER_UNCLOSED",
      "YAML_INVALID",
    ]);
    expect(value.errors["FRONTMATTER_UNCLOSED"]).toBeGreaterThanOrEqual(22);
    expect(value.errors["FRONTMATTER_TOO_LARGE"]).toBeGreaterThanOrEqual(22);
    // broken-legacy (not a skill), bomb and deep (SKILL.md, loaded by folder name with an error).
    expect(value.errors["YAML_INVALID"]).toBeGreaterThanOrEqual(66);
    // Good skills, plus the SKILL.md files whose YAML was refused (named after their folder), BOM/CRLF,
    // NUL, long descriptions and empty allowed-tools.
    expect(value.loaded).toBeGreaterThan(value.good);
    // Every description in the catalog is within the cap (1,024 code points per entry, at most).
    expect(value.catalogChars).toBeLessThan(value.loaded * 1_200);
  }, 70_000);

  it.runIf(existsSync(CORPUS))(
    "parses and validates the 246 corpus skills with no error diagnostics from parsing, in < 10 s and < 400 MB",
    async () => {
      const result = await runIsolated<{ files: number; parseErrors: string[]; worstMs: number }>(
        `${PRELUDE}
import { readdirSync, readFileSync } from "node:fs";
export default async (corpus) => {
  const files = [];
  for (const c of readdirSync(corpus, { withFileTypes: true })) if (c.isDirectory())
    for (const s of readdirSync(path.join(corpus, c.name), { withFileTypes: true })) if (s.isDirectory()) files.push(path.join(corpus, c.name, s.name, "SKILL.md"));
  const parseErrors = [];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const r = timed(() => safeParseSkill(text, { path: file }));
    if (!r.ok) parseErrors.push(file + ": " + r.error.code);
    else for (const d of r.diagnostics) if (d.severity === "error") parseErrors.push(file + ": " + d.code);
    timed(() => validateSkillMd(text, { strict: true, dirName: path.basename(path.dirname(file)) }));
  }
  return done({ files: files.length, parseErrors });
};`,
        { timeoutMs: 30_000, input: CORPUS },
      );
      expectBounded(result, { ms: 10_000, mb: 400 });
      expect(result.value).toMatchObject({ files: 246, parseErrors: [] });
    },
    40_000,
  );
});
