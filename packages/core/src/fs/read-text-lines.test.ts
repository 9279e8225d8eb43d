import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTextLines } from "./read-text-lines.js";

let dir: string;
let counter = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skillctx-lines-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(content: string | Buffer): Promise<string> {
  const target = path.join(dir, `f${counter++}.txt`);
  await writeFile(target, content);
  return target;
}

// What the reader must give: whole lines startLine..endLine that fit in maxBytes.
function expected(text: string, startLine: number, endLine: number, maxBytes: number): string {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  let out = "";
  for (const line of lines.slice(startLine - 1, endLine)) {
    if (Buffer.byteLength(out + line) > maxBytes) {
      if (out === "") out = new TextDecoder().decode(Buffer.from(line).subarray(0, maxBytes)).replace(/\uFFFD$/, "");
      break;
    }
    out += line;
  }
  return out;
}

describe("readTextLines", () => {
  it("agrees with splitting the whole text, for any text, range and cap (lines across 64 KiB chunks included)", async () => {
    const line = fc.oneof(fc.string({ maxLength: 20 }), fc.constant("é".repeat(40_000)), fc.constant(""));
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 8 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 200_000 }),
        async (lines, trailing, startLine, extra, maxBytes) => {
          const text =
            lines.map((l) => l.replace(/[\n\0]/g, "")).join("\n") + (trailing && lines.length > 0 ? "\n" : "");
          const read = await readTextLines(await file(text), { startLine, endLine: startLine + extra, maxBytes });
          if (!read.ok) throw new Error("expected text");
          expect(read.text).toBe(expected(text, startLine, startLine + extra, maxBytes));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("counts the lines of a file it read to the end", async () => {
    const read = await readTextLines(await file("a\nb\nc"), { startLine: 2, endLine: Infinity, maxBytes: 100 });
    expect(read).toMatchObject({
      ok: true,
      text: "b\nc",
      first: 2,
      last: 3,
      cut: false,
      reachedEnd: true,
      totalLines: 3,
    });
  });

  it("shows the start of a single line longer than the cap, on a character boundary, with memory of the cap only", async () => {
    const read = await readTextLines(await file(`${"é".repeat(200_000)}\nnext\n`), {
      startLine: 1,
      endLine: Infinity,
      maxBytes: 101,
    });
    expect(read).toMatchObject({ ok: true, text: "é".repeat(50), cut: true, splitLine: true, last: 1 });
  });

  it("does not look further than maxScanBytes for startLine", async () => {
    const target = await file(`${"x".repeat(300_000)}\nsecond\n`);
    expect(
      await readTextLines(target, { startLine: 2, endLine: 2, maxBytes: 100, maxScanBytes: 100_000 }),
    ).toMatchObject({
      ok: false,
      binary: false,
      beyond: true,
    });
    expect(await readTextLines(target, { startLine: 2, endLine: 2, maxBytes: 100 })).toMatchObject({
      ok: true,
      text: "second\n",
    });
  });

  it("refuses NUL bytes and invalid UTF-8 as binary, and a FIFO without waiting", async () => {
    expect(
      await readTextLines(await file(Buffer.from([0x61, 0x0a, 0x00])), { startLine: 1, endLine: 1, maxBytes: 10 }),
    ).toEqual({ ok: false, binary: true });
    expect(
      await readTextLines(await file(Buffer.from([0x63, 0xe9, 0x0a])), { startLine: 1, endLine: 1, maxBytes: 10 }),
    ).toEqual({ ok: false, binary: true });
    const fifo = path.join(dir, "pipe.txt");
    execFileSync("mkfifo", [fifo]);
    expect(await readTextLines(fifo, { startLine: 1, endLine: 1, maxBytes: 10 })).toMatchObject({
      ok: false,
      binary: false,
      failure: { code: "NOT_A_FILE" },
    });
  });
});
