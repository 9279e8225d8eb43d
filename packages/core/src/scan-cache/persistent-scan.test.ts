/**
 * The persistent scan cache (issue 36): results byte-identical with and without it, over the fixtures and the
 * real-world corpus, and no change ever hidden (an edit, a rename, a symlink retargeted, a permission change, a
 * file replaced with the same stamp). Each "process" is a scan with a new in-process cache, so only the file on
 * disk carries anything from one scan to the next.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { discoverSkills } from "../discover-skills.js";
import { openDiskCache } from "../disk-cache/store.js";
import { loadSkills } from "../load-skills.js";
import type { LoadSkillsResult } from "../load-skills.js";
import { MAX_SCAN_CACHE_BYTES } from "../limits.js";
import { createSkillCache } from "../skill-cache.js";
import { SCAN_CACHE_VERSION } from "./persistent-scan.js";

const FIXTURES = fileURLToPath(new URL("../../../../fixtures/", import.meta.url));
const CORPUS =
  process.env["SKILLCTX_CORPUS"] ?? fileURLToPath(new URL("../../../../../shared/corpus", import.meta.url));
const HAS_CORPUS = existsSync(CORPUS); // absent on a fresh clone: the corpus test is skipped (test/setup/corpus.ts says so)

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodTree(dir);
    rmSync(dir, { recursive: true, force: true });
  }
});

function temp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skillctx-scan-cache-"));
  dirs.push(dir);
  return dir;
}

/** Everything a scan gives, bodies included, as text. */
function text(result: LoadSkillsResult): string {
  return JSON.stringify({ skills: result.skills.map((s) => ({ ...s, content: s.content })), d: result.diagnostics });
}

/** One scan in a "new process": a new in-process cache, the persistent cache in `cacheDir` (or none). */
function scan(sources: string[], cacheDir: string | false) {
  return loadSkills(sources, {
    cache: createSkillCache(),
    persistentCache: cacheDir === false ? false : { dir: cacheDir },
  });
}

function put(file: string, body: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, body);
  return file;
}

const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

describe("the persistent scan cache gives the same results as no cache", () => {
  const folders = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(FIXTURES, e.name));

  it.each(folders)(
    "on fixtures/%s, as checked out (stamps old: no digest) and as a fresh copy (digests)",
    async (dir) => {
      const copy = path.join(temp(), "copy");
      cpSync(dir, copy, { recursive: true });
      for (const source of [dir, copy]) {
        const cacheDir = path.join(temp(), "cache");
        const without = text(await scan([source], false));
        const first = text(await scan([source], cacheDir));
        const second = text(await scan([source], cacheDir));
        expect(first).toBe(without);
        expect(second).toBe(without);
      }
    },
  );

  it("through discoverSkills on the demo repository", async () => {
    const cwd = path.join(FIXTURES, "demo-repo");
    const cacheDir = path.join(temp(), "cache");
    const run = async (persistentCache: false | { dir: string }) =>
      text(await discoverSkills({ cwd, cache: createSkillCache(), persistentCache, rootMarkers: [] }));
    const without = await run(false);
    expect(await run({ dir: cacheDir })).toBe(without);
    expect(await run({ dir: cacheDir })).toBe(without);
    expect(readdirSync(cacheDir)).toHaveLength(1);
  });

  it.runIf(HAS_CORPUS)("on the real-world corpus", async () => {
    const cacheDir = path.join(temp(), "cache");
    const without = text(await scan([CORPUS], false));
    expect(text(await scan([CORPUS], cacheDir))).toBe(without);
    expect(text(await scan([CORPUS], cacheDir))).toBe(without);
  });
});

// Files written by a test changed a moment ago: their stamps are ambiguous, and their records carry digests.
// Read "10 s later" (the clock moved for the first scan only), the same files have plain records, checked by stamp.
describe.each([
  ["read at once (digests)", false],
  ["read 10 s after the last change (stamps alone)", true],
])("the persistent scan cache never hides a change, %s", (_label, settled) => {
  async function warmed(extra?: (root: string, skills: string) => void) {
    const root = temp();
    const skills = path.join(root, "skills");
    const cacheDir = path.join(root, "cache");
    const file = put(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "First words."));
    put(path.join(skills, "beta", "SKILL.md"), skill("beta", "Beta skill."));
    extra?.(root, skills);
    if (settled) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
    try {
      await scan([skills], cacheDir);
    } finally {
      vi.useRealTimers();
    }
    await rewritePayload(cacheDir, skills, (payload) => {
      for (const entry of payload.entries) expect(entry["digest"] === undefined).toBe(settled);
    });
    return { root, skills, cacheDir, file };
  }

  async function expectSameAsUncached(skills: string, cacheDir: string) {
    const cached = await scan([skills], cacheDir);
    expect(text(cached)).toBe(text(await scan([skills], false)));
    return cached;
  }

  it("an edit (same size)", async () => {
    const { skills, cacheDir, file } = await warmed();
    writeFileSync(file, skill("alpha", "Other words."));
    const result = await expectSameAsUncached(skills, cacheDir);
    expect(result.skills.find((s) => s.name === "alpha")?.description).toBe("Other words.");
  });

  it("a rename of the skill folder", async () => {
    const { skills, cacheDir } = await warmed();
    renameSync(path.join(skills, "alpha"), path.join(skills, "gamma"));
    const result = await expectSameAsUncached(skills, cacheDir);
    expect(result.skills.map((s) => s.source.path)).toEqual([
      path.join(skills, "gamma", "SKILL.md"),
      path.join(skills, "beta", "SKILL.md"),
    ]);
  });

  it("a symlink retargeted", async () => {
    const { root, skills, cacheDir } = await warmed((root, skills) => {
      put(path.join(root, "one", "SKILL.md"), skill("linked", "Target one."));
      put(path.join(root, "two", "SKILL.md"), skill("linked", "Target two."));
      symlinkSync(path.join(root, "one"), path.join(skills, "linked"));
    });
    unlinkSync(path.join(skills, "linked"));
    symlinkSync(path.join(root, "two"), path.join(skills, "linked"));
    const result = await expectSameAsUncached(skills, cacheDir);
    expect(result.skills.find((s) => s.name === "linked")?.description).toBe("Target two.");
  });

  it("a permission change", async () => {
    const { skills, cacheDir, file } = await warmed();
    chmodSync(file, 0o000);
    // As root the file stays readable; either way the result is the uncached one.
    await expectSameAsUncached(skills, cacheDir);
    chmodSync(file, 0o644);
  });

  it("a file deleted", async () => {
    const { skills, cacheDir, file } = await warmed();
    rmSync(path.dirname(file), { recursive: true });
    const result = await expectSameAsUncached(skills, cacheDir);
    expect(result.skills.map((s) => s.name)).toEqual(["beta"]);
  });
});

describe("the persistent scan cache, where a stamp cannot tell", () => {
  async function warmed() {
    const root = temp();
    const skills = path.join(root, "skills");
    const cacheDir = path.join(root, "cache");
    const file = put(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "First words."));
    await scan([skills], cacheDir);
    return { skills, cacheDir, file };
  }

  async function expectSameAsUncached(skills: string, cacheDir: string) {
    const cached = await scan([skills], cacheDir);
    expect(text(cached)).toBe(text(await scan([skills], false)));
    return cached;
  }

  it("a file replaced within the same second, same size and mtime (racy): the digest of its text decides", async () => {
    const { skills, cacheDir, file } = await warmed();
    const { mtime } = statSync(file);
    writeFileSync(file, skill("alpha", "Swapped text"));
    utimesSync(file, mtime, mtime);
    // A file system whose ctime did not move either: the cache file is made to hold the file's stamp now.
    await forgeStamps(cacheDir, skills, file);
    const result = await expectSameAsUncached(skills, cacheDir);
    expect(result.skills.find((s) => s.name === "alpha")?.description).toBe("Swapped text");
  });
});

describe("the persistent scan cache file", () => {
  it("is written once, then only when something changed", async () => {
    const root = temp();
    const skills = path.join(root, "skills");
    const cacheDir = path.join(root, "cache");
    put(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "A."));
    await scan([skills], cacheDir);
    const [name] = readdirSync(cacheDir);
    const file = path.join(cacheDir, name!);
    const written = statSync(file).mtimeMs;
    utimesSync(file, 0, 0);
    await scan([skills], cacheDir);
    expect(statSync(file).mtimeMs).toBe(0);
    put(path.join(skills, "beta", "SKILL.md"), skill("beta", "B."));
    await scan([skills], cacheDir);
    expect(statSync(file).mtimeMs).toBeGreaterThanOrEqual(written - 1000);
  });

  it("drops a record's digest once its file's stamp is settled (a later process does not read the file again)", async () => {
    const root = temp();
    const skills = path.join(root, "skills");
    const cacheDir = path.join(root, "cache");
    put(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "A."));
    await scan([skills], cacheDir);
    const digests = async () => {
      let found = 0;
      await rewritePayload(cacheDir, skills, (payload) => {
        found = payload.entries.filter((e) => e["digest"] !== undefined).length;
      });
      return found;
    };
    expect(await digests()).toBe(1);
    // Read 10 s after the file's last change: the digest matches and the stamp alone now tells a change.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_000 });
    let settled: LoadSkillsResult;
    try {
      settled = await scan([skills], cacheDir);
    } finally {
      vi.useRealTimers();
    }
    expect(text(settled)).toBe(text(await scan([skills], false)));
    expect(await digests()).toBe(0);
    // A change after that is still seen, by its stamp.
    writeFileSync(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "B."));
    expect((await scan([skills], cacheDir)).skills[0]?.description).toBe("B.");
  });

  it("is not touched when the cache is off", async () => {
    const root = temp();
    put(path.join(root, "skills", "alpha", "SKILL.md"), skill("alpha", "A."));
    await scan([path.join(root, "skills")], false);
    await loadSkills([path.join(root, "skills")], { cache: createSkillCache(), persistentCache: false });
    expect(readdirSync(root)).toEqual(["skills"]);
  });

  it("holding a malformed record is ignored whole with a diagnostic, the results unchanged, and rewritten", async () => {
    const root = temp();
    const skills = path.join(root, "skills");
    const cacheDir = path.join(root, "cache");
    put(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "A."));
    const without = await scan([skills], false);
    await scan([skills], cacheDir);
    await rewritePayload(cacheDir, skills, (payload) => {
      (payload.entries[0] as { result: { meta: { trigger: unknown } } }).result.meta.trigger = { type: "nonsense" };
    });
    const ignored = await scan([skills], cacheDir);
    expect(ignored.skills).toEqual(without.skills);
    expect(ignored.diagnostics).toMatchObject([{ code: "DISK_CACHE_IGNORED", severity: "warning" }]);
    expect(ignored.diagnostics[0]!.message).toContain("malformed entry (#1)");
    const again = await scan([skills], cacheDir);
    expect(again.diagnostics).toEqual([]);
  });

  it("is not rewritten by the next process when a skill's record cannot be kept (a __proto__ value)", async () => {
    const root = temp();
    const skills = path.join(root, "skills");
    const cacheDir = path.join(root, "cache");
    put(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "A."));
    put(path.join(skills, "beta", "SKILL.md"), "---\nname: beta\ndescription: B.\nratio: __proto__\n---\nB.\n");
    const first = await scan([skills], cacheDir);
    expect(first.skills.find((s) => s.name === "beta")?.extra?.["ratio"]).toBe("__proto__");
    const [file] = readdirSync(cacheDir);
    const before = statSync(path.join(cacheDir, file!));
    const second = await scan([skills], cacheDir);
    expect(text(second)).toBe(text(first));
    // Every write is a new file renamed into place: the same inode means the file was not written again.
    expect(statSync(path.join(cacheDir, file!)).ino).toBe(before.ino);
    put(path.join(skills, "gamma", "SKILL.md"), skill("gamma", "G."));
    await scan([skills], cacheDir);
    expect(statSync(path.join(cacheDir, file!)).ino).not.toBe(before.ino);
  });

  it("with `true` and a homeDir, lives in that home's cache folder (as AgentContext's default does)", async () => {
    const root = temp();
    const home = path.join(root, "home");
    put(path.join(root, "project", ".agents", "skills", "alpha", "SKILL.md"), skill("alpha", "A."));
    vi.stubEnv("SKILLCTX_CACHE_DIR", undefined);
    vi.stubEnv("XDG_CACHE_HOME", undefined);
    try {
      const result = await discoverSkills({
        cwd: path.join(root, "project"),
        homeDir: home,
        rootMarkers: [],
        cache: createSkillCache(),
        persistentCache: true,
      });
      expect(result.skills.map((s) => s.name)).toEqual(["alpha"]);
      expect(readdirSync(path.join(home, ".cache", "skillctx"))).toEqual([
        expect.stringMatching(/^scan-[0-9a-f]{16}\.bin$/),
      ]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("holding a __proto__ key is ignored whole", async () => {
    const root = temp();
    const skills = path.join(root, "skills");
    const cacheDir = path.join(root, "cache");
    put(path.join(skills, "alpha", "SKILL.md"), skill("alpha", "A."));
    await scan([skills], cacheDir);
    await rewritePayload(cacheDir, skills, (payload) => {
      const meta = (payload.entries[0] as { result: { meta: Record<string, unknown> } }).result.meta;
      meta["extra"] = JSON.parse('{"__proto__": {"polluted": true}}');
    });
    const result = await scan([skills], cacheDir);
    expect(result.diagnostics[0]?.message).toContain("__proto__");
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect((result.skills[0] as unknown as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

// --- helpers ---------------------------------------------------------------------------------------

type Payload = { entries: Array<Record<string, unknown>> };

/** Reads, changes and writes back the scan cache of `loadSkills([skills])` through the store itself. */
async function rewritePayload(cacheDir: string, skills: string, change: (payload: Payload) => void) {
  const store = openDiskCache({ dir: cacheDir, version: SCAN_CACHE_VERSION, maxBytes: MAX_SCAN_CACHE_BYTES });
  const scope = scopeOf(skills);
  const bytes = await store.read("scan", scope);
  expect(bytes).toBeDefined();
  const payload = JSON.parse(Buffer.from(bytes!).toString("utf8")) as Payload;
  change(payload);
  await store.write("scan", scope, new TextEncoder().encode(JSON.stringify(payload)));
}

/** Sets the stamp of `file`'s record to the file's stamp now (as a file system without ctime would leave it). */
async function forgeStamps(cacheDir: string, skills: string, file: string) {
  const s = statSync(file);
  await rewritePayload(cacheDir, skills, (payload) => {
    const record = payload.entries.find((e) => e["path"] === file);
    expect(record?.["digest"]).toBeDefined();
    record!["stamp"] = [s.size, s.mtimeMs, s.ctimeMs, s.ino, s.dev, s.mode];
  });
}

// The scope loadSkills([skills]) keys its cache by (load-skills.ts scanScope).
function scopeOf(skills: string): string {
  return JSON.stringify({ baseDir: null, sources: [[skills, "project", false, null, null]] });
}

function chmodTree(dir: string) {
  try {
    for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      try {
        chmodSync(path.join(dir, entry), 0o755);
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // gone
  }
}
