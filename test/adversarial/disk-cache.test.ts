/**
 * Adversarial tests of the on-disk cache (issue 36; `core/src/disk-cache/`): a cache file is untrusted
 * input. Each hostile file (truncated, oversized, a FIFO, a symlink, another user's, writable by others,
 * a header claiming another version, a payload failing its digest, one claiming another scope's content)
 * is read as nothing, with a DISK_CACHE_IGNORED diagnostic, never a throw or a hang; and a write replaces it.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic } from "../../packages/core/src/diagnostics.js";
import { encodeCacheFile } from "../../packages/core/src/disk-cache/header.js";
import { diskCacheFile, openDiskCache } from "../../packages/core/src/disk-cache/store.js";
import { SKILLCTX_VERSION } from "../../packages/core/src/version.js";

const SCOPE = "/project/root";
const MAX = 4096;
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store over a fresh folder holding one good file for SCOPE; `file` is that file. */
async function cacheWithFile() {
  const base = mkdtempSync(path.join(tmpdir(), "skillctx-adv-cache-"));
  dirs.push(base);
  const dir = path.join(base, "cache");
  const diagnostics: Diagnostic[] = [];
  const store = openDiskCache({ dir, version: "1", maxBytes: MAX, onDiagnostic: (d) => diagnostics.push(d) });
  await store.write("scan", SCOPE, new TextEncoder().encode("good payload"));
  expect(diagnostics).toEqual([]);
  return { base, dir, store, diagnostics, file: diskCacheFile(dir, "scan", SCOPE) };
}

async function expectIgnored(
  setup: Awaited<ReturnType<typeof cacheWithFile>>,
  reason: RegExp,
  severity: "warning" | "info" = "warning",
) {
  const { store, diagnostics, file } = setup;
  const started = Date.now();
  expect(await store.read("scan", SCOPE)).toBeUndefined();
  expect(Date.now() - started).toBeLessThan(2000); // a FIFO without a writer must not block the read
  expect(diagnostics).toHaveLength(1);
  expect(diagnostics[0]).toMatchObject({ code: "DISK_CACHE_IGNORED", severity, path: file });
  expect(diagnostics[0]!.message).toMatch(reason);
  // The caller rewrites it, and the rewrite is read back.
  rmSync(file, { force: true, recursive: true });
  await store.write("scan", SCOPE, new TextEncoder().encode("rewritten"));
  expect(Buffer.from((await store.read("scan", SCOPE))!).toString()).toBe("rewritten");
}

describe("a hostile cache file is ignored with a diagnostic", () => {
  it("truncated", async () => {
    const setup = await cacheWithFile();
    truncateSync(setup.file, statSync(setup.file).size - 3);
    await expectIgnored(setup, /header gives 12 payload bytes, the file holds 9/);
  });

  it("cut inside its header", async () => {
    const setup = await cacheWithFile();
    truncateSync(setup.file, 11);
    await expectIgnored(setup, /header is truncated/);
  });

  it("oversized (a file far past the cap is not read into memory)", async () => {
    const setup = await cacheWithFile();
    truncateSync(setup.file, 64 * 1024 * 1024);
    await expectIgnored(setup, /larger than 4096 bytes/);
  });

  it("a FIFO", async () => {
    const setup = await cacheWithFile();
    rmSync(setup.file);
    execFileSync("mkfifo", [setup.file]);
    await expectIgnored(setup, /it is a fifo, not a regular file/);
  });

  it("a symlink, even to a good cache file", async () => {
    const setup = await cacheWithFile();
    const elsewhere = path.join(setup.base, "elsewhere.bin");
    copyFileSync(setup.file, elsewhere);
    rmSync(setup.file);
    symlinkSync(elsewhere, setup.file);
    await expectIgnored(setup, /it is a symlink/);
  });

  it("a folder", async () => {
    const setup = await cacheWithFile();
    rmSync(setup.file);
    mkdirSync(setup.file);
    await expectIgnored(setup, /it is a directory, not a regular file/);
  });

  it("writable by group or others", async () => {
    const setup = await cacheWithFile();
    chmodSync(setup.file, 0o666);
    await expectIgnored(setup, /writable by group or others \(mode 666\)/);
  });

  it("another user's", async () => {
    const setup = await cacheWithFile();
    const uid = process.getuid!();
    const restore = process.getuid;
    // As root the file is really given to another user; otherwise this process claims another uid.
    if (uid === 0) chownSync(setup.file, 65534, 65534);
    else process.getuid = () => uid + 1;
    try {
      const { store, diagnostics } = setup;
      expect(await store.read("scan", SCOPE)).toBeUndefined();
      expect(diagnostics).toMatchObject([{ code: "DISK_CACHE_IGNORED", severity: "warning" }]);
      expect(diagnostics[0]!.message).toMatch(/owned by another user \(uid \d+\)/);
    } finally {
      process.getuid = restore;
    }
  });

  it("a header claiming another skillctx version (info: an upgrade, not an attack)", async () => {
    const setup = await cacheWithFile();
    const fields = { skillctxVersion: "99.0.0", version: "1", name: "scan", scope: SCOPE };
    writeFileSync(setup.file, encodeCacheFile(fields, new TextEncoder().encode("old")), { mode: 0o600 });
    await expectIgnored(setup, /written by skillctx "99\.0\.0", this is /, "info");
  });

  it("a header claiming another store format", async () => {
    const setup = await cacheWithFile();
    const bytes = readFileSync(setup.file);
    bytes.writeUInt16LE(7, 8);
    writeFileSync(setup.file, bytes);
    await expectIgnored(setup, /store format is 7/, "info");
  });

  it("not a cache file at all", async () => {
    const setup = await cacheWithFile();
    writeFileSync(setup.file, "---\nname: x\n---\n");
    await expectIgnored(setup, /not a skillctx cache file/);
  });

  it("a payload failing its checksum", async () => {
    const setup = await cacheWithFile();
    const bytes = readFileSync(setup.file);
    bytes[bytes.length - 1]! ^= 0x01;
    writeFileSync(setup.file, bytes);
    await expectIgnored(setup, /fails its checksum/);
  });

  it("one claiming another scope's content (a good file copied into this scope's place)", async () => {
    const setup = await cacheWithFile();
    await setup.store.write("scan", "/other/root", new TextEncoder().encode("other project"));
    copyFileSync(diskCacheFile(setup.dir, "scan", "/other/root"), setup.file);
    await expectIgnored(setup, /claims to be the "scan" cache of "\/other\/root"/);
  });

  it("a header with a digest recomputed over a forged payload still passes only for its own scope and version", async () => {
    const setup = await cacheWithFile();
    const forged = encodeCacheFile(
      { skillctxVersion: SKILLCTX_VERSION, version: "1", name: "search-index", scope: SCOPE },
      new TextEncoder().encode("forged"),
    );
    writeFileSync(setup.file, forged, { mode: 0o600 });
    await expectIgnored(setup, /claims to be the "search-index" cache/);
  });
});
