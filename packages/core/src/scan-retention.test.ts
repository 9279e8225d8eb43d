import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { getHeapSnapshot } from "node:v8";
import { afterAll, describe, expect, it } from "vitest";
import { loadSkills } from "./load-skills.js";
import { cacheEntries, createSkillCache } from "./skill-cache.js";

let dir: string | undefined;
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

// Whether the V8 heap holds `needle` (a heap snapshot runs a full GC first, so garbage does not count).
async function heapContains(needle: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of getHeapSnapshot()) {
    const window = Buffer.concat([tail, chunk as Buffer]);
    if (window.includes(needle)) return true;
    tail = window.subarray(Math.max(0, window.length - needle.length));
  }
  return false;
}

describe("a metadata scan", () => {
  it("keeps no body in memory until content is read", async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-retention-")));
    // The bodies hold `<marker>BODYTAIL`. The test never builds that text as a JS string: the files
    // are written from buffers, so only the scanner could put it on the heap.
    const marker = Buffer.from(`zq${randomUUID().replaceAll("-", "")}`);
    const needle = Buffer.concat([marker, Buffer.from("BODYTAIL")]);
    const filler = Buffer.from("A line of body text that only the lazy getter may read.\n".repeat(200));
    for (let i = 0; i < 50; i++) {
      const head = Buffer.from(`---\nname: skill-${i}\ndescription: Skill number ${i}\n---\n# Skill ${i}\n`);
      await mkdir(path.join(dir, `skill-${i}`));
      // Near the start of the body: heap snapshots keep only the first ~1,000 characters of a string.
      await writeFile(
        path.join(dir, `skill-${i}`, "SKILL.md"),
        Buffer.concat([head, needle, Buffer.from("\n"), filler]),
      );
    }
    // Legacy files without a description: the scan reads them whole (the description comes from the
    // body) but must not keep the text.
    for (let i = 0; i < 5; i++) {
      const head = Buffer.from(`---\ntriggers: [word${i}]\n---\n# Legacy ${i}\n\nFirst line of legacy ${i}.\n\n`);
      await writeFile(path.join(dir, `legacy-${i}.md`), Buffer.concat([head, needle, Buffer.from("\n"), filler]));
    }
    const cache = createSkillCache();
    const { skills } = await loadSkills([dir], { cache });
    expect(skills).toHaveLength(55);
    expect(skills.find((s) => s.name === "legacy-0")!.description).toBe("First line of legacy 0.");
    await loadSkills([dir], { cache }); // a warm scan, too
    expect(await heapContains(needle)).toBe(false);
    expect([...cacheEntries(cache).values()].every((entry) => entry.body === undefined)).toBe(true);

    // Control: once a body is read, the same probe finds it.
    const first = skills.find((s) => s.name === "skill-0")!;
    expect(first.content.length).toBeGreaterThan(filler.length);
    expect(await heapContains(needle)).toBe(true);
    expect(skills.length).toBe(55); // keeps `skills` alive through the probes
  });
});
