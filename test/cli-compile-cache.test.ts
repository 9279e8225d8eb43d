/**
 * The CLI's V8 code cache (packages/cli/src/compile-cache.ts, built as @skillctx/cli/compile-cache): real
 * child processes, each with its own cache folder. The bin runs main.cjs through it (docs/performance.md,
 * "Start-up"); Node 22's `module.enableCompileCache` is the behaviour it stands in for on Node 20
 * (https://nodejs.org/api/module.html#module-compile-cache: NODE_DISABLE_COMPILE_CACHE turns it off).
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, CLI, DEMO, ROOT } from "./helpers/cli.js";
import { tempRepo } from "./helpers/temp-repo.js";
import type { TempRepo } from "./helpers/temp-repo.js";

const COMPILE_CACHE = path.join(ROOT, "packages/cli/dist/compile-cache.cjs");

// A module that uses what a bundle of the CLI uses: require of a builtin, and a function compiled only when called.
const MODULE = `"use strict";
const os = require("node:os");
exports.answer = (n) => \`\${os.EOL === "\\n" ? "lf" : "crlf"} \${n * 2}\`;
`;

/** Requires `file` through requireCached in a fresh node and returns what it printed. */
async function requireInChild(file: string, cacheHome: string, env: Record<string, string> = {}) {
  const script = `const { requireCached } = require(${JSON.stringify(COMPILE_CACHE)});
const { exports, outcome } = requireCached(${JSON.stringify(file)});
process.stdout.write(JSON.stringify({ answer: exports.answer(21), outcome }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], {
    env: { PATH: process.env.PATH ?? "", HOME: cacheHome, XDG_CACHE_HOME: path.join(cacheHome, "cache"), ...env },
  });
  return JSON.parse(stdout) as { answer: string; outcome: { cache: string; file?: string } };
}

let dir: TempRepo;
beforeAll(() => assertBuilt());
afterEach(async () => {
  await dir?.dispose();
});

describe("requireCached (the bin's code cache for main.cjs)", () => {
  it("writes a cache on the first run and uses it on the next, with the same result", async () => {
    dir = await tempRepo({ "mod.cjs": MODULE });
    const file = path.join(dir.dir, "mod.cjs");
    const first = await requireInChild(file, dir.dir);
    expect(first).toMatchObject({ answer: "lf 42", outcome: { cache: "written" } });
    expect(first.outcome.file).toMatch(/\/cache\/skillctx\/v8\/mod\.cjs-[0-9a-f]{32}\.bin$/);
    expect(readFileSync(first.outcome.file!).length).toBeGreaterThan(0);
    const second = await requireInChild(file, dir.dir);
    expect(second).toEqual({ answer: "lf 42", outcome: { cache: "used", file: first.outcome.file } });
  });

  it("names the cache by the file's content: a changed file of the same length never runs the old code", async () => {
    dir = await tempRepo({ "mod.cjs": MODULE });
    const file = path.join(dir.dir, "mod.cjs");
    const first = await requireInChild(file, dir.dir);
    // Same length, other code: V8 checks a cache's source length only, so the name must differ.
    writeFileSync(file, MODULE.replace("n * 2", "n * 3"));
    const changed = await requireInChild(file, dir.dir);
    expect(changed.answer).toBe("lf 63");
    expect(changed.outcome.cache).toBe("written");
    expect(changed.outcome.file).not.toBe(first.outcome.file);
  });

  it("keeps the newest four caches of a file name when it writes one (older versions' caches go)", async () => {
    dir = await tempRepo({ "mod.cjs": MODULE });
    const folder = path.join(dir.dir, "cache/skillctx/v8");
    mkdirSync(folder, { recursive: true });
    const old = (n: number) => `mod.cjs-${String(n).repeat(32)}.bin`;
    for (let n = 1; n <= 5; n++) {
      writeFileSync(path.join(folder, old(n)), "an older version's cache");
      utimesSync(path.join(folder, old(n)), n * 1000, n * 1000);
    }
    writeFileSync(path.join(folder, `other.cjs-${"a".repeat(32)}.bin`), "another file's cache");
    const run = await requireInChild(path.join(dir.dir, "mod.cjs"), dir.dir);
    expect(readdirSync(folder).sort()).toEqual(
      [old(3), old(4), old(5), path.basename(run.outcome.file!), `other.cjs-${"a".repeat(32)}.bin`].sort(),
    );
  });

  it("is off with NODE_DISABLE_COMPILE_CACHE, Node's own switch: nothing is written", async () => {
    dir = await tempRepo({ "mod.cjs": MODULE });
    const run = await requireInChild(path.join(dir.dir, "mod.cjs"), dir.dir, { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(run).toEqual({ answer: "lf 42", outcome: { cache: "off" } });
    expect(readdirSync(dir.dir)).toEqual(["mod.cjs"]);
  });

  it("runs the file when the cache folder cannot be made (a file stands where it would be)", async () => {
    dir = await tempRepo({ "mod.cjs": MODULE, cache: "not a folder" });
    const file = path.join(dir.dir, "mod.cjs");
    expect((await requireInChild(file, dir.dir)).answer).toBe("lf 42");
    expect((await requireInChild(file, dir.dir)).outcome.cache).toBe("written");
  });
});

describe("the skillctx bin runs the CLI through the cache", () => {
  it("lists the same skills with and without it, and writes it under $XDG_CACHE_HOME/skillctx/v8", async () => {
    dir = await tempRepo();
    const env = { PATH: process.env.PATH ?? "", HOME: dir.dir, XDG_CACHE_HOME: path.join(dir.dir, "xdg") };
    const list = (extra: Record<string, string> = {}) =>
      promisify(execFile)(process.execPath, [CLI, "list", "--cwd", DEMO], { env: { ...env, ...extra } });
    const plain = await list({ NODE_DISABLE_COMPILE_CACHE: "1" });
    const first = await list();
    const cached = readdirSync(path.join(dir.dir, "xdg/skillctx/v8"));
    expect(cached).toEqual([expect.stringMatching(/^main\.cjs-[0-9a-f]{32}\.bin$/)]);
    const second = await list();
    expect(first.stdout).toBe(plain.stdout);
    expect(second.stdout).toBe(plain.stdout);
    expect(second.stderr).toBe(plain.stderr);
    expect(plain.stdout).toMatch(/\n7 skills\n$/);
  });
});
