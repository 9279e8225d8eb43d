import { readFile, realpath } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { MAX_IMPORT_DEPTH, expandImports } from "./imports.js";
import { copyFixture, link, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

async function expandFile(repo: string, file: string, extra: { trustUserScope?: boolean; homeDir?: string; maxBytes?: number } = {}) {
  const text = await readFile(path.join(repo, file), "utf8");
  return expandImports(text, path.join(repo, file), {
    repoRoot: await realpath(repo),
    displayRoot: repo,
    trustUserScope: extra.trustUserScope ?? false,
    maxBytes: extra.maxBytes ?? 262_144,
    homeDir: extra.homeDir,
  });
}

// The text between the markers of one imported file.
function importedBody(text: string, label: string): string | undefined {
  const open = `<!-- imported from ${label} -->\n`;
  const start = text.indexOf(open);
  const end = text.indexOf(`<!-- end of ${label} -->`, start);
  return start < 0 || end < 0 ? undefined : text.slice(start + open.length, end);
}

describe("expandImports on the imports fixture", async () => {
  const repo = await copyFixture("imports");
  const original = await readFile(path.join(repo, "CLAUDE.md"), "utf8");
  const result = await expandFile(repo, "CLAUDE.md");

  test("keeps every line of the importing file, in order", () => {
    const withoutImports = result.text.replace(/<!-- imported from (\S+) -->\n[\s\S]*?<!-- end of \1 -->\n/g, "");
    expect(withoutImports).toBe(original);
  });

  test("a standalone @path line pulls the file in, relative to the importing file, recursively", async () => {
    const style = importedBody(result.text, "docs/style.md");
    expect(style).toContain("Use tabs.");
    // docs/style.md imports ./style-extra.md relative to docs/.
    expect(style).toContain(await readFile(path.join(repo, "docs/style-extra.md"), "utf8"));
    // The import follows the line that names it.
    expect(result.text.indexOf("<!-- imported from docs/style.md -->")).toBe(result.text.indexOf("@docs/style.md\n") + "@docs/style.md\n".length);
  });

  test("mentions inside a sentence import too (Claude Code syntax), trailing punctuation tolerated", async () => {
    expect(importedBody(result.text, "README.md")).toBe(await readFile(path.join(repo, "README.md"), "utf8"));
    expect(importedBody(result.text, "package.json")).toBe(await readFile(path.join(repo, "package.json"), "utf8"));
  });

  test("never from code fences or code spans", () => {
    expect(result.text).not.toContain("SECRET FENCE CONTENT");
    expect(result.text).not.toContain("SECRET SPAN CONTENT");
    expect(result.imported.some((p) => p.includes("secret"))).toBe(false);
  });

  test("e-mail addresses and package names are not imports and raise nothing", () => {
    expect(result.diagnostics.filter((d) => /example|types/.test(d.message))).toEqual([]);
  });

  test(`at most ${MAX_IMPORT_DEPTH} levels deep`, () => {
    const chain = result.imported.filter((p) => p.startsWith("docs/chain/"));
    expect(chain).toEqual(["docs/chain/level1.md", "docs/chain/level2.md", "docs/chain/level3.md", "docs/chain/level4.md", "docs/chain/level5.md"]);
    expect(result.text).not.toContain("chain level 6");
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: "IMPORT_TOO_DEEP", path: path.join(repo, "docs/chain/level5.md"), line: 2 }),
    );
  });

  test("cycles are broken with a warning", () => {
    expect(result.text.match(/cycle a/g)).toHaveLength(1);
    expect(result.text.match(/cycle b/g)).toHaveLength(1);
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: "IMPORT_CYCLE", path: path.join(repo, "docs/cycle/b.md") }));
  });

  test("a standalone import of a missing file stays as text, with a warning and its line", () => {
    expect(result.text).toContain("@docs/missing.md");
    const line = original.split("\n").findIndex((l) => l === "@docs/missing.md") + 1;
    expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: "IMPORT_NOT_FOUND", path: path.join(repo, "CLAUDE.md"), line }));
  });
});

describe("expandImports and the repository boundary", () => {
  test("a file outside the repository is refused unless the user scope is trusted", async () => {
    const repo = await copyFixture("imports");
    await put(path.dirname(repo), "outside.md", "OUTSIDE CONTENT\n");
    await put(repo, "CLAUDE.md", "# x\n@../outside.md\n");
    const refused = await expandFile(repo, "CLAUDE.md");
    expect(refused.text).toBe("# x\n@../outside.md\n");
    expect(refused.diagnostics).toEqual([expect.objectContaining({ code: "IMPORT_OUTSIDE_REPOSITORY", line: 2 })]);

    const trusted = await expandFile(repo, "CLAUDE.md", { trustUserScope: true });
    expect(trusted.text).toContain("OUTSIDE CONTENT");
    expect(trusted.diagnostics).toEqual([]);
  });

  test("a symlink inside the repository that points outside is outside", async () => {
    const repo = await copyFixture("imports");
    const secret = await put(path.dirname(repo), "secret.txt", "TOKEN=hunter2\n");
    await link(repo, "docs/innocent.md", secret);
    await put(repo, "CLAUDE.md", "@docs/innocent.md\n");
    const result = await expandFile(repo, "CLAUDE.md");
    expect(result.text).not.toContain("hunter2");
    expect(result.diagnostics[0]?.code).toBe("IMPORT_OUTSIDE_REPOSITORY");
  });

  test("@~/ is the home folder: outside unless trusted", async () => {
    const repo = await copyFixture("imports");
    const home = await tempDir();
    await put(home, "notes/me.md", "PERSONAL NOTES\n");
    await put(repo, "CLAUDE.md", "@~/notes/me.md\n");
    expect((await expandFile(repo, "CLAUDE.md", { homeDir: home })).text).not.toContain("PERSONAL NOTES");
    expect((await expandFile(repo, "CLAUDE.md", { homeDir: home, trustUserScope: true })).text).toContain("PERSONAL NOTES");
  });

  test("a file imported twice is included once; an escaped space is part of the path", async () => {
    const dir = await tempDir();
    await put(dir, "shared.md", "SHARED\n");
    await put(dir, "my notes.md", "SPACED\n");
    await put(dir, "a.md", "@shared.md\n");
    await put(dir, "CLAUDE.md", "@a.md\n@shared.md\n@my\\ notes.md\n");
    const result = await expandFile(dir, "CLAUDE.md");
    expect(result.text.match(/SHARED/g)).toHaveLength(1);
    expect(result.text).toContain("SPACED");
    expect(result.imported).toEqual(["a.md", "shared.md", "my notes.md"]);
  });

  test("a binary import is skipped with a diagnostic; the rest of the file stays", async () => {
    const dir = await tempDir();
    await put(dir, "logo.md", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]));
    await put(dir, "CLAUDE.md", "before\n@logo.md\nafter\n");
    const result = await expandFile(dir, "CLAUDE.md");
    expect(result.text).toBe("before\n@logo.md\nafter\n");
    expect(result.diagnostics.map((d) => d.code)).toEqual(["GUIDANCE_BINARY"]);
  });

  test("an import on the last line without a newline still gets its own lines", async () => {
    const dir = await tempDir();
    await put(dir, "x.md", "X");
    await put(dir, "CLAUDE.md", "end @x.md");
    expect((await expandFile(dir, "CLAUDE.md")).text).toBe("end @x.md\n<!-- imported from x.md -->\nX\n<!-- end of x.md -->\n");
  });
});
