// Test helper (excluded from the build): temp folders with files, removed after each test.
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/**
 * Whether git is on PATH for this test run: test/setup/tools.ts lists the missing tools in
 * SKILLCTX_MISSING_TOOLS (and prints one line naming each); tests that need git are skipped without it.
 */
export const HAS_GIT = !(process.env["SKILLCTX_MISSING_TOOLS"] ?? "").split(",").includes("git");

/** Writes `text` at `dir/relative`, making folders; returns the file's path. */
export async function put(dir: string, relative: string, text: string): Promise<string> {
  const file = path.join(dir, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

/** A `tempDir(files?)` function whose folders (real paths, `prefix` in their name) are removed after each test. */
export function useTempDirs(prefix: string): (files?: Record<string, string>) => Promise<string> {
  const temps: string[] = [];
  afterEach(async () => {
    await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async (files = {}) => {
    const dir = await realpath(await mkdtemp(path.join(tmpdir(), `skillctx-${prefix}-`)));
    temps.push(dir);
    for (const [relative, text] of Object.entries(files)) await put(dir, relative, text);
    return dir;
  };
}
