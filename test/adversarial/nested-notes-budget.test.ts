// Issue 35: one tool call whose `paths` touch 60 packages of 40 skills each put 59 nested-skill notes,
// 957 KB, on one tool result, even with `catalog.budgetTokens: 2000` (each note was capped, the tool
// result was not). Now the notes on one tool result are capped together
// (MAX_NESTED_NOTES_BYTES_PER_RESULT), the step's notes keep to `catalog.budgetTokens`, and the folders
// left out are counted on one cut line with a CATALOG_NOTE_CUT diagnostic. Real folders, a temp git repo.
import { execFileSync } from "node:child_process";
import { Buffer } from "node:buffer";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { countTokens } from "@skillctx/core";
import { MAX_NESTED_NOTES_BYTES_PER_RESULT } from "../../packages/engine/src/limits.js";
import { readFileTurn, useEngineFixture } from "../helpers/engine-fixture.js";
import { describeWithTool } from "../helpers/tools-present.js";

const fx = useEngineFixture();
const PACKAGES = 60;
const SKILLS = 40;

async function monorepo(): Promise<{ dir: string; paths: string[] }> {
  const repo = await fx.repo({});
  execFileSync("git", ["init", "--quiet", repo.dir], { stdio: "ignore" });
  const paths: string[] = [];
  for (let p = 0; p < PACKAGES; p++) {
    const pkg = path.join(repo.dir, "packages", `p${p}`);
    await mkdir(path.join(pkg, "src"), { recursive: true });
    await writeFile(path.join(pkg, "src/a.ts"), "export {};\n");
    paths.push(`packages/p${p}/src/a.ts`);
    await Promise.all(
      Array.from({ length: SKILLS }, async (_, s) => {
        const dir = path.join(pkg, ".claude/skills", `p${p}-s${s}`);
        await mkdir(dir, { recursive: true });
        await writeFile(
          path.join(dir, "SKILL.md"),
          `---\nname: p${p}-s${s}\ndescription: ${"What this generated skill of a package does, at some length. ".repeat(6)}\n---\nBody.\n`,
        );
      }),
    );
  }
  return { dir: repo.dir, paths };
}

const nestedText = (attachments: readonly { text: string; messageIndex: number }[]) =>
  attachments.filter((a) => a.text.startsWith("<nested_skills") || a.text.includes("more nested skill folder"));

describeWithTool("git")("nested-skill notes have a budget per tool result and per step", () => {
  it("60 packages of 40 skills touched by one call: the notes on its result are capped, with a cut line", async () => {
    const { dir, paths } = await monorepo();
    const ctx = await fx.context({ cwd: dir });
    const step = await ctx.buildContext(readFileTurn("go", { paths }));
    const notes = nestedText(step.attachments);
    const total = notes.reduce((sum, a) => sum + Buffer.byteLength(a.text), 0);
    console.info(`${expect.getState().currentTestName}: ${notes.length} notes, ${total} bytes`);
    expect(total).toBeLessThanOrEqual(MAX_NESTED_NOTES_BYTES_PER_RESULT);
    // All on the one tool result (message 2 of the turn).
    expect(new Set(notes.map((a) => a.messageIndex))).toEqual(new Set([2]));
    const cut = notes
      .map((a) => /\[skillctx: (\d+) more nested skill folders were revealed/.exec(a.text))
      .find(Boolean);
    expect(cut).toBeDefined();
    const listedFolders = notes.filter((a) => a.text.startsWith("<nested_skills")).length;
    expect(listedFolders).toBeGreaterThan(0);
    expect(listedFolders + Number(cut![1])).toBe(PACKAGES);
    expect(step.diagnostics.some((d) => d.code === "CATALOG_NOTE_CUT" && /nested skill folders/.test(d.message))).toBe(
      true,
    );
    // Every folder is revealed: a skill whose note was left out still loads by name.
    expect((await ctx.callTool("load_skill", { name: `p${PACKAGES - 1}-s0` })).isError).toBeUndefined();
  }, 120_000);

  it("with catalog.budgetTokens: 2000 the step's nested notes take at most 2,000 tokens", async () => {
    const { dir, paths } = await monorepo();
    const ctx = await fx.context({ cwd: dir, catalog: { budgetTokens: 2000 } });
    const step = await ctx.buildContext(readFileTurn("go", { paths }));
    const notes = nestedText(step.attachments);
    const tokens = notes.reduce((sum, a) => sum + countTokens(a.text), 0);
    console.info(`${expect.getState().currentTestName}: ${notes.length} notes, ${tokens} tokens`);
    expect(tokens).toBeLessThanOrEqual(2000);
    expect(notes.some((a) => /more nested skill folders were revealed/.test(a.text))).toBe(true);
  }, 120_000);
});
