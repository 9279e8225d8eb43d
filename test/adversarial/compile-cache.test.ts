/**
 * A hostile or broken V8 code cache for the CLI (packages/cli/src/compile-cache.ts): what V8 rejects
 * compiles as if there were no cache, and the file is written anew; the CLI's answer never changes.
 * (A cache folder writable by someone else is not defended: whoever can write the user's cache can
 * write the user's shell profile too. Node's own compile cache has the same trust model.)
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, CLI, DEMO } from "../helpers/cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import type { TempRepo } from "../helpers/temp-repo.js";

let home: TempRepo;
beforeAll(() => assertBuilt());
afterEach(async () => {
  await home?.dispose();
});

async function list(): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [CLI, "list", "--cwd", DEMO, "--json"], {
    env: { PATH: process.env.PATH ?? "", HOME: home.dir, XDG_CACHE_HOME: path.join(home.dir, "xdg") },
  });
}

describe("a broken code cache never changes what the CLI answers", () => {
  it.each([
    ["garbage bytes", () => Buffer.from("not a V8 code cache at all\n".repeat(100))],
    ["an empty file", () => Buffer.alloc(0)],
    ["a cache cut in half", (valid: Buffer) => valid.subarray(0, valid.length >> 1)],
    ["a cache with its bytes flipped", (valid: Buffer) => Buffer.from(valid.map((b, i) => (i > 64 ? b ^ 0xff : b)))],
  ])("%s in place of the cache: the same listing, and a good cache written again", async (_, broken) => {
    home = await tempRepo();
    const expected = await list();
    const folder = path.join(home.dir, "xdg/skillctx/v8");
    const [name] = readdirSync(folder);
    const file = path.join(folder, name!);
    const valid = readFileSync(file);
    writeFileSync(file, broken(valid));
    const run = await list();
    expect(run.stdout).toBe(expected.stdout);
    expect(run.stderr).toBe(expected.stderr);
    expect(JSON.parse(run.stdout).skills).toHaveLength(7);
    // Rejected, so written again at exit: the next run has a cache V8 accepts.
    expect(readFileSync(file).length).toBeGreaterThan(1000);
    expect((await list()).stdout).toBe(expected.stdout);
  });
});
