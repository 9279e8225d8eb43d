import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic } from "../diagnostics.js";
import { SKILLCTX_VERSION } from "../version.js";
import { decodeCacheFile, encodeCacheFile } from "./header.js";
import { diskCacheFile, openDiskCache } from "./store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(version = "1", maxBytes = 1024) {
  const base = mkdtempSync(path.join(tmpdir(), "skillctx-disk-cache-"));
  dirs.push(base);
  const dir = path.join(base, "cache");
  const diagnostics: Diagnostic[] = [];
  const store = openDiskCache({ dir, version, maxBytes, onDiagnostic: (d) => diagnostics.push(d) });
  return { dir, store, diagnostics };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("openDiskCache", () => {
  it("gives back what it kept, per name and scope", async () => {
    const { store, diagnostics } = setup();
    await store.write("scan", "/project/a", bytes("alpha"));
    await store.write("scan", "/project/b", bytes("beta"));
    await store.write("search-index", "/project/a", bytes("index"));
    expect(Buffer.from((await store.read("scan", "/project/a"))!).toString()).toBe("alpha");
    expect(Buffer.from((await store.read("scan", "/project/b"))!).toString()).toBe("beta");
    expect(Buffer.from((await store.read("search-index", "/project/a"))!).toString()).toBe("index");
    expect(diagnostics).toEqual([]);
  });

  it("reads nothing, silently, when nothing was kept", async () => {
    const { store, diagnostics } = setup();
    expect(await store.read("scan", "/project/a")).toBeUndefined();
    expect(diagnostics).toEqual([]);
  });

  it("names the file <name>-<16 hex of the scope's hash>.bin, folder 0700, file 0600, no temp file left", async () => {
    const { dir, store } = setup();
    await store.write("scan", "/project/a", bytes("alpha"));
    const file = diskCacheFile(dir, "scan", "/project/a");
    expect(path.basename(file)).toMatch(/^scan-[0-9a-f]{16}\.bin$/);
    expect(readdirSync(dir)).toEqual([path.basename(file)]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("replaces a kept file whole", async () => {
    const { store } = setup();
    await store.write("scan", "/p", bytes("first, longer content"));
    await store.write("scan", "/p", bytes("second"));
    expect(Buffer.from((await store.read("scan", "/p"))!).toString()).toBe("second");
  });

  it("ignores, with an info diagnostic, a file of another caller version (and a rewrite replaces it)", async () => {
    const { dir, store } = setup("1");
    await store.write("scan", "/p", bytes("v1"));
    const diagnostics: Diagnostic[] = [];
    const v2 = openDiskCache({ dir, version: "2", maxBytes: 1024, onDiagnostic: (d) => diagnostics.push(d) });
    expect(await v2.read("scan", "/p")).toBeUndefined();
    expect(diagnostics).toMatchObject([{ code: "DISK_CACHE_IGNORED", severity: "info" }]);
    expect(diagnostics[0]!.message).toContain('its format is "1", expected 2');
    await v2.write("scan", "/p", bytes("v2"));
    expect(Buffer.from((await v2.read("scan", "/p"))!).toString()).toBe("v2");
  });

  it("refuses to write more than maxBytes, with a diagnostic, and keeps the old file", async () => {
    const { store, diagnostics } = setup("1", 8);
    await store.write("scan", "/p", bytes("small"));
    await store.write("scan", "/p", bytes("far too large"));
    expect(diagnostics).toMatchObject([{ code: "DISK_CACHE_WRITE_FAILED", severity: "warning" }]);
    expect(Buffer.from((await store.read("scan", "/p"))!).toString()).toBe("small");
  });

  it("reports a write it cannot make (the folder is a file) and does not throw", async () => {
    const { dir, diagnostics } = setup();
    writeFileSync(dir, "not a folder");
    const store = openDiskCache({ dir, version: "1", maxBytes: 64, onDiagnostic: (d) => diagnostics.push(d) });
    await store.write("scan", "/p", bytes("x"));
    expect(diagnostics).toMatchObject([{ code: "DISK_CACHE_WRITE_FAILED" }]);
    expect(readFileSync(dir, "utf8")).toBe("not a folder");
  });

  it("refuses a name that is not a file-name-safe word", async () => {
    const { store, diagnostics } = setup();
    await store.write("../escape", "/p", bytes("x"));
    expect(await store.read("../escape", "/p")).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(["DISK_CACHE_WRITE_FAILED", "DISK_CACHE_IGNORED"]);
  });

  it("never throws from a listener that throws", async () => {
    const { dir } = setup();
    writeFileSync(path.join(path.dirname(dir), "x"), "");
    const store = openDiskCache({
      dir: path.join(path.dirname(dir), "x"),
      version: "1",
      maxBytes: 64,
      onDiagnostic: () => {
        throw new Error("listener");
      },
    });
    await expect(store.write("scan", "/p", bytes("x"))).resolves.toBeUndefined();
  });
});

describe("the cache file header", () => {
  const fields = { skillctxVersion: SKILLCTX_VERSION, version: "3", name: "scan", scope: "/p" };

  it("round-trips a payload", () => {
    const file = encodeCacheFile(fields, bytes("payload"));
    const decoded = decodeCacheFile(file, fields);
    expect(decoded.ok && Buffer.from(decoded.payload).toString()).toBe("payload");
  });

  it("refuses every truncation of a file", () => {
    const file = encodeCacheFile(fields, bytes("payload"));
    for (let length = 0; length < file.length; length++) {
      expect(decodeCacheFile(file.subarray(0, length), fields).ok, `length ${length}`).toBe(false);
    }
  });

  it("refuses another skillctx version as foreign and another scope as damaged", () => {
    const other = encodeCacheFile({ ...fields, skillctxVersion: "9.9.9" }, bytes("p"));
    expect(decodeCacheFile(other, fields)).toMatchObject({ ok: false, kind: "foreign" });
    const elsewhere = encodeCacheFile({ ...fields, scope: "/q" }, bytes("p"));
    expect(decodeCacheFile(elsewhere, fields)).toMatchObject({ ok: false, kind: "damaged" });
  });
});
