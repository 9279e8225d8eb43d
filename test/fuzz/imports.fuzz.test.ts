// Fuzz: `@import` resolution in CLAUDE.md texts (compat imports.ts) over a real temp repository: any
// text gives a result, nothing outside the repository is imported (no trust given), within bounds.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { expandImports } from "../../packages/compat/src/imports.js";
import { fuzz, hostileText, report } from "./harness.js";

let root: string;
let outside: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "skillctx-fuzz-imports-"));
  outside = path.join(root, "outside");
  const repo = path.join(root, "repo");
  await mkdir(path.join(repo, "docs"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(repo, "docs/a.md"), "A @b.md @../CLAUDE.md @docs/a.md\n");
  await writeFile(path.join(repo, "docs/b.md"), "B @a.md\n```\n@a.md\n```\n");
  await writeFile(path.join(repo, "CLAUDE.md"), "root @docs/a.md\n");
  await writeFile(path.join(outside, "secret.md"), "SECRET\n");
});

afterAll(async () => {
  console.info(report());
  await rm(root, { recursive: true, force: true });
});

const mention = fc.constantFrom(
  "@docs/a.md",
  "@./docs/b.md",
  "@../outside/secret.md",
  "@../../etc/passwd",
  "@~/secret.md",
  "@/etc/hostname",
  "@docs/../docs/a.md",
  "@docs/a\\ b.md",
  "@CLAUDE.md",
);
const text = fc.array(fc.oneof(hostileText, mention, fc.constant("\n")), { maxLength: 20 }).map((p) => p.join(" "));

it("expandImports: a result, nothing read from outside the repository, bounded", async () => {
  const repo = path.join(root, "repo");
  await fuzz("imports", text, async (input) => {
    const result = await expandImports(input, path.join(repo, "CLAUDE.md"), {
      repoRoot: repo,
      displayRoot: repo,
      maxBytes: 65_536,
      homeDir: outside,
    });
    expect(result.text.includes("SECRET")).toBe(input.includes("SECRET"));
    for (const file of result.imported) expect(path.resolve(repo, file).startsWith(repo)).toBe(true);
  });
});
