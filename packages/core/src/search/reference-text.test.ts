import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_INDEXED_REFERENCE_CHARS } from "../limits.js";
import { loadSkills } from "../load-skills.js";
import { referenceText } from "./reference-text.js";
import { createSkillIndex } from "./skill-index.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function folder(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "skillctx-refs-"));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

const skillMd = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

// Agent Skills keep longer documentation in references/ beside SKILL.md (https://agentskills.io/specification,
// "Optional directories"; docs/conventions.md, "A skill's reference files in search").
describe("reference files in the index (issue 33: stub SKILL.md files)", () => {
  it("finds a stub skill by what its references/*.md say", async () => {
    const root = await folder({
      "postgres-tips/SKILL.md": skillMd(
        "postgres-tips",
        "Postgres best practices.",
        "Read [locks](references/locks.md).",
      ),
      "postgres-tips/references/locks.md": "# Advisory locks\nUse pg_try_advisory_lock so only one cron instance runs.",
      "cron-jobs/SKILL.md": skillMd("cron-jobs", "Schedule cron jobs on a server.", "Write the crontab line."),
    });
    const { skills } = await loadSkills([root]);
    const [top] = await createSkillIndex().search(skills, "advisory lock so only one cron instance runs");
    expect(top?.name).toBe("postgres-tips");
    expect(top?.matched).toContainEqual({ term: "advisory", fields: ["references"] });
  });

  it("reads linked files first, prose files only, within the cap, and never through a symlink out of the folder", async () => {
    const outside = await folder({ "secret.md": "outside-word" });
    const root = await folder({
      "SKILL.md": "stub",
      "a-first.md": "unlinked-word",
      "z-linked.md": "linked-word",
      "data.bin.md": "binary\u0000word",
      "script.py": "python-word",
      "big.md": "x".repeat(MAX_INDEXED_REFERENCE_CHARS * 2),
    });
    await symlink(path.join(outside, "secret.md"), path.join(root, "escape.md"));
    const text = await referenceText(root, "See z-linked.md and [big](big.md).", [
      "a-first.md",
      "big.md",
      "data.bin.md",
      "escape.md",
      "script.py",
      "z-linked.md",
    ]);
    expect(text.startsWith("linked-word")).toBe(true);
    expect(text).not.toContain("outside-word");
    expect(text).not.toContain("python-word");
    expect(text).not.toContain("binary");
    // The big linked file fills the cap: the unlinked one is not reached.
    expect(text).not.toContain("unlinked-word");
    expect(text.length).toBeLessThanOrEqual(MAX_INDEXED_REFERENCE_CHARS);
  });
});

describe("referenceText: which files, in which order", () => {
  it("reads prose files only, never a license, changelog, binary or empty file, each once, in order", async () => {
    const root = await folder({
      "b.md": "b-word",
      "c.txt": "c-word",
      "empty.md": "",
      "LICENSE.md": "license-word",
      "docs/CHANGELOG.md": "changelog-word",
      "changelog/entry.md": "entry-word",
      "notes.md.bak": "backup-word",
      "nul.md": "nul\u0000word",
      "run.py": "python-word",
    });
    const files = [
      "b.md",
      "c.txt",
      "changelog/entry.md",
      "docs/CHANGELOG.md",
      "empty.md",
      "LICENSE.md",
      "notes.md.bak",
      "nul.md",
      "run.py",
    ];
    expect(await referenceText(root, "", files)).toBe("b-word\nc-word\nentry-word\n");
    expect(await referenceText(root, "", ["run.py", "notes.md.bak"])).toBe("");
  });

  it("puts the files the body links or names first, in the body's order, each once", async () => {
    const root = await folder({
      "a.md": "a-word",
      "refs/c++.md": "cpp-word",
      "refs/guide.md": "guide-word",
      "z.md": "z-word",
      "y.md": "y-word",
    });
    const files = ["a.md", "refs/c++.md", "refs/guide.md", "y.md", "z.md"];
    const read = (body: string) => referenceText(root, body, files);
    // A markdown link (any characters but spaces), a path named in the text, a path starting a line, ./ dropped.
    expect(await read("See [c](refs/c++.md).")).toBe("cpp-word\na-word\nguide-word\ny-word\nz-word\n");
    expect(await read("Read refs/guide.md first.")).toBe("guide-word\na-word\ncpp-word\ny-word\nz-word\n");
    expect(await read("intro\nz.md holds the rest")).toBe("z-word\na-word\ncpp-word\nguide-word\ny-word\n");
    expect(await read("[z](./z.md) then [y]( <y.md>) and [z again](z.md)")).toBe(
      "z-word\ny-word\na-word\ncpp-word\nguide-word\n",
    );
    // Links to files the folder does not have change nothing.
    expect(await read("[x](https://example.com/x.md) [m](missing.md)")).toBe(
      "a-word\ncpp-word\nguide-word\ny-word\nz-word\n",
    );
  });

  it("reads at most 64 files", async () => {
    const texts = Object.fromEntries(
      Array.from({ length: 65 }, (_, i) => [`f${String(i).padStart(2, "0")}.md`, `w${i}`]),
    );
    const root = await folder(texts);
    const text = await referenceText(root, "", Object.keys(texts));
    expect(text.split("\n").filter((line) => line !== "")).toEqual(Array.from({ length: 64 }, (_, i) => `w${i}`));
  });
});
