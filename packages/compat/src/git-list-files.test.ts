import { existsSync } from "node:fs";
import { chmod } from "node:fs/promises";
import * as path from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { compareCodePoints } from "@skillctx/core";
import { gitListFiles } from "./nested-scan.js";
import { git, gitInit, HAS_GIT, put, removeTempDirs, tempDir } from "./testing/temp-repo.js";

afterAll(removeTempDirs);
const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

const sorted = (paths: string[]) => [...paths].sort(compareCodePoints);

describe.runIf(HAS_GIT)("gitListFiles (git through runProcess)", () => {
  test("finds every candidate in a listing many chunks long, names split across chunks included", async () => {
    const root = await tempDir();
    const expected: string[] = [];
    // ~3,000 entries with long names: the listing spans several 64 KiB pipe reads.
    for (let i = 0; i < 3000; i++) {
      const dir = `d${i % 50}/${"x".repeat(40)}-${i}`;
      await put(root, `${dir}/file-${"y".repeat(30)}.txt`, "");
      if (i % 97 === 0) {
        await put(root, `${dir}/AGENTS.md`, "");
        expected.push(`${dir}/AGENTS.md`);
      }
    }
    await put(root, "ünïcode/CLAUDE.md", "");
    expected.push("ünïcode/CLAUDE.md");
    await gitInit(root);
    await put(root, "untracked/GEMINI.md", ""); // --others
    expected.push("untracked/GEMINI.md");
    const listed = await gitListFiles(root);
    expect(sorted(listed)).toEqual(sorted(expected));
  });

  test("is not redirected by the host's GIT_DIR or GIT_WORK_TREE", async () => {
    const root = await tempDir();
    await put(root, "a/AGENTS.md", "");
    await gitInit(root);
    const other = await tempDir();
    await put(other, "elsewhere/AGENTS.md", "");
    await gitInit(other);
    process.env.GIT_DIR = path.join(other, ".git");
    process.env.GIT_WORK_TREE = other;
    expect(await gitListFiles(root)).toEqual(["a/AGENTS.md"]);
  });

  test("does not run a program that the repository's config names as core.fsmonitor", async () => {
    const root = await tempDir();
    await put(root, "a/AGENTS.md", "");
    await gitInit(root);
    const flag = path.join(root, "fsmonitor-ran");
    const hook = await put(root, "hook.sh", `#!/bin/sh\ntouch '${flag}'\n`);
    await chmod(hook, 0o755);
    await git(root, "config", "core.fsmonitor", hook);
    const listed = await gitListFiles(root);
    expect(listed).toEqual(["a/AGENTS.md"]);
    expect(existsSync(flag)).toBe(false);
    await git(root, "ls-files"); // the same repository with plain git: the hook runs, so the test can fail
    expect(existsSync(flag)).toBe(true);
  });

  test("rejects with git's own message outside a work tree, and with the reason on abort", async () => {
    const plain = await tempDir();
    await expect(gitListFiles(plain)).rejects.toThrow(/not a git repository/i);
    const reason = new Error("stop");
    await expect(gitListFiles(plain, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
