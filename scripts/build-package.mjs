#!/usr/bin/env node
// Builds the package in the current folder: one plain build per package, into `dist.next/`, which then
// replaces `dist/` (a fresh folder each time, so no file of a deleted source stays behind to be packed; a
// failed build leaves the previous `dist/` in place).
//
// - JavaScript: tsup (esbuild) bundles each entry point (every `exports` target) into one ES module, with code
//   splitting, so a module shared by two entries is one chunk and a module loaded by `import()` stays a chunk
//   loaded on first use. Every bare specifier stays an import: the other @skillctx packages and every
//   dependency are external, so each module of ours ships in exactly one package's dist.
// - Declarations: `tsc -p tsconfig.build.json --emitDeclarationOnly` (one .d.ts per source file; tsc also
//   type-checks the package). scripts/api-report.mjs and attw read these.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "tsup";

const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
const next = "dist.next";

/** `{ "schemas": "src/schemas.ts", … }`: src/X.ts for every `./dist/X.js` the package exports. */
function entryPoints() {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const entries = {};
  for (const target of Object.values(pkg.exports ?? {})) {
    const file = typeof target === "string" ? target : target.default;
    if (typeof file !== "string" || !file.startsWith("./dist/") || !file.endsWith(".js")) continue;
    const name = file.slice("./dist/".length, -".js".length);
    const source = path.join("src", `${name}.ts`);
    if (!existsSync(source)) throw new Error(`${pkg.name}: exports name ${source}, which does not exist`);
    entries[name] = source;
  }
  return entries;
}

rmSync(next, { recursive: true, force: true });
try {
  await build({
    entry: entryPoints(),
    outDir: next,
    format: "esm",
    platform: "node",
    target: "node22",
    splitting: true,
    // Every bare specifier (the other @skillctx packages, dependencies, node:*) stays an import.
    skipNodeModulesBundle: true,
    config: false,
    silent: true,
    esbuildOptions(options) {
      options.chunkNames = "chunks/[name]-[hash]";
    },
  });
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", next, "--emitDeclarationOnly"], {
    stdio: "inherit",
  });
} catch (error) {
  if (error?.status === undefined) console.error(error);
  rmSync(next, { recursive: true, force: true });
  process.exit(1);
}
if (existsSync("dist")) rmSync("dist", { recursive: true, force: true });
renameSync(next, "dist");
