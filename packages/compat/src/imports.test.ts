import { readFile } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { MAX_IMPORT_DEPTH } from "./imports.js";
import { expandFile } from "./testing/expand-file.js";
import { copyFixture, link, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

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
    expect(result.text.indexOf("<!-- imported from docs/style.md -->")).toBe(
      result.text.indexOf("@docs/style.md\n") + "@docs/style.md\n".length,
    );
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
    expect(chain).toEqual([
      "docs/chain/level1.md",
      "docs/chain/level2.md",
      "docs/chain/level3.md",
      "docs/chain/level4.md",
      "docs/chain/level5.md",
    ]);
    expect(result.text).not.toContain("chain level 6");
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: "IMPORT_TOO_DEEP", path: path.join(repo, "docs/chain/level5.md"), line: 2 }),
    );
  });

  test("cycles are broken with a warning", () => {
    expect(result.text.match(/cycle a/g)).toHaveLength(1);
    expect(result.text.match(/cycle b/g)).toHaveLength(1);
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: "IMPORT_CYCLE", path: path.join(repo, "docs/cycle/b.md") }),
    );
  });

  test("a standalone import of a missing file stays as text, with a warning and its line", () => {
    expect(result.text).toContain("@docs/missing.md");
    const line = original.split("\n").indexOf("@docs/missing.md") + 1;
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ code: "IMPORT_NOT_FOUND", path: path.join(repo, "CLAUDE.md"), line }),
    );
  });
});

describe("expandImports and the repository boundary", () => {
  test("a file outside the repository is refused unless trust.user is true", async () => {
    const repo = await copyFixture("imports");
    await put(path.dirname(repo), "outside.md", "OUTSIDE CONTENT\n");
    await put(repo, "CLAUDE.md", "# x\n@../outside.md\n");
    const refused = await expandFile(repo, "CLAUDE.md");
    expect(refused.text).toBe("# x\n@../outside.md\n");
    expect(refused.diagnostics).toEqual([expect.objectContaining({ code: "IMPORT_OUTSIDE_REPOSITORY", line: 2 })]);

    expect((await expandFile(repo, "CLAUDE.md", { trust: { project: true } })).text).not.toContain("OUTSIDE CONTENT");
    const trusted = await expandFile(repo, "CLAUDE.md", { trust: { user: true } });
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
    expect((await expandFile(repo, "CLAUDE.md", { homeDir: home, trust: { user: true } })).text).toContain(
      "PERSONAL NOTES",
    );
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
    expect((await expandFile(dir, "CLAUDE.md")).text).toBe(
      "end @x.md\n<!-- imported from x.md -->\nX\n<!-- end of x.md -->\n",
    );
  });
});

describe("expandImports: what is code is never imported", () => {
  test("mentions in indented code, HTML comments, HTML blocks, fences and spans stay text; prose ones import", async () => {
    const dir = await tempDir();
    for (const name of [
      "fence",
      "tilde",
      "span",
      "indented",
      "comment",
      "comment-block",
      "html-block",
      "pre",
      "prose",
      "list",
    ]) {
      await put(dir, `${name}.md`, `CONTENT OF ${name.toUpperCase()}\n`);
    }
    const claude = [
      "# Project",
      "",
      "```",
      "@fence.md",
      "```",
      "~~~~",
      "@tilde.md",
      "~~~~",
      "Inline `@span.md` code.",
      "",
      "    @indented.md",
      "",
      "Text <!-- @comment.md --> more.",
      "",
      "<!--",
      "@comment-block.md",
      "-->",
      "",
      "<div>",
      "@html-block.md",
      "</div>",
      "",
      "<pre>",
      "",
      "@pre.md",
      "</pre>",
      "",
      "@prose.md",
      "- see @list.md",
      "",
    ].join("\n");
    await put(dir, "CLAUDE.md", claude);
    const result = await expandFile(dir, "CLAUDE.md");
    expect(result.imported).toEqual(["prose.md", "list.md"]);
    for (const name of ["FENCE", "TILDE", "SPAN", "INDENTED", "COMMENT", "COMMENT-BLOCK", "HTML-BLOCK", "PRE"]) {
      expect(result.text).not.toContain(`CONTENT OF ${name}\n`);
    }
    expect(result.diagnostics).toEqual([]);
  });
});

describe("expandImports: limits on the whole tree", () => {
  async function fanOut(files: number, bytesEach: number): Promise<string> {
    const dir = await tempDir();
    const lines: string[] = [];
    for (let i = 0; i < files; i++) {
      const name = `part-${String(i).padStart(4, "0")}.md`;
      await put(dir, name, `${"x".repeat(Math.max(0, bytesEach - 1))}\n`);
      lines.push(`@${name}`);
    }
    await put(dir, "CLAUDE.md", `${lines.join("\n")}\n`);
    return dir;
  }

  test("stops before the first file that would pass maxImportBytes, with one note and one IMPORT_LIMIT", async () => {
    const dir = await fanOut(10, 1_000);
    const result = await expandFile(dir, "CLAUDE.md", { maxImportBytes: 3_500 });
    expect(result.imported).toEqual(["part-0000.md", "part-0001.md", "part-0002.md"]);
    expect(result.text.match(/\[skillctx: /g)).toHaveLength(1);
    expect(result.text).toContain(
      "@part-0003.md\n[skillctx: @part-0003.md (1000 bytes) and the imports after it were not included: imported files may total at most 3500 bytes (maxImportBytes)]\n@part-0004.md\n",
    );
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ code: "IMPORT_LIMIT", line: 4, path: path.join(dir, "CLAUDE.md") }),
    ]);
  });

  test("counts bytes across nested imports, not per file", async () => {
    const dir = await tempDir();
    await put(dir, "CLAUDE.md", "@a.md\n@c.md\n");
    await put(dir, "a.md", `${"a".repeat(599)}\n@b.md\n`);
    await put(dir, "b.md", `${"b".repeat(599)}\n`);
    await put(dir, "c.md", `${"c".repeat(599)}\n`);
    const result = await expandFile(dir, "CLAUDE.md", { maxImportBytes: 1_500 });
    expect(result.imported).toEqual(["a.md", "b.md"]);
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([["IMPORT_LIMIT", 2]]);
  });

  test("imports at most maxImportFiles files", async () => {
    const dir = await fanOut(8, 10);
    const result = await expandFile(dir, "CLAUDE.md", { maxImportFiles: 5 });
    expect(result.imported).toHaveLength(5);
    expect(result.diagnostics.map((d) => d.code)).toEqual(["IMPORT_LIMIT"]);
    expect(result.text).toContain("at most 5 files are imported (maxImportFiles)");
  });

  test("looks up at most maxImportLookups mentions, found or not", async () => {
    const dir = await tempDir();
    await put(dir, "real.md", "REAL\n");
    await put(dir, "CLAUDE.md", `${Array.from({ length: 50 }, (_, i) => `user @nobody${i}`).join("\n")}\n@real.md\n`);
    const result = await expandFile(dir, "CLAUDE.md", { maxImportLookups: 20 });
    expect(result.imported).toEqual([]);
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([["IMPORT_LIMIT", 21]]);
    expect((await expandFile(dir, "CLAUDE.md")).imported).toEqual(["real.md"]);
  });

  test("a file larger than the per-file cap counts only what is read of it", async () => {
    const dir = await fanOut(3, 5_000);
    const result = await expandFile(dir, "CLAUDE.md", { maxBytes: 1_000, maxImportBytes: 3_000 });
    expect(result.imported).toHaveLength(3);
    expect(result.diagnostics.map((d) => d.code)).toEqual([
      "GUIDANCE_TRUNCATED",
      "GUIDANCE_TRUNCATED",
      "GUIDANCE_TRUNCATED",
    ]);
  });
});
