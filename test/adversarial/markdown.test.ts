/**
 * Adversarial tests of the one markdown scanner (issue 10) and of what `` !`cmd` `` rendering may add to a
 * text. Each attack runs in a fresh process (runIsolated); each test's name states its bound. Bounds are
 * generous: the scanner is linear, so these inputs take tens to hundreds of milliseconds, not seconds.
 */
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const MIB = 1024 * 1024;

// Builds one hostile text by name (in the child, so that the parent never holds it).
const INPUTS = `
const MIB = ${MIB};
const fill = (unit, bytes) => unit.repeat(Math.ceil(bytes / unit.length));
const inputs = {
  "2 MiB one line of closed spans": () => fill("\`a\` ", 2 * MIB),
  "2 MiB one line of commands": () => fill("!\`x\` ", 2 * MIB),
  "2 MiB one line of escaped commands": () => fill("\\\\!\`x\` ", 2 * MIB),
  "one paragraph of 2,000 backtick runs of distinct lengths": () => Array.from({ length: 2000 }, (_, i) => "\`".repeat(i + 1)).join(" x "),
  "100,000 unclosed backtick runs, one per paragraph": () => fill("x \`\` !\`y\\n\\n", 1.2 * MIB),
  "100,000 unclosed backtick runs in one paragraph": () => "\`" + fill(" \`\`\` !", 0.5 * MIB) + fill(" \`\` x", 0.5 * MIB),
  "50,000 nested list items on one line, then 1,000,000 blank lines": () => "- ".repeat(50000) + "x\\n" + "\\n".repeat(1000000),
  "50,000 nested block quotes, then 100,000 lazy lines": () => "> ".repeat(50000) + "x\\n" + fill("> !\`y\` lazy\\n", 1.3 * MIB),
  "100 nested list items, then 100,000 lines of matching indentation": () => "- ".repeat(100) + "x\\n" + fill(" ".repeat(200) + "!\`y\`\\n", 2 * MIB),
  "2 MiB of <!-- on one line": () => fill("<!--", 2 * MIB),
  "500,000 lines of <!-- (an unclosed HTML block)": () => "para\\n\\n" + fill("<!-- !\`x\`\\n", 2 * MIB),
  "500,000 paragraphs opening <!-- inline": () => fill("a <!-- \`x\`\\n\\n", 2 * MIB),
  "2 MiB of unclosed tags with quoted attributes": () => fill("<a b=\\"!\`x\` <c d='", 2 * MIB),
  "2 MiB of <pre> lines never closed": () => fill("<pre>\\n\`x\`\\n", 2 * MIB),
  "2 MiB of fence openers and closers": () => fill("\`\`\`\\n!\`x\`\\n\`\`\`\\n~~~~\\n", 2 * MIB),
  "2 MiB of tab-indented lines": () => fill("\\t\\t\\t\\t\\t!\`x\`\\n", 2 * MIB),
  "one 2 MiB line of spaces and tabs": () => "- a\\n" + fill(" \\t", 2 * MIB) + "x",
  "1 MiB of autolink and e-mail openers": () => fill("<a\`b@c <http:x\`y ", MIB),
};
`;

describe("adversarial: the markdown scanner is linear", () => {
  it("each hostile 0.5–3 MiB input is scanned by codeRegions and findCommands in < 3 s and < 600 MB", async () => {
    const result = await runIsolated<Record<string, { bytes: number; ms: number; regions: number; commands: number }>>(
      `${INPUTS}
import { codeRegions } from "@skillctx/core/internal";
import { findCommands } from "@skillctx/render";
export default async () => {
  const out = {};
  for (const [name, make] of Object.entries(inputs)) {
    const text = make();
    const started = performance.now();
    const regions = codeRegions(text).length;
    const commands = findCommands(text).length;
    out[name] = { bytes: text.length, ms: Math.round(performance.now() - started), regions, commands };
  }
  return out;
};`,
      { timeoutMs: 120_000 },
    );
    expect(result.failed, result.stderr).toBe(false);
    const figures = result.value ?? {};
    console.log(`markdown scanner, hostile inputs (max RSS ${Math.round(result.maxRssMb)} MB):`, figures);
    expect(Object.keys(figures)).toHaveLength(18);
    for (const [name, figure] of Object.entries(figures)) expect(figure.ms, name).toBeLessThan(3_000);
    expect(result.maxRssMb).toBeLessThan(600);
    // Sanity: the scanner read the inputs, it did not give up on them.
    expect(figures["2 MiB one line of commands"]?.commands).toBe(Math.ceil((2 * MIB) / 5));
    expect(figures["2 MiB of <!-- on one line"]?.commands).toBe(0);
    expect(figures["500,000 lines of <!-- (an unclosed HTML block)"]?.commands).toBe(0);
  }, 150_000);
});

describe("adversarial: what rendering adds to one text is bounded", () => {
  for (const trust of ["trusted", "untrusted"] as const) {
    it(`60,000 ${trust} spans render in < 10 s and < 500 MB; the text grows by at most maxRenderedBytes (128 KiB), with one note`, async () => {
      const result = await runIsolated<{
        inBytes: number;
        outBytes: number;
        runs: number;
        notes: number;
        notRendered: number;
        leftAsWritten: boolean;
      }>(
        `
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { renderCommands } from "@skillctx/render";
export default async (trusted) => {
  const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-adv-render-"));
  // Each span prints 4 KiB when run; untrusted, each becomes a "not run" marker longer than the span.
  const text = Array.from({ length: 60000 }, (_, i) => "step " + i + ": !\`head -c 4096 /dev/zero | tr '\\\\0' x\`").join("\\n");
  const result = await renderCommands(text, { cwd, scope: "project", trust: { project: trusted }, maxCommands: 60000 });
  rmSync(cwd, { recursive: true, force: true });
  return {
    inBytes: Buffer.byteLength(text),
    outBytes: Buffer.byteLength(result.text),
    runs: result.runs.length,
    notes: (result.text.match(/\\[skillctx: /g) ?? []).length,
    notRendered: result.limited?.notRendered ?? 0,
    leftAsWritten: result.text.includes("step 59999: !\`head -c 4096"),
  };
};`,
        { timeoutMs: 60_000, input: trust === "trusted" },
      );
      expectBounded(result, { ms: 10_000, mb: 500 });
      const value = result.value;
      console.log(`60,000 ${trust} spans: ${Math.round(result.wallMs)} ms, ${Math.round(result.maxRssMb)} MB`, value);
      expect(value?.outBytes).toBeLessThanOrEqual((value?.inBytes ?? 0) + 131_072);
      expect(value?.notes).toBe(1);
      expect(value?.leftAsWritten).toBe(true);
      expect((value?.runs ?? 0) + (value?.notRendered ?? 0)).toBe(60_000);
      expect(value?.runs).toBeGreaterThan(0);
    }, 70_000);
  }

  it("60,000 untrusted spans with the default caps: 50 markers, the rest as written (< 10 s, < 500 MB)", async () => {
    const result = await runIsolated<{ growth: number; runs: number; notRendered: number }>(
      `
import { renderCommands } from "@skillctx/render";
export default async () => {
  const text = Array.from({ length: 60000 }, (_, i) => "!\`rm -rf /tmp/nothing-" + i + "\`").join(" ");
  const result = await renderCommands(text, { cwd: "/", scope: "project" });
  return { growth: Buffer.byteLength(result.text) - Buffer.byteLength(text), runs: result.runs.length, notRendered: result.limited?.notRendered ?? 0 };
};`,
      { timeoutMs: 30_000 },
    );
    expectBounded(result, { ms: 10_000, mb: 500 });
    expect(result.value?.runs).toBe(50);
    expect(result.value?.notRendered).toBe(59_950);
    expect(result.value?.growth).toBeLessThan(131_072);
  }, 40_000);
});
