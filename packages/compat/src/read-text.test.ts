import { execFileSync } from "node:child_process";
import { symlink } from "node:fs/promises";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { readGuidanceText, truncateText } from "./read-text.js";
import { put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

const read = (file: string, maxBytes = 1024) => readGuidanceText(file, { maxBytes, label: path.basename(file) });

describe("readGuidanceText", () => {
  test("keeps the text byte for byte: CRLF, frontmatter, trailing spaces", async () => {
    const dir = await tempDir();
    const written = "---\r\nname: x\r\n---\r\n# Title  \r\n\r\n\tindented\r\nlast line without newline";
    const file = await put(dir, "AGENTS.md", written);
    const result = await read(file);
    expect(result).toEqual({ ok: true, text: written });
  });

  test("drops only a leading UTF-8 BOM", async () => {
    const dir = await tempDir();
    const file = await put(dir, "AGENTS.md", "\uFEFF# héllo\n\uFEFFinner BOM stays\n");
    expect(await read(file)).toEqual({ ok: true, text: "# héllo\n\uFEFFinner BOM stays\n" });
  });

  test("refuses a binary file", async () => {
    const dir = await tempDir();
    const file = await put(dir, "CLAUDE.md", Buffer.from([0x23, 0x20, 0x41, 0x00, 0x42, 0x0a]));
    const result = await read(file);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.diagnostic).toMatchObject({ code: "GUIDANCE_BINARY", severity: "error", path: file });
  });

  test("refuses a file that is not UTF-8 and names the line", async () => {
    const dir = await tempDir();
    const bytes = Buffer.concat([Buffer.from("line one\nline two\ncaf"), Buffer.from([0xe9]), Buffer.from("\n")]);
    const file = await put(dir, "GEMINI.md", bytes);
    const result = await read(file);
    expect(!result.ok && result.diagnostic).toMatchObject({ code: "GUIDANCE_NOT_UTF8", path: file, line: 3 });
  });

  test("a missing file or a folder is reported as missing, without a diagnostic", async () => {
    const dir = await tempDir();
    expect(await read(path.join(dir, "nope.md"))).toEqual({ ok: false, missing: true });
    expect(await read(dir)).toEqual({ ok: false, missing: true });
  });

  test("cuts a long file at a line boundary, with a visible note, within the limit", async () => {
    const dir = await tempDir();
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} ${"x".repeat(20)}`);
    const written = `${lines.join("\n")}\n`;
    const file = await put(dir, "AGENTS.md", written);
    const result = await read(file, 2000);
    if (!result.ok) throw new Error("expected text");
    expect(result.truncated).toEqual({ size: Buffer.byteLength(written), kept: expect.any(Number) });
    const kept = result.truncated?.kept ?? 0;
    const head = written.slice(0, kept);
    expect(head.endsWith("\n")).toBe(true);
    expect(result.text.startsWith(head)).toBe(true);
    expect(result.text.slice(kept)).toContain("[skillctx: AGENTS.md was truncated here");
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(2000);
    // Nearly all of the limit is used: only the note and at most one line are missing.
    expect(kept).toBeGreaterThan(2000 - 300);
  });

  test("a single long line is cut between code points, never inside one", async () => {
    const dir = await tempDir();
    const file = await put(dir, "AGENTS.md", "é".repeat(3000));
    const result = await read(file, 1001);
    if (!result.ok) throw new Error("expected text");
    const head = result.text.slice(0, result.text.indexOf("\n"));
    expect(head).toMatch(/^é+$/);
    expect(Buffer.byteLength(result.text)).toBeLessThanOrEqual(1001);
  });
});

describe("readGuidanceText on hostile files", () => {
  test("a FIFO is refused at once with a warning, never waited on", async () => {
    const dir = await tempDir();
    const fifo = path.join(dir, "AGENTS.md");
    execFileSync("mkfifo", [fifo]);
    const result = await read(fifo);
    expect(!result.ok && result.diagnostic).toMatchObject({
      code: "GUIDANCE_NOT_A_FILE",
      severity: "warning",
      path: fifo,
    });
  });

  test("with root, a symlink out of the repository is refused and its text never read", async () => {
    const dir = await tempDir();
    const secret = await put(dir, "secret.txt", "SECRET\n");
    const repo = path.join(dir, "repo");
    await put(repo, "README.md", "x");
    await symlink(secret, path.join(repo, "AGENTS.md"));
    const result = await readGuidanceText(path.join(repo, "AGENTS.md"), {
      maxBytes: 100,
      label: "AGENTS.md",
      root: repo,
    });
    expect(result).toEqual({ ok: false, diagnostic: expect.objectContaining({ code: "GUIDANCE_OUTSIDE_REPOSITORY" }) });
    expect(JSON.stringify(result)).not.toContain("SECRET");
  });
});

describe("truncateText", () => {
  test("leaves text that fits alone", () => {
    expect(truncateText("abc\n", 4, "x")).toBeUndefined();
  });

  test("property: the result is a prefix of whole lines (or code points) plus the note, within the limit", () => {
    const text = fc
      .array(fc.oneof(fc.string({ unit: "grapheme", maxLength: 30 }), fc.constant("\n")), { maxLength: 60 })
      .map((p) => p.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 120, max: 600 }), (input, max) => {
        const cut = truncateText(input, max, "F.md");
        const size = Buffer.byteLength(input);
        if (size <= max) return cut === undefined;
        if (cut === undefined) return false;
        const head = Buffer.from(input, "utf8").subarray(0, cut.kept).toString("utf8");
        const noteAt = cut.text.lastIndexOf("[skillctx: F.md was truncated here");
        return (
          cut.size === size &&
          cut.text.startsWith(head) &&
          input.startsWith(head) &&
          noteAt >= head.length &&
          Buffer.byteLength(cut.text) <= max &&
          (head.endsWith("\n") || !head.includes("\n"))
        );
      }),
    );
  });
});
