/**
 * The `skillctx` bin's two CommonJS files (packages/skillctx/bin/skillctx.cjs): help and usage errors are
 * answered by @skillctx/cli's front door without Node's ES module loader; commands run from main.cjs, a
 * CommonJS bundle with no `import()` left (scripts/build-package.mjs, scripts/import-via-require.js).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** Whether a node child that runs `code` has loaded Node's ES module loader by the time it exits. */
async function loadsEsmLoader(code: string): Promise<boolean> {
  const probe = `${code};\nprocess.on("exit", () => process.stderr.write("@@" + process.moduleLoadList.includes("NativeModule internal/modules/esm/load")));`;
  const { stderr } = await promisify(execFile)(process.execPath, ["-e", probe], { cwd: ROOT });
  return stderr.split("@@").pop() === "true";
}

describe("the front door", () => {
  it("answers --help without starting the ES module loader (which `import()` of any file starts)", async () => {
    const front = JSON.stringify(path.join(CLI_DIST, "front.cjs"));
    expect(await loadsEsmLoader(`require(${front}).answer(["--help"])`)).toBe(false);
    expect(await loadsEsmLoader(`require(${front}).answer(["help", "list"])`)).toBe(false);
    // The control: the probe sees the loader when it is started.
    expect(await loadsEsmLoader(`import(${JSON.stringify(path.join(CLI_DIST, "index.js"))})`)).toBe(true);
  });

  it("gives the same answers as main: help of a command, a mistyped command", async () => {
    dir = await tempRepo();
    const viaFront = await runCli(["list", "--help"], { home: dir.dir });
    const viaHelp = await runCli(["help", "list"], { home: dir.dir });
    expect(viaFront).toEqual({ code: 0, stdout: viaHelp.stdout, stderr: "" });
    expect(viaFront.stdout).toMatch(/^usage: skillctx list /);
    // Not a help request, so the bin goes to main.cjs, which answers it with the front door's words.
    const typo = await runCli(["lsit"], { home: dir.dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'lsit'; did you mean 'list'?");
    const { main } = await import(path.join(CLI_DIST, "index.js"));
    expect(typeof main).toBe("function");
  });
});

describe("main.cjs", () => {
  it("holds no import() (the code cache loses its callback on Node 20) and requires the packages it loads late", () => {
    const text = readFileSync(path.join(CLI_DIST, "main.cjs"), "utf8");
    expect(text).not.toMatch(/\bimport\(/);
    for (const name of ["minisearch", "stemmer", "strip-ansi", "chokidar", "fast-json-patch"])
      expect(text).toContain(`__importViaRequire(${JSON.stringify(name)})`);
  });

  it("__importViaRequire gives what import() gives: an ES module's namespace, a CommonJS module's exports as default", async () => {
    const esbuild = await import("esbuild");
    dir = await tempRepo({
      "entry.js": `export const load = (name) => __importViaRequire(name);`,
    });
    const out = path.join(dir.dir, "out.cjs");
    await esbuild.build({
      entryPoints: [path.join(dir.dir, "entry.js")],
      outfile: out,
      bundle: true,
      format: "cjs",
      platform: "node",
      inject: [path.join(ROOT, "scripts/import-via-require.js")],
      logLevel: "error",
    });
    const script = `const { load } = require(${JSON.stringify(out)});
(async () => {
  const ansi = await load("strip-ansi"), realAnsi = await import("strip-ansi");
  const mini = await load("minisearch"), realMini = await import("minisearch");
  const stem = await load("stemmer"), realStem = await import("stemmer");
  process.stdout.write(JSON.stringify({
    ansi: ansi.default("\\u001b[31mred\\u001b[0m") === realAnsi.default("\\u001b[31mred\\u001b[0m"),
    miniDefault: typeof mini.default === typeof realMini.default && new mini.default({ fields: ["a"] }) instanceof mini.default,
    stem: stem.stemmer("running") === realStem.stemmer("running"),
  }));
})();`;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script], {
      cwd: path.join(ROOT, "packages/cli"),
    });
    expect(JSON.parse(stdout)).toEqual({ ansi: true, miniDefault: true, stem: true });
  });
});

describe("the bin before a build", () => {
  it("says how to build, for help and for a command, instead of a stack trace", async () => {
    dir = await tempRepo();
    const cli = path.join(dir.dir, "node_modules/@skillctx/cli");
    mkdirSync(cli, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "packages/cli/package.json"), "utf8"));
    writeFileSync(path.join(cli, "package.json"), JSON.stringify({ name: manifest.name, exports: manifest.exports }));
    const bin = path.join(dir.dir, "node_modules/skillctx/bin/skillctx.cjs");
    mkdirSync(path.dirname(bin), { recursive: true });
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
