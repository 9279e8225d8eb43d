/**
 * Adversarial tests of CLAUDE.md `@import` expansion (issue 10): fan-out, cycles, mentions hidden in code,
 * floods of `@` words, deep nesting. The whole import tree is bounded while it is expanded (total bytes,
 * files, lookups); each attack runs in a fresh process (runIsolated) and each test's name states its bound.
 */
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

// Shared by the scripts: a temp repository, a writer, and expandImports called as loadGuidance calls it.
const PRELUDE = `
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expandImports } from "../packages/compat/src/imports.ts";
const repo = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-imports-")));
const put = (relative, content) => {
  const file = path.join(repo, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
};
async function expand(relative, options = {}) {
  const file = path.join(repo, relative);
  const { readFileSync } = await import("node:fs");
  const started = performance.now();
  const result = await expandImports(readFileSync(file, "utf8"), file, { repoRoot: repo, displayRoot: repo, maxBytes: 262144, ...options });
  return { ...result, ms: Math.round(performance.now() - started), codes: result.diagnostics.map((d) => d.code) };
}
const done = (value) => { rmSync(repo, { recursive: true, force: true }); return value; };
`;

/** One line per attack, for the record: what it cost. */
const logCost = (label: string, result: { wallMs: number; maxRssMb: number }) =>
  console.log(`${label}: ${Math.round(result.wallMs)} ms, ${Math.round(result.maxRssMb)} MB`);

// The scripts live in a temp folder; point their relative import at this repository's sources.
const source = (script: string) =>
  script.replace(
    "../packages/compat/src/imports.ts",
    new URL("../../packages/compat/src/imports.ts", import.meta.url).href,
  );

describe("adversarial: @import fan-out", () => {
  it("a CLAUDE.md importing 2,000 files of 64 KiB expands in < 5 s and < 400 MB, reading at most maxImportBytes (256 KiB)", async () => {
    const result = await runIsolated<{
      ms: number;
      imported: number;
      outBytes: number;
      codes: string[];
      notes: number;
    }>(
      source(`${PRELUDE}
export default async () => {
  const body = "x".repeat(65535) + "\\n";
  const lines = [];
  for (let i = 0; i < 2000; i++) {
    put("docs/part-" + i + ".md", body);
    lines.push("@docs/part-" + i + ".md");
  }
  put("CLAUDE.md", "# Project\\n" + lines.join("\\n") + "\\n");
  const r = await expand("CLAUDE.md");
  return done({ ms: r.ms, imported: r.imported.length, outBytes: Buffer.byteLength(r.text), codes: r.codes, notes: (r.text.match(/\\[skillctx: /g) ?? []).length });
};`),
      { timeoutMs: 60_000 },
    );
    expect(result.failed, result.stderr).toBe(false);
    logCost("2,000 × 64 KiB fan-out", result);
    expect(result.value?.imported).toBe(4);
    expect(result.value?.codes).toEqual(["IMPORT_LIMIT"]);
    expect(result.value?.notes).toBe(1);
    expect(result.value?.outBytes).toBeLessThan(262_144 + 64 * 1024); // the imports, CLAUDE.md itself (~50 KiB) and markers
    expect(result.value?.ms).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(400);
  }, 70_000);

  it("2,000 tiny imports, each importing the next: at most maxImportFiles (100) are read, depth stops at 5 (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{
      fan: { imported: number; codes: string[] };
      chain: { imported: number; codes: string[] };
    }>(
      source(`${PRELUDE}
export default async () => {
  const lines = [];
  for (let i = 0; i < 2000; i++) {
    put("t/" + i + ".md", "tiny " + i + "\\n@" + (i + 1) + ".md\\n");
    lines.push("@t/" + i + ".md");
  }
  put("CLAUDE.md", lines.join("\\n") + "\\n");
  put("CHAIN.md", "@t/0.md\\n");
  const fan = await expand("CLAUDE.md");
  const chain = await expand("CHAIN.md");
  return done({ fan: { imported: fan.imported.length, codes: [...new Set(fan.codes)] }, chain: { imported: chain.imported.length, codes: [...new Set(chain.codes)] } });
};`),
      { timeoutMs: 60_000 },
    );
    expectBounded(result, { ms: 5_000, mb: 300 });
    logCost("2,000 tiny imports / chain", result);
    expect(result.value?.fan.imported).toBe(100);
    expect(result.value?.fan.codes).toContain("IMPORT_LIMIT");
    expect(result.value?.chain).toEqual({ imported: 5, codes: ["IMPORT_TOO_DEEP"] });
  }, 70_000);

  it("loadGuidance itself holds the byte cap on a 2,000-file fan-out (< 10 s, < 400 MB)", async () => {
    const result = await runIsolated<{ skills: number; contentBytes: number; codes: string[] }>(
      `
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadGuidance } from "@skillctx/compat";
export default async () => {
  const repo = mkdtempSync(path.join(tmpdir(), "skillctx-adv-imports-"));
  mkdirSync(path.join(repo, "docs"));
  const body = "y".repeat(131071) + "\\n";
  const lines = [];
  for (let i = 0; i < 2000; i++) {
    writeFileSync(path.join(repo, "docs", i + ".md"), body);
    lines.push("@docs/" + i + ".md");
  }
  writeFileSync(path.join(repo, "CLAUDE.md"), lines.join("\\n") + "\\n");
  const { skills, diagnostics } = await loadGuidance(repo, { includeNested: false });
  rmSync(repo, { recursive: true, force: true });
  return { skills: skills.length, contentBytes: Buffer.byteLength(skills[0]?.content ?? ""), codes: [...new Set(diagnostics.map((d) => d.code))].sort() };
};`,
      { timeoutMs: 60_000 },
    );
    expectBounded(result, { ms: 10_000, mb: 400 });
    logCost("loadGuidance 2,000 × 128 KiB", result);
    expect(result.value?.skills).toBe(1);
    expect(result.value?.codes).toContain("IMPORT_LIMIT");
    expect(result.value?.contentBytes).toBeLessThanOrEqual(262_144);
  }, 70_000);
});

describe("adversarial: @import cycles and floods", () => {
  it("50 files that all import each other and themselves: each included once, cycles broken, lookups capped (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ imported: number; copies: number[]; codes: string[]; ms: number }>(
      source(`${PRELUDE}
export default async () => {
  const all = Array.from({ length: 50 }, (_, i) => "@n" + i + ".md").join(" ");
  for (let i = 0; i < 50; i++) put("n" + i + ".md", "NODE-" + i + "-BODY\\n" + all + "\\n");
  put("CLAUDE.md", all + "\\n");
  const r = await expand("CLAUDE.md");
  const copies = Array.from({ length: 50 }, (_, i) => (r.text.match(new RegExp("NODE-" + i + "-BODY", "g")) ?? []).length);
  return done({ imported: r.imported.length, copies, codes: [...new Set(r.codes)].sort(), ms: r.ms });
};`),
      { timeoutMs: 30_000 },
    );
    expect(result.failed, result.stderr).toBe(false);
    logCost("50-file import clique", result);
    expect(result.value?.copies.every((n) => n <= 1)).toBe(true);
    expect(result.value?.codes).toContain("IMPORT_CYCLE");
    expect(result.value?.ms).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(300);
  }, 40_000);

  it("30,000 `@word` mentions that name no file: at most maxImportLookups (1,000) looked up (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ imported: number; codes: string[]; ms: number; unchanged: boolean }>(
      source(`${PRELUDE}
export default async () => {
  const text = Array.from({ length: 30000 }, (_, i) => "ping @user" + i).join("\\n") + "\\n@real.md\\n";
  put("real.md", "REAL\\n");
  put("CLAUDE.md", text);
  const r = await expand("CLAUDE.md");
  return done({ imported: r.imported.length, codes: r.codes, ms: r.ms, unchanged: r.text.startsWith(text.slice(0, 1000)) });
};`),
      { timeoutMs: 30_000 },
    );
    expect(result.failed, result.stderr).toBe(false);
    logCost("30,000 @ mentions", result);
    expect(result.value?.codes).toEqual(["IMPORT_LIMIT"]);
    expect(result.value?.imported).toBe(0);
    expect(result.value?.unchanged).toBe(true);
    expect(result.value?.ms).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(300);
  }, 40_000);
});

describe("adversarial: @imports hidden in code", () => {
  it("100,000 mentions inside fences, indented code, HTML comments and HTML blocks: none looked up, none imported (< 5 s, < 300 MB)", async () => {
    const result = await runIsolated<{ imported: string[]; codes: string[]; ms: number }>(
      source(`${PRELUDE}
export default async () => {
  put("secret.md", "SECRET\\n");
  const block = (open, close) => open + "\\n" + "@secret.md\\n".repeat(20000) + close + "\\n\\n";
  const text =
    block("\`\`\`", "\`\`\`") +
    "Para.\\n\\n" + "    @secret.md\\n".repeat(20000) + "\\n" +
    block("<!--", "-->") +
    block("<div>", "</div>") +
    block("<pre>", "</pre>") +
    "@visible.md is prose; the rest was code.\\n";
  put("visible.md", "VISIBLE\\n");
  put("CLAUDE.md", text);
  // One lookup allowed: only the prose mention may use it.
  const r = await expand("CLAUDE.md", { maxImportLookups: 1, maxBytes: 4 * 1024 * 1024 });
  return done({ imported: r.imported, codes: r.codes, ms: r.ms });
};`),
      { timeoutMs: 30_000 },
    );
    expect(result.failed, result.stderr).toBe(false);
    logCost("100,000 mentions in code", result);
    expect(result.value?.imported).toEqual(["visible.md"]);
    expect(result.value?.codes).toEqual([]);
    expect(result.value?.ms).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(300);
  }, 40_000);

  it("50,000 nested block quotes and list items around mentions: scanned in < 5 s and < 300 MB, each file imported once", async () => {
    const result = await runIsolated<{ imported: string[]; ms: number }>(
      source(`${PRELUDE}
export default async () => {
  put("a.md", "A\\n");
  put("b.md", "B\\n");
  const text = "> ".repeat(50000) + "@a.md\\n" + "- ".repeat(50000) + "@b.md\\n" + "> @a.md\\n".repeat(50000);
  put("CLAUDE.md", text);
  const r = await expand("CLAUDE.md", { maxBytes: 4 * 1024 * 1024 });
  return done({ imported: r.imported, ms: r.ms });
};`),
      { timeoutMs: 30_000 },
    );
    expect(result.failed, result.stderr).toBe(false);
    logCost("50,000 nested containers", result);
    expect(result.value?.imported).toEqual(["a.md", "b.md"]);
    expect(result.value?.ms).toBeLessThan(5_000);
    expect(result.maxRssMb).toBeLessThan(300);
  }, 40_000);
});
