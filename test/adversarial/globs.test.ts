/**
 * Adversarial tests of the one glob module (issue 10): backtracking shapes, brace bombs, very long and
 * very many globs, deep and long paths, unclosed classes, trailing backslashes and NUL bytes, through
 * `createPathMatcher` (OpenHands `paths:`), Cursor rules loaded from a real repository, and the
 * `allowed-tools` name patterns. Each attack runs in a fresh process (runIsolated) and states its bound.
 *
 * What micromatch did with the same inputs (today's matcher, for the record): `**\/` + `*?` × 40 + `x`
 * against a 2,000-character path blocked for minutes; 20 brace sets of 2 expanded to 1,048,576 globs.
 */
import { describe, expect, it } from "vitest";
import { itWithTool } from "../helpers/tools-present.js";
import { expectBounded, runIsolated } from "./isolated.js";
import { compareCodePoints } from "../../packages/core/src/code-point-order.js";

const PRELUDE = `
import { createPathMatcher } from "@skillctx/core";
import { compileGlob, compileNamePattern, splitGlobList } from "@skillctx/core/internal";
const skill = (name, globs) => ({ name, trigger: { type: "path", globs }, source: { path: "/repo/.openhands/microagents/" + name + ".md" } });
const codes = (diagnostics) => diagnostics.map((d) => d.code);
`;

async function run<T>(body: string, timeoutMs = 30_000) {
  const result = await runIsolated<T>(`${PRELUDE}\nexport default async () => {\n${body}\n};`, { timeoutMs });
  expectBounded(result, { ms: 2_000, mb: 300 });
  expect(result.timedOut).toBe(false);
  return result as typeof result & { value: T };
}

describe("adversarial: backtracking shapes", () => {
  it("**/ + *? × 40 + x against 200 paths of up to 4 KiB is matched in < 2 s and < 300 MB", async () => {
    const result = await run<{ fired: string[]; diagnostics: string[] }>(`
  const matcher = createPathMatcher([skill("bt", ["**/" + "*?".repeat(40) + "x"])]);
  const paths = [];
  for (let i = 0; i < 100; i++) paths.push("a/".repeat(i) + "b".repeat(4000 - 2 * i)); // no x: every start fails
  for (let i = 0; i < 100; i++) paths.push("d/" + "b".repeat(3000) + "/" + "c".repeat(i) + "x"); // last segment too short
  const fired = [];
  for (const p of paths) for (const m of matcher.match([p], "/repo")) fired.push(m.path.length);
  const hit = matcher.match(["src/" + "y".repeat(40) + "x"], "/repo").map((m) => m.skill);
  return { fired: [...fired.map(String), ...hit], diagnostics: codes(matcher.diagnostics) };`);
    // The last segment needs 41 characters before its x: the second batch reaches it from i = 40 on.
    expect(result.value.fired.filter((f) => f !== "bt")).toHaveLength(60);
    expect(result.value.fired.at(-1)).toBe("bt");
    expect(result.value.diagnostics).toEqual([]);
  }, 40_000);

  it("the worst accepted shape (*a × 254 + *b*, 511 characters, at the 512-character cap) against 20 paths of 4 KiB of a's takes < 5 s and < 300 MB", async () => {
    const result = await run<{ ok: boolean; hits: number; worstMs: number }>(`
  const compiled = compileGlob("/" + "*a".repeat(254) + "*b*"); // anchored: 511 characters compiled
  if (!compiled.ok) return { ok: false, hits: 0, worstMs: 0 };
  let hits = 0, worstMs = 0;
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    if (compiled.glob.test("a".repeat(4096 - i))) hits++;
    worstMs = Math.max(worstMs, performance.now() - started);
  }
  return { ok: true, hits, worstMs };`);
    expect(result.value).toMatchObject({ ok: true, hits: 0 });
    // One test is (512 + 1) × 4,096 automaton steps at most.
    expect(result.value.worstMs).toBeLessThan(1_000);
    expect(result.wallMs).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(300);
  }, 40_000);

  it("a skill of 10,000 hostile globs compiles at most the rule's cap (4,096 characters) and one match() of a 4 KiB path takes < 5 s, < 300 MB", async () => {
    const result = await run<{ diagnostics: string[]; messages: string[]; matchMs: number; fired: number }>(`
  const globs = Array.from({ length: 10_000 }, (_, i) => "/" + "*a".repeat(254) + "*" + (i % 10) + "*"); // 512 characters each
  const started = performance.now();
  const matcher = createPathMatcher([skill("many", globs)]);
  const compileMs = performance.now() - started;
  const t = performance.now();
  const fired = matcher.match(["a".repeat(4090) + "0"], "/repo").length;
  return { diagnostics: codes(matcher.diagnostics), messages: matcher.diagnostics.map((d) => d.message), matchMs: performance.now() - t, fired, compileMs };`);
    expect(result.value.diagnostics).toEqual(["GLOB_TOO_COMPLEX"]);
    expect(result.value.messages[0]).toContain(
      'Globs of skill "many" refused: the globs are longer than 4,096 characters together; only the first 8 are used',
    );
    expect(result.value.fired).toBe(1);
    expect(result.value.matchMs).toBeLessThan(5_000);
    expect(result.wallMs).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(300);
  }, 40_000);
});

describe("adversarial: braces", () => {
  it("20 brace sets of 2 (1,048,576 patterns) are refused without expanding, in < 1 s and < 200 MB", async () => {
    const result = await run<{ ok: boolean; message: string; diagnostics: string[]; other: boolean }>(`
  const bomb = "{a,b}".repeat(20) + "/**";
  const compiled = compileGlob(bomb);
  const matcher = createPathMatcher([skill("bomb", [bomb, "*.md"])]);
  return { ok: compiled.ok, message: compiled.ok ? "" : compiled.diagnostic.message, diagnostics: codes(matcher.diagnostics), other: matcher.match(["x/y.md"], "/repo").length === 1 };`);
    expect(result.value).toMatchObject({ ok: false, diagnostics: ["GLOB_TOO_COMPLEX"], other: true });
    expect(result.value.message).toContain("braces stand for more than 1,024 patterns");
    expect(result.wallMs).toBeLessThan(1_000);
    expect(result.maxRssMb).toBeLessThan(200);
  }, 40_000);

  it("200 nested brace levels and 250 one-character alternatives are matched in < 1 s and < 200 MB", async () => {
    const result = await run<boolean[]>(`
  const nested = "{a," .repeat(100) + "b" + "}".repeat(100); // 100 levels within the 512-character cap
  const wide = "{" + Array.from({ length: 250 }, (_, i) => String.fromCharCode(0x4e00 + i)).join(",") + "}";
  const a = compileGlob("/" + nested), b = compileGlob("/" + wide + "/**");
  const deep = "{".repeat(200) + "x" + "}".repeat(200); // no commas: literal text
  const c = compileGlob("/" + deep);
  return [a.ok && a.glob.test("b"), a.ok && a.glob.test("a"), a.ok && a.glob.test("c"), b.ok && b.glob.test(String.fromCharCode(0x4e00 + 249) + "/x"), c.ok && c.glob.test(deep)];`);
    expect(result.value).toEqual([true, true, false, true, true]);
    expect(result.wallMs).toBeLessThan(1_000);
    expect(result.maxRssMb).toBeLessThan(200);
  }, 40_000);

  itWithTool("git")(
    "a Cursor rule with a brace bomb, above cwd (relocated) and below it, loads with GLOB_TOO_COMPLEX in < 5 s and < 300 MB",
    async () => {
      const result = await run<{ diagnostics: string[]; triggers: unknown[] }>(`
  const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import("node:fs");
  const { execFileSync } = await import("node:child_process");
  const { tmpdir } = await import("node:os");
  const path = (await import("node:path")).default;
  const { loadGuidance } = await import("@skillctx/compat");
  const root = mkdtempSync(path.join(tmpdir(), "skillctx-adv-globs-"));
  execFileSync("git", ["init", "-q", root]);
  const bomb = "{a,b}".repeat(20);
  const rule = (dir, name) => {
    mkdirSync(path.join(root, dir, ".cursor/rules"), { recursive: true });
    writeFileSync(path.join(root, dir, ".cursor/rules", name + ".mdc"), "---\\nglobs: packages/api/" + bomb + "/**, " + "*?".repeat(300) + ", **/*.ts\\n---\\nRule " + name + "\\n");
  };
  rule("", "top");
  rule("packages/api/web", "nested");
  writeFileSync(path.join(root, "packages/api/web/index.ts"), "");
  execFileSync("git", ["-C", root, "add", "-A"]);
  const { skills, diagnostics } = await loadGuidance(path.join(root, "packages/api"));
  rmSync(root, { recursive: true, force: true });
  return {
    diagnostics: diagnostics.filter((d) => d.code === "GLOB_TOO_COMPLEX").map((d) => path.basename(d.path ?? "")),
    triggers: skills.filter((s) => s.name.startsWith("cursor")).map((s) => s.trigger),
  };`);
      expect(result.value.diagnostics.sort(compareCodePoints)).toEqual([
        "nested.mdc",
        "nested.mdc",
        "top.mdc",
        "top.mdc",
      ]);
      expect(result.value.triggers).toEqual([
        { type: "path", globs: ["**/*.ts"] },
        { type: "path", globs: ["web/**/*.ts"] },
      ]);
      expect(result.wallMs).toBeLessThan(5_000);
      expect(result.maxRssMb).toBeLessThan(300);
    },
    40_000,
  );
});

describe("adversarial: sizes and odd characters", () => {
  it("a 1 MB glob and a 1 MB paths: string are refused or split in < 1 s and < 300 MB", async () => {
    const result = await run<{ long: boolean; split: number; code: string; messageLength: number }>(`
  const huge = "**/" + "*?".repeat(500_000);
  const compiled = compileGlob(huge);
  const split = splitGlobList("{a,b}/*.ts,".repeat(90_000));
  const matcher = createPathMatcher([skill("huge", [huge])]);
  return { long: compiled.ok, split: split.length, code: matcher.diagnostics[0]?.code, messageLength: matcher.diagnostics[0]?.message.length ?? 0 };`);
    expect(result.value).toMatchObject({ long: false, split: 90_000, code: "GLOB_TOO_COMPLEX" });
    expect(result.value.messageLength).toBeLessThan(300);
    expect(result.wallMs).toBeLessThan(1_000);
    expect(result.maxRssMb).toBeLessThan(300);
  }, 40_000);

  it("deep paths (2,000 folders) and paths over 4 KiB against ** globs take < 1 s and < 200 MB", async () => {
    const result = await run<boolean[]>(`
  const matcher = createPathMatcher([skill("deep", ["**/a/**/b/**/*.ts", "**/z"])]);
  const deep = "a/".repeat(2000) + "b/c.ts";
  const tooLong = "x/".repeat(3000) + "z";
  const fire = (p) => matcher.match([p], "/repo").length > 0;
  return [fire(deep.slice(0, 4000 - 6) + "b/c.ts"), fire(tooLong), fire("a/b/c.ts"), fire("q/a/r/b/s/c.ts")];`);
    // A path longer than 4,096 characters matches nothing.
    expect(result.value).toEqual([true, false, true, true]);
    expect(result.wallMs).toBeLessThan(1_000);
    expect(result.maxRssMb).toBeLessThan(200);
  }, 40_000);

  it("unclosed classes, trailing backslashes and NUL bytes never throw and stay literal, in < 1 s and < 200 MB", async () => {
    const result = await run<unknown[]>(`
  const t = (glob, path) => { const c = compileGlob(glob); return c.ok ? c.glob.test(path) : c.diagnostic.code; };
  const brackets = "[".repeat(500);
  return [
    t("/" + brackets, brackets),
    t("/a[!" + "-".repeat(400), "a[!" + "-".repeat(400)),
    t("/a[b-", "a[b-"),
    t("/x" + "\\\\".repeat(200), "x" + "\\\\".repeat(100)),
    t("/x\\\\", "x\\\\"),
    t("/a\\0b*", "a\\0bc"),
    t("**/\\0", "d/\\0"),
    createPathMatcher([skill("nul", ["**"])]).match(["a\\0b"], "/repo").length,
    t("/" + "[]".repeat(250), "[]".repeat(250)), // [][] is one class of [ and ]: 125 classes
    t("/" + "[]".repeat(250), "][".repeat(62) + "]"),
  ];`);
    expect(result.value).toEqual([true, true, true, true, true, true, true, 0, false, true]);
    expect(result.wallMs).toBeLessThan(1_000);
    expect(result.maxRssMb).toBeLessThan(200);
  }, 40_000);

  it("allowed-tools patterns of the backtracking shape (256-character cap) test 1,000 tool names in < 2 s and < 200 MB", async () => {
    const result = await run<{ hits: number; long: boolean; longName: boolean }>(`
  const compiled = compileNamePattern("*a".repeat(127) + "*b");
  if (!compiled.ok) return { hits: -1, long: false };
  let hits = 0;
  for (let i = 0; i < 1000; i++) if (compiled.glob.test("a".repeat(255) + (i % 2 === 0 ? "b" : "c"))) hits++;
  return { hits, long: compileNamePattern("*".repeat(100_000)).ok, longName: compiled.glob.test("a".repeat(300) + "b") };`);
    expect(result.value).toEqual({ hits: 500, long: false, longName: false });
    expect(result.wallMs).toBeLessThan(2_000);
    expect(result.maxRssMb).toBeLessThan(200);
  }, 40_000);
});
