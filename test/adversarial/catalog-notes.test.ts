// Issue 25: catalog notes have a budget. 3,000 nested skills revealed by one tool call, or 3,000 skills
// added under `watch`, put one note of at most MAX_CATALOG_NOTE_BYTES on the tool result / the newest
// message (before the fix: a 3.2 MB note), with a cut line that says how many were left out and how to
// see them, and a CATALOG_NOTE_CUT diagnostic. Real folders in a temp git repository.
import { execFileSync } from "node:child_process";
import { Buffer } from "node:buffer";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import type { Message } from "skillctx";
import { MAX_CATALOG_NOTE_BYTES } from "../../packages/engine/src/limits.js";
import { readFileTurn, useEngineFixture, user } from "../helpers/engine-fixture.js";
import { describeWithTool } from "../helpers/tools-present.js";

const fx = useEngineFixture();
const COUNT = 3_000;
const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: ${"A long description of what this generated skill does, repeated. ".repeat(12)}\n---\nBody.\n`;

async function writeSkills(root: string, prefix: string): Promise<void> {
  for (let i = 0; i < COUNT; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, COUNT - i) }, async (_, j) => {
        const name = `${prefix}-${String(i + j).padStart(4, "0")}`;
        await mkdir(path.join(root, name), { recursive: true });
        await writeFile(path.join(root, name, "SKILL.md"), skillMd(name));
      }),
    );
  }
}

describeWithTool("git")("catalog notes are capped", () => {
  it("3,000 nested skills revealed by one tool call: one capped note, a cut line, CATALOG_NOTE_CUT", async () => {
    const repo = await fx.repo({ "packages/big/src/a.ts": "export {};\n" });
    execFileSync("git", ["init", "--quiet", repo.dir], { stdio: "ignore" });
    await writeSkills(path.join(repo.dir, "packages/big/.claude/skills"), "n");
    const ctx = await fx.context({ cwd: repo.dir, conversation: { nestedSkills: { maxFolders: 10 } } });
    const history = readFileTurn("go", { file_path: "packages/big/src/a.ts" });
    const step = await ctx.buildContext(history);
    const notes = step.attachments.filter((a) => a.text.startsWith("<nested_skills"));
    expect(notes).toHaveLength(1);
    const text = notes[0]!.text;
    console.info(`${expect.getState().currentTestName}: note ${Buffer.byteLength(text)} bytes`);
    expect(Buffer.byteLength(text)).toBeLessThan(100_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_CATALOG_NOTE_BYTES);
    const cut =
      /\[(\d+) more skills are not listed: this note is capped at \d+ bytes\. List packages\/big\/\.claude\/skills/.exec(
        text,
      );
    expect(cut).not.toBeNull();
    const listed = (text.match(/<name>/g) ?? []).length;
    expect(listed).toBeGreaterThan(0);
    expect(listed + Number(cut![1])).toBe(COUNT);
    expect(step.diagnostics.map((d) => d.code)).toContain("CATALOG_NOTE_CUT");
    // Every one of them is still in the skill set, loadable by name.
    expect((await ctx.callTool("load_skill", { name: "n-2999" })).isError).toBeUndefined();
  }, 60_000);

  it("3,000 skills added under watch: one capped <skills_update> note, a cut line, CATALOG_NOTE_CUT", async () => {
    const repo = await fx.repo({ ".agents/skills/seed/SKILL.md": skillMd("seed") });
    const ctx = await fx.context({
      cwd: repo.dir,
      sources: { watch: { debounceMs: 20 } },
      catalog: { updates: "append" },
    });
    const messages: Message[] = [user("hello")];
    await ctx.buildContext(messages);
    await writeSkills(path.join(repo.dir, ".agents/skills"), "w");
    // The watcher caps what it watches; refresh() reloads whatever it missed, as documented.
    await ctx.refresh();
    messages.push({ role: "assistant", content: "hi" }, user("go on"));
    const step = await ctx.buildContext(messages);
    const notes = step.attachments.filter((a) => a.text.includes("<skills_update>"));
    expect(notes).toHaveLength(1);
    const text = notes[0]!.text;
    console.info(`${expect.getState().currentTestName}: note ${Buffer.byteLength(text)} bytes`);
    expect(Buffer.byteLength(text)).toBeLessThan(100_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_CATALOG_NOTE_BYTES);
    const cut = /\[(\d+) more skills are not listed: this note is capped at \d+ bytes\./.exec(text);
    expect(cut).not.toBeNull();
    expect((text.match(/<name>/g) ?? []).length + Number(cut![1])).toBe(COUNT);
    expect(step.diagnostics.map((d) => d.code)).toContain("CATALOG_NOTE_CUT");
  }, 60_000);
});
