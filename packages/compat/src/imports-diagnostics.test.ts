// What `expandImports` tells the user about each mention it does not inline: the code, the severity, the message
// and the line. These were surviving mutants of the imports target (issue 38, docs/mutation.md).
import { realpath } from "node:fs/promises";
import { afterAll, describe, expect, test } from "vitest";
import { expandFile } from "./testing/expand-file.js";
import { put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);

const expand = expandFile;

const pick = (d: { code: string; severity: string; message: string; line?: number | undefined }) => [
  d.code,
  d.severity,
  d.message,
  d.line,
];

describe("expandImports: diagnostics", () => {
  test("a standalone mention of no file is a warning that names it", async () => {
    const repo = await tempDir();
    await put(repo, "CLAUDE.md", "intro\n@missing.md\n");
    const result = await expand(repo, "CLAUDE.md");
    expect(result.text).toBe("intro\n@missing.md\n");
    expect(result.diagnostics.map(pick)).toEqual([
      ["IMPORT_NOT_FOUND", "warning", "@missing.md: no such file; left as text", 2],
    ]);
  });

  test("a cycle is a warning naming the file that imports back", async () => {
    const repo = await tempDir();
    await put(repo, "CLAUDE.md", "@a.md\n");
    await put(repo, "a.md", "A\n@CLAUDE.md\n");
    const result = await expand(repo, "CLAUDE.md");
    expect(result.diagnostics.map(pick)).toEqual([
      ["IMPORT_CYCLE", "warning", "@CLAUDE.md imports a file that imports it back (CLAUDE.md); cycle broken", 2],
    ]);
  });

  test("a file already in the prompt is an info note, not inlined", async () => {
    const repo = await tempDir();
    await put(repo, "CLAUDE.md", "@guide.md\n");
    const guide = await put(repo, "guide.md", "G\n");
    const result = await expand(repo, "CLAUDE.md", { alreadyLoaded: new Set([await realpath(guide)]) });
    expect(result.text).toBe("@guide.md\n");
    expect(result.diagnostics.map(pick)).toEqual([
      [
        "IMPORT_ALREADY_LOADED",
        "info",
        "@guide.md is not inlined: guide.md is already in the prompt as guidance of its own",
        1,
      ],
    ]);
  });

  test("a mention that resolves outside the repository is a warning saying how to allow it", async () => {
    const outside = await tempDir();
    const file = await put(outside, "far.md", "F\n");
    const repo = await tempDir();
    await put(repo, "CLAUDE.md", `@${file}\n`);
    const result = await expand(repo, "CLAUDE.md");
    expect(result.diagnostics.map(pick)).toEqual([
      [
        "IMPORT_OUTSIDE_REPOSITORY",
        "warning",
        `@${file} resolves outside the repository (${await realpath(file)}); not imported (trust: { user: true } allows it)`,
        1,
      ],
    ]);
  });

  test("trailing punctuation after a mention is not part of the path", async () => {
    const repo = await tempDir();
    await put(repo, "CLAUDE.md", "See @notes.md.\n");
    await put(repo, "notes.md", "N\n");
    const result = await expand(repo, "CLAUDE.md");
    expect(result.text).toContain("<!-- imported from notes.md -->\nN\n<!-- end of notes.md -->");
    expect(result.diagnostics).toEqual([]);
  });
});
