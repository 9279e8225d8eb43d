import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { splitFrontmatter } from "./frontmatter-split.js";
import { readHeadSync, readSkillHeadSync } from "./read-head.js";

let dir: string;
let counter = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillctx-read-head-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(content: string | Buffer): Promise<string> {
  const target = path.join(dir, `f${counter++}.md`);
  await writeFile(target, content);
  return target;
}

describe("readHeadSync", () => {
  it("reads through the closing fence and stops before the body", async () => {
    const target = await file("---\nname: a\ndescription: b\n---\n# Body\nsecret body text\n");
    const head = readHeadSync(target);
    expect(head).toMatchObject({ text: "---\nname: a\ndescription: b\n---\n", fenced: true, whole: false });
    const stats = await stat(target);
    expect(head.size).toBe(stats.size);
    expect(head.mtimeMs).toBe(stats.mtimeMs);
  });

  it("tolerates a BOM, blank lines before the fence, CRLF and trailing blanks on fences", async () => {
    const target = await file("\uFEFF\n  \r\n---  \r\nname: a\r\n---\t\r\nbody\r\n");
    expect(readHeadSync(target)).toMatchObject({
      text: "\uFEFF\n  \r\n---  \r\nname: a\r\n---\t\r\n",
      fenced: true,
      whole: false,
    });
  });

  it("reports a file that does not open with a fence, without reading its text", async () => {
    expect(readHeadSync(await file("# Title\n---\nname: a\n---\n"))).toMatchObject({ text: "", fenced: false });
    expect(readHeadSync(await file(""))).toMatchObject({ text: "", fenced: false });
    expect(readHeadSync(await file("-- \nname: a\n--\n"))).toMatchObject({ fenced: false });
  });

  it("returns the whole file when the block is never closed", async () => {
    const text = "---\nname: a\ndescription: no closing fence\nbody?\n";
    expect(readHeadSync(await file(text))).toEqual(expect.objectContaining({ text, fenced: true, whole: true }));
  });

  it("accepts a closing fence on the last line without a newline", async () => {
    const text = "---\nname: a\n----";
    expect(readHeadSync(await file(text))).toMatchObject({ text, fenced: true, whole: true });
  });

  it("extends past the first chunk until the closing fence, keeping multi-byte characters whole", async () => {
    // é is two bytes: with an odd chunk size a character straddles every chunk boundary.
    const description = "é".repeat(300);
    const target = await file(`---\nname: a\ndescription: ${description}\n---\nbody`);
    const head = readHeadSync(target, { chunkSize: 65 });
    expect(head.text).toBe(`---\nname: a\ndescription: ${description}\n---\n`);
    expect(head.whole).toBe(false);
  });

  it("agrees with splitFrontmatter on where the block ends, for any block and body", async () => {
    const line = fc.stringMatching(/^[a-z:" \-é#|>]{0,12}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 8 }),
        fc.array(line, { maxLength: 4 }),
        fc.integer({ min: 64, max: 200 }),
        async (block, body, chunkSize) => {
          const text = `---\n${block.map((l) => `${l}\n`).join("")}---\n${body.join("\n")}`;
          const head = readHeadSync(await file(text), { chunkSize });
          const split = splitFrontmatter(text);
          // The head ends at the first dash line; when the parser closes the block there too,
          // the head alone holds the same frontmatter.
          const headSplit = splitFrontmatter(head.text);
          if (headSplit.frontmatter !== undefined && headSplit.body === "") {
            expect(headSplit.frontmatter).toBe(split.frontmatter);
          }
          expect(text.startsWith(head.text)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("refuses a FIFO at once (NOT_A_FILE) instead of waiting for a writer", () => {
    const fifo = path.join(dir, "pipe.md");
    execFileSync("mkfifo", [fifo]);
    expect(() => readHeadSync(fifo)).toThrowError(expect.objectContaining({ code: "NOT_A_FILE" }));
  });

  it("refuses a file over maxBytes without reading it, and a head that does not close within it", async () => {
    const huge = await file("");
    await truncate(huge, 600 * 1024 * 1024);
    expect(() => readHeadSync(huge)).toThrowError(expect.objectContaining({ code: "TOO_LARGE" }));
    const long = await file(`---\nname: a\ndescription: ${"x".repeat(500)}\n---\nbody`);
    expect(() => readHeadSync(long, { maxBytes: 200, chunkSize: 64 })).toThrowError(
      expect.objectContaining({ code: "TOO_LARGE" }),
    );
    expect(readHeadSync(long, { maxBytes: 1000, chunkSize: 64 }).fenced).toBe(true);
  });
});

describe("readSkillHeadSync", () => {
  async function skillDir(files: Record<string, string>): Promise<string> {
    const folder = path.join(dir, `skill${counter++}`);
    await mkdir(folder, { recursive: true });
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(folder, name), text);
    return folder;
  }

  it("finds SKILL.md (or skill.md) and reads its head in the same open, with the file's size and mtime", async () => {
    const upper = await skillDir({ "SKILL.md": "---\nname: a\n---\nbody text\n" });
    const probe = readSkillHeadSync(upper);
    expect(probe).toMatchObject({
      path: path.join(upper, "SKILL.md"),
      head: { text: "---\nname: a\n---\n", fenced: true, whole: false },
    });
    const stats = await stat(path.join(upper, "SKILL.md"));
    expect(probe).toMatchObject({ head: { size: stats.size, mtimeMs: stats.mtimeMs } });
    const lower = await skillDir({ "skill.md": "---\nname: b\n---\n" });
    expect(readSkillHeadSync(lower)).toMatchObject({
      path: path.join(lower, "skill.md"),
      head: { text: "---\nname: b\n---\n", whole: true },
    });
  });

  it("says undefined for a folder without one, or whose SKILL.md is a folder", async () => {
    expect(readSkillHeadSync(await skillDir({ "README.md": "# x" }))).toBeUndefined();
    const folder = await skillDir({});
    await mkdir(path.join(folder, "SKILL.md"));
    expect(readSkillHeadSync(folder)).toBeUndefined();
    expect(readSkillHeadSync(path.join(folder, "missing"))).toBeUndefined();
  });

  it("asks for the stat path for a FIFO, a file over the limit, and a symlink while a root is set", async () => {
    const fifo = await skillDir({});
    execFileSync("mkfifo", [path.join(fifo, "SKILL.md")]);
    expect(readSkillHeadSync(fifo)).toBe("ask-stat");
    const big = await skillDir({ "SKILL.md": "" });
    await truncate(path.join(big, "SKILL.md"), 600 * 1024 * 1024);
    expect(readSkillHeadSync(big)).toBe("ask-stat");
    const target = await skillDir({ "SKILL.md": "---\nname: t\n---\n" });
    const linked = await skillDir({});
    await symlink(path.join(target, "SKILL.md"), path.join(linked, "SKILL.md"));
    expect(readSkillHeadSync(linked, dir)).toBe("ask-stat");
    // Without a root the symlink is followed, as stat follows it.
    expect(readSkillHeadSync(linked)).toMatchObject({ head: { text: "---\nname: t\n---\n" } });
  });
});
