/**
 * A persisted scan record names its file's path once (`""` where the skill repeats it): every skill of the
 * fixtures comes back from its record exactly, key order included, and `""` means the path nowhere else.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSkills } from "../load-skills.js";
import { cacheEntries, createSkillCache } from "../skill-cache.js";
import type { CacheEntry } from "../skill-cache.js";
import { entryOf, recordOf } from "./scan-record.js";

const FIXTURES = fileURLToPath(new URL("../../../../fixtures/", import.meta.url));
const STAMP = { size: 10, mtimeMs: 1_700_000_000_000.5, ctimeMs: 1_700_000_000_000.5, ino: 7, dev: 1, mode: 0o100644 };

// Every entry a scan of the fixtures made, with a full stamp (as a scan on a file system with ctime keeps it).
const cache = createSkillCache();
await loadSkills([FIXTURES], { cache });
const entries = [...cacheEntries(cache)].map(([file, entry]) => [file, { ...entry, stamp: STAMP }] as const);

// The record as the file carries it: JSON text, parsed again.
const throughJson = (record: unknown) => JSON.parse(JSON.stringify(record)) as Record<string, unknown>;

describe("scan records", () => {
  it("give back every entry of the fixtures exactly, key order included", () => {
    const kept = entries.filter(([, entry]) => entry.result.ok);
    expect(kept.length).toBeGreaterThan(40);
    for (const [file, entry] of kept) {
      const record = recordOf(file, entry);
      expect(record, file).toBeDefined();
      const back = entryOf(throughJson(record));
      expect(back?.[0]).toBe(file);
      const meta = metaOf(back);
      expect(JSON.stringify(meta), file).toBe(JSON.stringify((entry.result as { meta: unknown }).meta));
      expect(back?.[1].entry.dir).toBe(entry.dir);
    }
  });

  it("name a SKILL.md's path and folder once", () => {
    const [file, entry] = skillMdEntry();
    const text = JSON.stringify(recordOf(file, entry));
    expect(text.split(JSON.stringify(file)).length - 1).toBe(1);
    expect(text).not.toContain(JSON.stringify(entry.dir));
    const record = throughJson(recordOf(file, entry));
    const meta = (record["result"] as { meta: Record<string, unknown> }).meta;
    expect([record["dir"], meta["dir"], (meta["source"] as Record<string, unknown>)["path"]]).toEqual(["", "", ""]);
  });

  it("keep a path the skill does not share with the file as it is", () => {
    const [file, entry] = skillMdEntry();
    const meta = (entry.result as { meta: { dir?: string; source: object } }).meta;
    const other = {
      ...entry,
      result: {
        ...entry.result,
        meta: { ...meta, dir: "/elsewhere", source: { ...meta.source, path: "/x/SKILL.md" } },
      },
    } as CacheEntry;
    const back = entryOf(throughJson(recordOf(file, other)));
    const got = metaOf(back) as { dir?: string; source: { path?: string } };
    expect([got.dir, got.source.path]).toEqual(["/elsewhere", "/x/SKILL.md"]);
  });

  it("read an empty text elsewhere as the empty text", () => {
    const [file, entry] = skillMdEntry();
    const record = throughJson(recordOf(file, entry));
    const meta = (record["result"] as { meta: Record<string, unknown> }).meta;
    meta["description"] = "";
    meta["source"] = { ...(meta["source"] as object), origin: "" };
    const got = metaOf(entryOf(record)) as { description?: string; source: { origin?: string } };
    expect([got.description, got.source.origin]).toEqual(["", ""]);
  });

  it("keep a legacy record's empty folder empty", () => {
    const [file, entry] = skillMdEntry();
    const record = throughJson(recordOf(file, entry));
    record["format"] = "legacy";
    expect(entryOf(record)?.[1].entry.dir).toBe("");
  });

  it("do not keep an entry whose path or folder is empty (it would read back as the file's)", () => {
    const [file, entry] = skillMdEntry();
    const meta = (entry.result as { meta: { source: object } }).meta;
    const emptyDir = { ...entry, dir: "" } as CacheEntry;
    const emptySource = {
      ...entry,
      result: { ...entry.result, meta: { ...meta, source: { ...meta.source, path: "" } } },
    };
    expect(recordOf(file, emptyDir)).toBeUndefined();
    expect(recordOf(file, emptySource as CacheEntry)).toBeUndefined();
    expect(recordOf(file, entry)).toBeDefined();
  });

  it("put an empty folder back as the file's folder", () => {
    const [file, entry] = skillMdEntry();
    const back = entryOf(throughJson(recordOf(file, entry)));
    expect(back?.[1].entry.dir).toBe(path.dirname(file));
  });
});

// The skill of a decoded record (which must be one).
function metaOf(decoded: ReturnType<typeof entryOf>): unknown {
  expect(decoded).toBeDefined();
  const { result } = decoded![1].entry;
  expect(result.ok).toBe(true);
  return (result as { meta: unknown }).meta;
}

function skillMdEntry(): readonly [string, CacheEntry] {
  // One without diagnostics (a diagnostic names its file again).
  const found = entries.find(
    ([file, e]) =>
      e.result.ok && e.result.diagnostics.length === 0 && e.format === "skill-md" && path.basename(file) === "SKILL.md",
  );
  expect(found).toBeDefined();
  return found!;
}
