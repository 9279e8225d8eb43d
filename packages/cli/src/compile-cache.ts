/**
 * `@skillctx/cli/compile-cache` (`dist/compile-cache.cjs`): requires a CommonJS file with a V8 code cache,
 * the way Node 22's `module.enableCompileCache()` does for every module. The `skillctx` bin loads the CLI's
 * `main.cjs` (about 700 KB: every command) through it: a cold process compiles that file and the functions a
 * command calls on every run, and with the cache a run after the first skips most of it (docs/performance.md,
 * "Start-up"; docs/decisions.md says why by hand).
 *
 * - Where: `<cache>/v8/<file name>-<digest>.bin`, `<cache>` as `skillctx sync` has it ($XDG_CACHE_HOME/skillctx
 *   or ~/.cache/skillctx). The digest is SHA-256 of the file's bytes, Node's version and the architecture: V8
 *   checks only a cache's source length and flags, so the name must change whenever the content does.
 * - When: written at exit (after the command ran, so the functions it compiled are in it) when there was no
 *   cache or V8 rejected it; through a temp file and a rename, so a reader never sees half a cache. Writing
 *   one removes the oldest caches of the same file name beyond the newest four (versions gone).
 * - Never a failure: a cache that cannot be read, written or used is ignored and the file compiles as usual.
 *   The file holds a SHA-256 of the V8 data before it: V8 aborts the process on some corrupt caches, so data
 *   that does not match is never given to it.
 * - The file must not use `import()`: Node 20 loses the dynamic import callback of code read from a cache
 *   (the CJS build turns `import()` into `require()`, scripts/build-package.mjs).
 * - Off with `NODE_DISABLE_COMPILE_CACHE=1` (Node's own switch for its compile cache). On a Node with
 *   `module.enableCompileCache`, Node's own cache is used instead.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as nodeModule from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { createHash } from "@skillctx/core/internal";
import { defaultCacheDir } from "@skillctx/sources";

/** What {@link requireCached} did, for tests and `--debug`. */
export interface CompileCacheOutcome {
  /** `used`: the cache was accepted; `written`: there was none (or V8 rejected it) and one is written at exit; `node`: Node's own cache; `off`: disabled. */
  cache: "used" | "written" | "node" | "off";
  /** The cache file, when this module manages it. */
  file?: string | undefined;
}

/** Runs CommonJS `file` as `require(file)` would, compiled with a V8 code cache; returns its exports. */
export function requireCached(file: string): { exports: unknown; outcome: CompileCacheOutcome } {
  const absolute = path.resolve(file);
  const require = createRequire(absolute);
  if (process.env["NODE_DISABLE_COMPILE_CACHE"] !== undefined && process.env["NODE_DISABLE_COMPILE_CACHE"] !== "")
    return { exports: require(absolute), outcome: { cache: "off" } };
  const enableCompileCache = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (typeof enableCompileCache === "function") {
    enableCompileCache();
    return { exports: require(absolute), outcome: { cache: "node" } };
  }
  const bytes = readFileSync(absolute);
  const digest = createHash("sha256").update(bytes).update(`\0${process.version}\0${process.arch}`).digest("hex");
  const cacheFile = path.join(defaultCacheDir(), "v8", `${path.basename(absolute)}-${digest.slice(0, 32)}.bin`);
  const cached = readCache(cacheFile);
  // The same wrapper as Node's CommonJS loader, so the file sees what require would give it.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) { ${bytes.toString("utf8")}\n})`,
    {
      filename: absolute,
      ...(cached !== undefined && { cachedData: cached }),
    },
  );
  const used = cached !== undefined && !script.cachedDataRejected;
  if (!used) process.once("exit", () => writeCache(cacheFile, script));
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, require, module, absolute, path.dirname(absolute));
  return { exports: module.exports, outcome: { cache: used ? "used" : "written", file: cacheFile } };
}

// A cache file is the SHA-256 of the V8 data, then the data. V8 checks little of what it is given (a cache
// with flipped bytes makes it abort the process), so data whose digest does not match is never handed over.
const DIGEST_BYTES = 32;

function readCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(DIGEST_BYTES);
  const intact =
    bytes.length > DIGEST_BYTES && createHash("sha256").update(data).digest().equals(bytes.subarray(0, DIGEST_BYTES));
  return intact ? data : undefined;
}

// At exit: the cache holds the file's code and every function compiled while it ran.
function writeCache(file: string, script: vm.Script): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const data = script.createCachedData();
    writeFileSync(temp, Buffer.concat([createHash("sha256").update(data).digest(), data]));
    renameSync(temp, file);
    pruneOthers(file);
  } catch {
    // A read-only or full cache folder: the next run compiles as this one did.
    try {
      rmSync(temp, { force: true });
    } catch {
      // No folder, so no temp file either.
    }
  }
}

// Caches of the same file name: one per version of the file and of Node. The newest are kept (two installs
// in use keep theirs); the rest are caches of versions gone, removed when a new one is written.
const KEPT_CACHES = 4;

function pruneOthers(written: string): void {
  const folder = path.dirname(written);
  const prefix = `${path.basename(written).replace(/-[0-9a-f]{32}\.bin$/, "")}-`;
  const others = readdirSync(folder)
    .filter((name) => name.startsWith(prefix) && name.endsWith(".bin") && name !== path.basename(written))
    .map((name) => {
      const file = path.join(folder, name);
      return { file, mtimeMs: statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 };
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { file } of others.slice(KEPT_CACHES - 1)) rmSync(file, { force: true });
}
