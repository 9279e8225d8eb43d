import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, rm, stat, symlink, truncate, utimes, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isContentLoaded, readSkillContent } from "./lazy-content.js";
import { loadSkills } from "./load-skills.js";
import { cacheEntries, createSkillCache } from "./skill-cache.js";
import type { Skill } from "./skill.js";
import { put, useTempDirs } from "./testing/temp-dir.js";
import { compareCodePoints } from "./code-point-order.js";

const LIBRARY = fileURLToPath(new URL("../../../fixtures/discovery/library", import.meta.url));

const tempDir = useTempDirs("load");

const skillMd = (name: string, description: string, body = `# ${name}\n\nBody of ${name}.\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

const names = (skills: Skill[]) => skills.map((s) => s.name);
const codes = (diagnostics: { code: string }[]) => diagnostics.map((d) => d.code);

describe("loadSkills: sources", () => {
  it("takes a skill folder, a parent folder, a single .md file and a Skill object", async () => {
    const dir = await tempDir({
      "one/SKILL.md": skillMd("one", "The first skill"),
      "parent/two/SKILL.md": skillMd("two", "The second skill"),
      "parent/three/SKILL.md": skillMd("three", "The third skill"),
      "rules/four.md": "---\nname: four\ndescription: Rule four\ntriggers: [four]\n---\nFour.\n",
    });
    const inline = {
      name: "five",
      description: "Given in code",
      content: "Five.",
      source: { kind: "inline" as const, format: "inline" as const, scope: "programmatic" as const },
      trigger: { type: "on-demand" as const },
    };
    const result = await loadSkills(
      [path.join(dir, "one"), path.join(dir, "parent"), path.join(dir, "rules/four.md"), inline],
      { scope: "user", cache: createSkillCache() },
    );
    expect(result.diagnostics).toEqual([]);
    expect(names(result.skills)).toEqual(["five", "four", "one", "three", "two"]);
    const byName = new Map(result.skills.map((s) => [s.name, s]));
    expect(byName.get("one")!.source).toEqual({
      kind: "file",
      path: path.join(dir, "one/SKILL.md"),
      format: "skill-md",
      scope: "user",
    });
    expect(byName.get("one")!.dir).toBe(path.join(dir, "one"));
    expect(byName.get("four")!.source).toMatchObject({ kind: "file", format: "legacy", scope: "user" });
    expect(byName.get("four")!.trigger).toEqual({ type: "keyword", keywords: ["four"] });
    expect(byName.get("five")!.source).toEqual(inline.source);
    expect(byName.get("five")!.content).toBe("Five.");
  });

  it("gives path sources the project scope by default", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "A") });
    const { skills } = await loadSkills([path.join(dir, "a")], { cache: createSkillCache() });
    expect(skills[0]!.source.scope).toBe("project");
  });

  it("reports sources it cannot use, and still loads the others", async () => {
    const dir = await tempDir({ "ok/SKILL.md": skillMd("ok", "Fine"), "notes.txt": "text" });
    const result = await loadSkills(
      [
        path.join(dir, "missing"),
        path.join(dir, "notes.txt"),
        { name: "bad" } as never,
        42 as never,
        path.join(dir, "ok"),
      ],
      { cache: createSkillCache() },
    );
    expect(names(result.skills)).toEqual(["ok"]);
    expect(codes(result.diagnostics)).toEqual([
      "PATH_NOT_FOUND",
      "UNSUPPORTED_SOURCE",
      "INVALID_SKILL",
      "INVALID_SOURCE",
    ]);
    expect(result.diagnostics.every((d) => d.severity === "error")).toBe(true);
    expect(result.diagnostics[0]!.path).toBe(path.join(dir, "missing"));
    expect(result.diagnostics[2]!.message).toContain('"bad"');
  });

  it("resolves relative paths against the cwd option, never the process's working folder", async () => {
    const dir = await tempDir({ "rel/SKILL.md": skillMd("rel", "Relative") });
    const { skills } = await loadSkills(["rel"], { cwd: dir, cache: createSkillCache() });
    expect(skills[0]!.source.path).toBe(path.join(dir, "rel/SKILL.md"));
    const without = await loadSkills([path.relative(process.cwd(), path.join(dir, "rel"))], {
      cache: createSkillCache(),
    });
    expect(without.skills).toEqual([]);
    expect(without.diagnostics).toEqual([expect.objectContaining({ code: "PATH_NOT_ABSOLUTE", severity: "error" })]);
  });
});

describe("loadSkills: a parent folder", () => {
  it("finds SKILL.md folders to depth 4 and legacy .md files, skipping README, dot-entries and node_modules", async () => {
    const dir = await tempDir();
    await cp(LIBRARY, dir, { recursive: true });
    await put(dir, "node_modules/pkg/SKILL.md", skillMd("from-node-modules", "Never found"));
    const { skills, diagnostics } = await loadSkills([dir], { cache: createSkillCache() });
    expect(names(skills)).toEqual([
      "broken",
      "deep-skill",
      "lower-case",
      "nested/a/b/c/d",
      "pdf",
      "style",
      "team/frontend/react",
    ]);
    const byName = new Map(skills.map((s) => [s.name, s]));
    expect(byName.get("team/frontend/react")!.trigger).toEqual({ type: "keyword", keywords: ["react", "jsx"] });
    expect(byName.get("style")!.trigger).toEqual({ type: "always" });
    expect(byName.get("lower-case")!.source.path).toBe(path.join(dir, "lower-case/skill.md"));
    expect(byName.get("deep-skill")!.source.format).toBe("skill-md");
    // The broken file is reported, with its line, and stops nothing.
    const yaml = diagnostics.find((d) => d.code === "YAML_INVALID");
    expect(yaml).toMatchObject({ severity: "error", path: path.join(dir, "broken/SKILL.md"), line: 3 });
  });

  it("orders skills by code point, not by locale or directory order", async () => {
    const dir = await tempDir();
    // Written in an order unlike the expected one.
    for (const name of ["é", "a", "Z", "B", "b"])
      await put(dir, `${name}.md`, `---\ndescription: ${name}\n---\n${name}\n`);
    const { skills } = await loadSkills([dir], { cache: createSkillCache() });
    expect(names(skills)).toEqual(["B", "Z", "a", "b", "é"]);
  });

  it("on a name clash keeps the first source and names both paths in a warning", async () => {
    const dir = await tempDir({
      "first/same/SKILL.md": skillMd("same", "From the first folder"),
      "second/same/SKILL.md": skillMd("same", "From the second folder"),
    });
    const { skills, diagnostics } = await loadSkills([path.join(dir, "second"), path.join(dir, "first")], {
      cache: createSkillCache(),
    });
    expect(skills.map((s) => s.description)).toEqual(["From the second folder"]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      code: "NAME_CLASH",
      severity: "warning",
      path: path.join(dir, "first/same/SKILL.md"),
    });
    expect(diagnostics[0]!.message).toContain(path.join(dir, "second/same/SKILL.md"));
  });
});

describe("loadSkills: symlinks", () => {
  it("follows symlinked skill folders and files once each, by real path, and ends symlink cycles", async () => {
    const dir = await tempDir({
      "store/pdf/SKILL.md": skillMd("pdf", "PDF forms"),
      "store/pdf/references/forms.md": "a resource",
      "store/rule.md": "---\ndescription: A rule\n---\nRule.\n",
      "skills/own/SKILL.md": skillMd("own", "Not linked"),
    });
    const skills = path.join(dir, "skills");
    await symlink(path.join(dir, "store/pdf"), path.join(skills, "pdf-link"));
    await symlink(path.join(dir, "store/pdf"), path.join(skills, "pdf-again"));
    await symlink(path.join(dir, "store/rule.md"), path.join(skills, "rule.md"));
    await symlink(path.join(dir, "store/rule.md"), path.join(skills, "rule-again.md"));
    // A link into a skill's folder: its files are resources, never skills.
    await symlink(path.join(dir, "store/pdf/references"), path.join(skills, "refs"));
    // Cycles: back to the scanned folder, and a folder that contains a link to itself.
    await symlink(skills, path.join(skills, "loop"));
    await mkdir(path.join(skills, "deep/er"), { recursive: true });
    await symlink(path.join(skills, "deep"), path.join(skills, "deep/er/up"));
    await symlink(path.join(dir, "nowhere"), path.join(skills, "dangling.md"));

    const result = await loadSkills([skills], { cache: createSkillCache() });
    expect(names(result.skills)).toEqual(["own", "pdf", "rule-again"]);
    const pdf = result.skills.find((s) => s.name === "pdf")!;
    // First in code-point order: "pdf-again" < "pdf-link".
    expect(pdf.source.path).toBe(path.join(skills, "pdf-again/SKILL.md"));
    expect(pdf.dir).toBe(path.join(skills, "pdf-again"));
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: "BROKEN_SYMLINK", severity: "warning", path: path.join(skills, "dangling.md") }),
      // The folder the skill is reached by is the one its name is checked against (a note, not a warning).
      expect.objectContaining({
        code: "NAME_DIR_MISMATCH",
        severity: "info",
        path: path.join(skills, "pdf-again/SKILL.md"),
      }),
    ]);
  });

  it("counts a skill reached from two sources once, without a clash", async () => {
    const dir = await tempDir({ "real/skills/x/SKILL.md": skillMd("x", "X") });
    await symlink(path.join(dir, "real/skills"), path.join(dir, "alias"));
    const result = await loadSkills(
      [path.join(dir, "real/skills"), path.join(dir, "alias"), path.join(dir, "alias/x")],
      {
        cache: createSkillCache(),
      },
    );
    expect(names(result.skills)).toEqual(["x"]);
    expect(result.diagnostics).toEqual([]);
  });
});

describe("loadSkills: metadata-only scan and lazy bodies", () => {
  it("reads the body only when content is first accessed, then keeps it", async () => {
    const body = `# Big\n\n${"A line of the body that a scan must not read.\n".repeat(2000)}`;
    const dir = await tempDir({ "big/SKILL.md": skillMd("big", "A big skill", body) });
    const cache = createSkillCache();
    const { skills } = await loadSkills([dir], { cache });
    const [skill] = skills;
    const entry = cacheEntries(cache).get(path.join(dir, "big/SKILL.md"))!;
    expect(isContentLoaded(skill!)).toBe(false);
    expect(entry.body).toBeUndefined();
    expect(JSON.stringify(entry)).not.toContain("must not read");
    expect(Object.getOwnPropertyDescriptor(skill, "content")).toMatchObject({
      enumerable: true,
      get: expect.any(Function),
    });

    expect(skill!.content).toBe(body);
    expect(isContentLoaded(skill!)).toBe(true);
    expect(entry.body).toBe(body);
    // A later scan of the unchanged file shares the body already read.
    const again = await loadSkills([dir], { cache });
    expect(isContentLoaded(again.skills[0]!)).toBe(true);
    expect(again.skills[0]!.content).toBe(body);
  });

  it("gives the same skill as parsing the whole file, body included", async () => {
    const dir = await tempDir({
      "crlf/SKILL.md": "\uFEFF---\r\nname: crlf\r\ndescription: Windows line ends\r\n---\r\nLine one\r\nLine two\r\n",
      "nodesc/SKILL.md": "---\nname: nodesc\n---\n# Title\n\nThe first line stands in for the description.\n",
      "plain.md": "# Plain\n\nNo frontmatter: always-on guidance.\n",
      // The head stops at the first dash line; the parser does not close the block there.
      "quoted/SKILL.md": `---\nname: quoted\ndescription: "spans\n---\nlines"\n---\nBody after a dashed line in a quoted value.\n`,
      "indented/SKILL.md": "---\nname: indented\ndescription: |\n  a block\n  ---\n  with dashes\n---\nBody.\n",
    });
    const { skills } = await loadSkills([dir], { cache: createSkillCache() });
    const { parseSkill } = await import("./parse-skill.js");
    for (const skill of skills) {
      const file = skill.source.path!;
      const format = path.basename(file).toLowerCase() === "skill.md" ? "skill-md" : "legacy";
      const whole = parseSkill(await readFile(file, "utf8"), {
        path: file,
        format,
        scope: "project",
        ...(format === "legacy" ? { root: dir } : { dir: path.dirname(file) }),
      });
      expect({ ...skill }).toEqual(whole);
    }
    expect(names(skills)).toEqual(["crlf", "indented", "nodesc", "plain", "quoted"]);
    expect(skills.find((s) => s.name === "indented")!.description).toMatch(/^a block\n---\nwith dashes\n?$/);
    expect(skills.find((s) => s.name === "nodesc")!.description).toBe("The first line stands in for the description.");
  });

  it("readSkillContent reads the body asynchronously and agrees with the getter", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "A", "Async body.\n") });
    const cache = createSkillCache();
    const first = (await loadSkills([dir], { cache })).skills[0]!;
    expect(await readSkillContent(first)).toBe("Async body.\n");
    expect(isContentLoaded(first)).toBe(true);
    cache.invalidate();
    const second = (await loadSkills([dir], { cache })).skills[0]!;
    expect(second.content).toBe(await readSkillContent(second));
    // Any other skill just gives its content.
    expect(await readSkillContent({ ...second, content: "given" })).toBe("given");
  });

  it("assigning content replaces the body without reading the file", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "A") });
    const skill = (await loadSkills([dir], { cache: createSkillCache() })).skills[0]!;
    skill.content = "replaced";
    expect(skill.content).toBe("replaced");
  });

  it("throws SKILL_READ_FAILED from the getter when the file is gone", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "A") });
    const skill = (await loadSkills([dir], { cache: createSkillCache() })).skills[0]!;
    await rm(path.join(dir, "a/SKILL.md"));
    expect(() => skill.content).toThrowError(expect.objectContaining({ code: "SKILL_READ_FAILED" }));
    await expect(readSkillContent(skill)).rejects.toMatchObject({ code: "SKILL_READ_FAILED" });
  });
});

describe("loadSkills: bodies read as repository content", () => {
  it("a body that grew past the limit, or turned into a FIFO, is SKILL_READ_FAILED, not a hang or a crash", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "A"), "b/SKILL.md": skillMd("b", "B") });
    const [a, b] = (await loadSkills([dir], { cache: createSkillCache() })).skills;
    await truncate(path.join(dir, "a/SKILL.md"), 600 * 1024 * 1024);
    expect(() => a!.content).toThrowError(
      expect.objectContaining({ code: "SKILL_READ_FAILED", data: { reason: "TOO_LARGE" } }),
    );
    await rm(path.join(dir, "b/SKILL.md"));
    execFileSync("mkfifo", [path.join(dir, "b/SKILL.md")]);
    await expect(readSkillContent(b!)).rejects.toMatchObject({
      code: "SKILL_READ_FAILED",
      data: { reason: "NOT_A_FILE" },
    });
  });

  it("a legacy skill over the limit is a TOO_LARGE error at scan time; the others load", async () => {
    const dir = await tempDir({ "ok.md": "---\ndescription: fine\n---\nok\n", "big.md": "" });
    await truncate(path.join(dir, "big.md"), 600 * 1024 * 1024);
    const { skills, diagnostics } = await loadSkills([dir], { cache: createSkillCache() });
    expect(names(skills)).toEqual(["ok"]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: "TOO_LARGE", severity: "error", path: path.join(dir, "big.md") }),
    ]);
  });
});

describe("loadSkills: the cache", () => {
  it("reuses parsed metadata for a file whose path, size and mtime are unchanged (stat only)", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "Old description", "Old body.\n") });
    const file = path.join(dir, "a/SKILL.md");
    // Whole seconds, so that utimes can put back exactly the same mtime.
    await utimes(file, 1_700_000_000, 1_700_000_000);
    const cache = createSkillCache();
    await loadSkills([dir], { cache });
    expect(cache.size).toBe(1);

    // Same size, same mtime, different bytes: a scan that only stats cannot see the change.
    const before = await stat(file);
    await writeFile(file, skillMd("a", "New description", "New body.\n"));
    await utimes(file, 1_700_000_000, 1_700_000_000);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect((await stat(file)).size).toBe(before.size);
    const warm = (await loadSkills([dir], { cache })).skills[0]!;
    expect(warm.description).toBe("Old description");

    cache.invalidate(path.join(dir, "a"));
    expect(cache.size).toBe(0);
    const fresh = (await loadSkills([dir], { cache })).skills[0]!;
    expect(fresh.description).toBe("New description");
    expect(fresh.content).toBe("New body.\n");
  });

  it("finds the same skills and diagnostics with an empty cache (heads read by the walk) as with a warm one (stat only)", async () => {
    const dir = await tempDir({
      "upper/SKILL.md": skillMd("upper", "Upper case file name"),
      "lower/skill.md": skillMd("lower", "Lower case file name"),
      "nodesc/SKILL.md": "---\nname: nodesc\n---\nDescribed by its body.\n",
      "quoted/SKILL.md": '---\nname: quoted\ndescription: "one\n---\ntwo"\n---\nBody.\n',
      "not-a-skill/README.md": "# nothing\n",
      "folder-named/SKILL.md/inner.md": "# a folder named SKILL.md\n",
      "outside/SKILL.md": skillMd("outside", "Reached through a symlink"),
    });
    execFileSync("mkfifo", [path.join(dir, "fifo-skill")]);
    await mkdir(path.join(dir, "fifo"));
    execFileSync("mv", [path.join(dir, "fifo-skill"), path.join(dir, "fifo", "SKILL.md")]);
    await mkdir(path.join(dir, "linked"));
    await symlink(path.join(dir, "outside/SKILL.md"), path.join(dir, "linked/SKILL.md"));
    const cache = createSkillCache();
    const cold = await loadSkills([dir], { cache });
    const warm = await loadSkills([dir], { cache });
    const view = (result: typeof cold) => ({
      skills: result.skills.map((skill) => ({
        name: skill.name,
        description: skill.description,
        path: skill.source.path,
        content: skill.content,
      })),
      diagnostics: result.diagnostics.map((d) => `${d.code} ${d.path ?? ""}`).sort(compareCodePoints),
    });
    expect(view(cold)).toEqual(view(warm));
    // "linked" names itself "outside": the two are one skill twice, a clash.
    expect(names(cold.skills)).toEqual([
      "folder-named/SKILL.md/inner",
      "lower",
      "nodesc",
      "outside",
      "quoted",
      "upper",
    ]);
    expect(cold.skills.find((skill) => skill.name === "nodesc")?.description).toBe("Described by its body.");
    expect(codes(cold.diagnostics)).toEqual(expect.arrayContaining(["NOT_A_FILE", "NAME_CLASH"]));
  });

  it("re-reads a file whose mtime or size changed", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "First", "First body.\n") });
    const file = path.join(dir, "a/SKILL.md");
    await utimes(file, 1_700_000_000, 1_700_000_000);
    const cache = createSkillCache();
    const first = (await loadSkills([dir], { cache })).skills[0]!;
    expect(first.content).toBe("First body.\n");

    // Same size, later mtime.
    await writeFile(file, skillMd("a", "Later", "Later body.\n"));
    await utimes(file, 1_700_000_100, 1_700_000_100);
    const second = (await loadSkills([dir], { cache })).skills[0]!;
    expect(second.description).toBe("Later");
    expect(second.content).toBe("Later body.\n");
    // The skill read before keeps the body it read: attached text never changes under a host.
    expect(first.content).toBe("First body.\n");

    // Different size, same mtime as the cached entry.
    await writeFile(file, skillMd("a", "Longer description", "Longer body.\n"));
    await utimes(file, 1_700_000_100, 1_700_000_100);
    const third = (await loadSkills([dir], { cache })).skills[0]!;
    expect(third.description).toBe("Longer description");
    expect(third.content).toBe("Longer body.\n");
  });

  it("invalidate() with no path clears every entry; a path clears that file or folder only", async () => {
    const dir = await tempDir({
      "a/SKILL.md": skillMd("a", "A"),
      "b/SKILL.md": skillMd("b", "B"),
      "ab/SKILL.md": skillMd("ab", "AB"),
    });
    const cache = createSkillCache();
    await loadSkills([dir], { cache });
    expect(cache.size).toBe(3);
    cache.invalidate(path.join(dir, "a"));
    expect([...cacheEntries(cache).keys()].sort(compareCodePoints)).toEqual([
      path.join(dir, "ab/SKILL.md"),
      path.join(dir, "b/SKILL.md"),
    ]);
    cache.invalidate(path.join(dir, "b/SKILL.md"));
    expect(cache.size).toBe(1);
    cache.invalidate();
    expect(cache.size).toBe(0);
  });

  it("keeps scopes apart: the same file loads with the scope of each scan", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "A") });
    const cache = createSkillCache();
    expect((await loadSkills([dir], { cache, scope: "user" })).skills[0]!.source.scope).toBe("user");
    expect((await loadSkills([dir], { cache })).skills[0]!.source.scope).toBe("project");
  });

  it("refuses a cache object it did not make", async () => {
    await expect(loadSkills([], { cache: { size: 0, invalidate() {} } })).rejects.toThrow(/createSkillCache/);
  });
});

describe("loadSkills: abort", () => {
  it("rejects with the signal's reason", async () => {
    const dir = await tempDir({ "a/SKILL.md": skillMd("a", "A") });
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(loadSkills([dir], { signal: controller.signal })).rejects.toThrow("stop");
  });

  it("stops a long scan between batches", async () => {
    const dir = await tempDir();
    await Promise.all(Array.from({ length: 400 }, (_, i) => put(dir, `s${i}/SKILL.md`, skillMd(`s${i}`, "S"))));
    const controller = new AbortController();
    const scan = loadSkills([dir], { signal: controller.signal, cache: createSkillCache() });
    // Aborts after the scan started but before it can finish (it yields every 256 file calls).
    setImmediate(() => controller.abort(new Error("stopped midway")));
    await expect(scan).rejects.toThrow("stopped midway");
  });
});
