#!/usr/bin/env node
// Builds the package in the current folder into `dist.next/`, which then replaces `dist/`: a fresh
// folder each time, so no file of a deleted source stays behind to be packed; a failed build leaves the
// previous `dist/` in place.
//
// - Declarations: `tsc -p tsconfig.build.json --emitDeclarationOnly` (one .d.ts per source, as before;
//   tsc also type-checks the package).
// - JavaScript: esbuild bundles each entry point (every `exports` target, plus `cli` when the package has
//   src/cli.ts) into one file, with code splitting so that modules loaded by `import()` stay separate
//   chunks loaded on first use. Dependencies stay bare imports (`packages: "external"`), so each package
//   still resolves its own dependencies and the other @skillctx packages. Why: a cold process pays per
//   module file, and the unbundled build made `import("skillctx")` load about 170 files (docs/performance.md).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
const esbuild = require("esbuild");
const next = "dist.next";

/** src/X.ts for every `./dist/X.js` the package exports, and src/cli.ts when there is one. */
function entryPoints() {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const targets = Object.values(pkg.exports ?? {}).map((target) =>
    typeof target === "string" ? target : target.default,
  );
  const entries = targets
    .filter((target) => typeof target === "string" && target.startsWith("./dist/") && target.endsWith(".js"))
    .map((target) => path.join("src", target.slice("./dist/".length).replace(/\.js$/, ".ts")));
  if (existsSync("src/cli.ts")) entries.push("src/cli.ts");
  for (const entry of entries)
    if (!existsSync(entry)) throw new Error(`${pkg.name}: exports name ${entry}, which does not exist`);
  return entries;
}

rmSync(next, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", next, "--emitDeclarationOnly"], {
    stdio: "inherit",
  });
  await esbuild.build({
    entryPoints: entryPoints(),
    outdir: next,
    outbase: "src",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    chunkNames: "chunks/[name]-[hash]",
    logLevel: "warning",
  });
} catch (error) {
  if (error?.errors === undefined && error?.status === undefined) console.error(error);
  rmSync(next, { recursive: true, force: true });
  process.exit(1);
}
if (existsSync("dist")) rmSync("dist", { recursive: true, force: true });
renameSync(next, "dist");
