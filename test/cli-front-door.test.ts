/**
 * The `skillctx` bin (packages/skillctx/bin/skillctx.js), an ES module: it turns on Node's own compile cache
 * where Node has one (in the user's skillctx cache folder, once checked: test/adversarial/cache-files.test.ts), then imports @skillctx/cli, whose entry holds only the dispatcher and help; help and
 * `--version` load no command module and no other package, not even core.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import nodeModule from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, CLI, ROOT, runCli } from "./helpers/cli.js";
import { tempRepo } from "./helpers/temp-repo.js";
import type { TempRepo } from "./helpers/temp-repo.js";

const CLI_DIST = path.join(ROOT, "packages/cli/dist");
let dir: TempRepo;
beforeAll(() => assertBuilt());
afterEach(async () => {
  await dir?.dispose();
});

// Every module URL the ES module loader loads goes to the file in LOG_MODULES (appended synchronously).
const HOOKS = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(process.env.LOG_MODULES, url + "\\n"); return next(url, context); }`;
const REGISTER = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** The files of this repository's packages that the bin loads for `args` (`packages/<name>/...`), and its stdout. */
async function packageFilesLoadedBy(args: string[], home: string): Promise<{ files: string[]; stdout: string }> {
  const log = path.join(home, "modules.log");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(REGISTER)}`, CLI, ...args],
    { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: home, LOG_MODULES: log } },
  );
  const files = readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file://"))
    .map((url) => path.relative(ROOT, new URL(url).pathname))
    .filter((file) => file.startsWith("packages/"));
  return { files, stdout };
}

const packagesOf = (files: string[]) => [...new Set(files.map((file) => file.split("/")[1]))].sort();

describe("the front door", () => {
  it("answers --help, --version and help of a command without loading another package or any command module", async () => {
    dir = await tempRepo();
    for (const args of [["--help"], ["--version"], ["help", "list"], ["list", "--help"]]) {
      const { files, stdout } = await packageFilesLoadedBy(args, dir.dir);
      expect(stdout).not.toBe("");
      // The bin and the CLI's entry: no engine, not even core.
      expect(packagesOf(files)).toEqual(["cli", "skillctx"]);
      expect(
        files.filter((file) => /^packages\/cli\/dist\/chunks\/(list|serve|sync|render|build)-/.test(file)),
      ).toEqual([]);
    }
    // The control: a command does load the engine (the probe sees what is loaded).
    const list = await packageFilesLoadedBy(["list", "--cwd", "fixtures/demo-repo"], dir.dir);
    expect(packagesOf(list.files)).toContain("engine");
  });

  it("gives the same answers as the dispatcher: help of a command, a mistyped command", async () => {
    dir = await tempRepo();
    const viaFlag = await runCli(["list", "--help"], { home: dir.dir });
    const viaHelp = await runCli(["help", "list"], { home: dir.dir });
    expect(viaFlag).toEqual({ code: 0, stdout: viaHelp.stdout, stderr: "" });
    expect(viaFlag.stdout).toMatch(/^usage: skillctx list /);
    const typo = await runCli(["lsit"], { home: dir.dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'lsit'; did you mean 'list'?");
    const { main } = await import(path.join(CLI_DIST, "index.js"));
    expect(typeof main).toBe("function");
  });
});

describe("Node's compile cache", () => {
  it("is turned on by the bin where Node has module.enableCompileCache (Node 22.1+), in the user's skillctx cache folder", async () => {
    dir = await tempRepo();
    const tmp = path.join(dir.dir, "tmp");
    mkdirSync(tmp);
    // Not Node's default (<os.tmpdir()>/node-compile-cache, shared by every user): ~/.cache/skillctx/node-compile-cache.
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "--version"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: dir.dir, TMPDIR: tmp },
    });
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    const cache = path.join(dir.dir, ".cache/skillctx/node-compile-cache");
    expect(existsSync(path.join(tmp, "node-compile-cache"))).toBe(false);
    if (typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function") {
      expect(existsSync(cache)).toBe(true);
      expect(readdirSync(cache, { recursive: true }).length).toBeGreaterThan(0);
    } else {
      // Node 20 has no compile cache: the bin runs without one.
      expect(existsSync(cache)).toBe(false);
    }
  });
});

describe("the bin before a build", () => {
  it("says how to build, for help and for a command, instead of a stack trace", async () => {
    dir = await tempRepo();
    const cli = path.join(dir.dir, "node_modules/@skillctx/cli");
    mkdirSync(cli, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "packages/cli/package.json"), "utf8"));
    writeFileSync(
      path.join(cli, "package.json"),
      JSON.stringify({ name: manifest.name, type: "module", exports: manifest.exports }),
    );
    const pkg = path.join(dir.dir, "node_modules/skillctx");
    const bin = path.join(pkg, "bin/skillctx.js");
    mkdirSync(path.dirname(bin), { recursive: true });
    writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "skillctx", type: "module" }));
    cpSync(CLI, bin);
    for (const args of [["--help"], ["list"]]) {
      const run = await promisify(execFile)(process.execPath, [bin, ...args]).catch((error) => error);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        "skillctx: the CLI is not built (no @skillctx/cli dist). In the skillctx repository, run: npx -y pnpm@10.34.9 build\n",
      );
    }
  });
});
