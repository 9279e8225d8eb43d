import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTextFile, readTextFileSync } from "./read-text-file.js";
import type { ReadTextFileOptions, ReadTextResult } from "./read-text-file.js";

let dir: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-read-text-")));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function put(relative: string, content: string | Buffer): Promise<string> {
  const file = path.join(dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  return file;
}

// Both readers, so that every behaviour is checked on each.
const readers: Array<[string, (file: string, options: ReadTextFileOptions) => Promise<ReadTextResult>]> = [
  ["readTextFile", readTextFile],
  ["readTextFileSync", async (file, options) => readTextFileSync(file, options)],
];

describe.each(readers)("%s", (_name, read) => {
  it("reads a UTF-8 file byte for byte, BOM included, with its size, real path and mtime", async () => {
    const file = await put("a/plain.md", "\uFEFF# héllo\r\nline two");
    const result = await read(file, { maxBytes: 1024 });
    expect(result).toMatchObject({ ok: true, text: "\uFEFF# héllo\r\nline two", truncated: false, realPath: file });
    expect(result.ok && result.size).toBe(Buffer.byteLength("\uFEFF# héllo\r\nline two"));
    expect(result.ok && result.mtimeMs).toBeGreaterThan(0);
  });

  it("reads a file of exactly maxBytes, and refuses one byte more with TOO_LARGE and the size", async () => {
    const exact = await put("exact.md", "x".repeat(100));
    expect(await read(exact, { maxBytes: 100 })).toMatchObject({ ok: true, text: "x".repeat(100) });
    const over = await put("over.md", "x".repeat(101));
    expect(await read(over, { maxBytes: 100 })).toMatchObject({ ok: false, code: "TOO_LARGE", size: 101 });
  });

  it("with truncate, keeps the first maxBytes on a code-point boundary and says it was cut", async () => {
    const file = await put("wide.md", "é".repeat(100)); // 200 bytes
    const result = await read(file, { maxBytes: 51, truncate: true });
    expect(result).toMatchObject({ ok: true, text: "é".repeat(25), truncated: true, size: 200 });
  });

  it("refuses a sparse 600 MB file without reading it", async () => {
    const file = await put("huge.md", "");
    await truncate(file, 600 * 1024 * 1024);
    expect(await read(file, { maxBytes: 4096 })).toMatchObject({
      ok: false,
      code: "TOO_LARGE",
      size: 600 * 1024 * 1024,
    });
  });

  it("refuses NUL bytes as BINARY and invalid UTF-8 as NOT_UTF8 with its line", async () => {
    const binary = await put("bin.md", Buffer.from([0x61, 0x00, 0x62]));
    expect(await read(binary, { maxBytes: 100 })).toMatchObject({ ok: false, code: "BINARY" });
    const latin1 = await put(
      "latin1.md",
      Buffer.concat([Buffer.from("one\ntwo\ncaf"), Buffer.from([0xe9]), Buffer.from("\n")]),
    );
    expect(await read(latin1, { maxBytes: 100 })).toMatchObject({ ok: false, code: "NOT_UTF8", line: 3 });
  });

  it("reports a missing file as NOT_FOUND and a folder as NOT_A_FILE", async () => {
    expect(await read(path.join(dir, "nope.md"), { maxBytes: 10 })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await read(path.join(dir, "a"), { maxBytes: 10 })).toMatchObject({
      ok: false,
      code: "NOT_A_FILE",
      fileType: "directory",
    });
  });

  it("refuses a FIFO at once, without waiting for a writer", async () => {
    const fifo = path.join(dir, `fifo-${_name}.md`);
    execFileSync("mkfifo", [fifo]);
    expect(await read(fifo, { maxBytes: 10 })).toMatchObject({ ok: false, code: "NOT_A_FILE", fileType: "fifo" });
  });

  it("refuses a socket and a character device", async () => {
    const socket = path.join(dir, `s-${_name}.sock`);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(await read(socket, { maxBytes: 10 })).toMatchObject({ ok: false, code: "NOT_A_FILE" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await read("/dev/zero", { maxBytes: 10 })).toMatchObject({
      ok: false,
      code: "NOT_A_FILE",
      fileType: "device",
    });
  });

  it("with root, refuses a symlink whose real path leaves it, and follows one that stays inside", async () => {
    const project = path.join(dir, `project-${_name}`);
    await put(`project-${_name}/inside.md`, "inside\n");
    await put(`secret-${_name}.txt`, "SECRET\n");
    await symlink(path.join(dir, `secret-${_name}.txt`), path.join(project, "escape.md"));
    await symlink("inside.md", path.join(project, "alias.md"));
    await symlink("/etc", path.join(project, "etc"));
    const escape = await read(path.join(project, "escape.md"), { maxBytes: 100, root: project });
    expect(escape).toMatchObject({ ok: false, code: "PATH_OUTSIDE_ROOT" });
    expect(JSON.stringify(escape)).not.toContain("SECRET");
    expect(await read(path.join(project, "etc/hostname"), { maxBytes: 100, root: project })).toMatchObject({
      code: "PATH_OUTSIDE_ROOT",
    });
    expect(await read(path.join(project, "alias.md"), { maxBytes: 100, root: project })).toMatchObject({
      ok: true,
      text: "inside\n",
    });
    // Without root the caller chose the file: it is read.
    expect(await read(path.join(project, "escape.md"), { maxBytes: 100 })).toMatchObject({
      ok: true,
      text: "SECRET\n",
    });
  });

  it("caps a /proc file, whose size says 0, by what it reads", async () => {
    const result = await read("/proc/self/status", { maxBytes: 16 });
    expect(result).toMatchObject({ ok: false, code: "TOO_LARGE" });
    expect(await read("/proc/self/status", { maxBytes: 16, truncate: true })).toMatchObject({
      ok: true,
      truncated: true,
    });
  });
});

describe("readTextFile", () => {
  it("rejects with the signal's reason when aborted", async () => {
    const file = await put("abort.md", "x");
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(readTextFile(file, { maxBytes: 10, signal: controller.signal })).rejects.toThrow("stop");
  });
});
