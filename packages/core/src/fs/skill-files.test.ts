import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listSkillFileNames, listSkillFiles } from "./skill-files.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "skill-files-"));
  const put = async (relative: string, text = "x") => {
    await mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await writeFile(path.join(dir, relative), text);
  };
  for (const file of [
    "SKILL.md",
    "scripts/run.py",
    "references/b.md",
    "references/a.md",
    "references/Z.md",
    "references/é.md",
    "nested/SKILL.md",
    ".hidden",
    ".cache/x",
    "node_modules/dep/index.js",
    "__pycache__/run.pyc",
    ".venv/bin/python",
    "venv/bin/python",
    ".git/HEAD",
  ])
    await put(file);
  await symlink("/etc", path.join(dir, "outside"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("listSkillFileNames", () => {
  it("lists the files a model may read, in code-point order, without the root SKILL.md, hidden entries and tooling folders", async () => {
    const listed = await listSkillFileNames(dir, { max: 100 });
    expect(listed).toEqual({
      files: [
        "nested/SKILL.md",
        "references/Z.md",
        "references/a.md",
        "references/b.md",
        "references/é.md",
        "scripts/run.py",
      ],
      omitted: 0,
      incomplete: false,
    });
  });

  it("returns at most max names and counts the rest; a negative or fractional max is floored at 0", async () => {
    expect(await listSkillFileNames(dir, { max: 2 })).toMatchObject({
      files: ["nested/SKILL.md", "references/Z.md"],
      omitted: 4,
    });
    expect(await listSkillFileNames(dir, { max: -1 })).toMatchObject({ files: [], omitted: 6 });
  });

  it("says when the walk stopped at its entry limit", async () => {
    expect((await listSkillFileNames(dir, { max: 100, maxEntries: 3 })).incomplete).toBe(true);
  });
});

describe("listSkillFiles (digests) keeps what listSkillFileNames leaves out, but .git", () => {
  it("covers hidden entries and tooling folders, and never .git", async () => {
    const listing = await listSkillFiles(dir);
    const paths = listing.files.map((f) => f.path);
    expect(paths).toContain(".hidden");
    expect(paths).toContain("node_modules/dep/index.js");
    expect(paths).toContain("SKILL.md");
    expect(paths.some((p) => p.startsWith(".git/"))).toBe(false);
  });
});
