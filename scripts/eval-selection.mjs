#!/usr/bin/env node
// `pnpm eval:selection`: bundles scripts/eval-selection/run-eval.ts with esbuild (the sources, no build
// of the packages needed) into packages/core/node_modules/.cache and runs it. Flag: --quick (shipped weights only).

import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const esbuild = createRequire(import.meta.url)("esbuild");
// Inside core's node_modules: the lazy `require`s of core (yaml, ...) resolve from there.
const outDir = path.join(root, "packages/core/node_modules/.cache/skillctx-eval");
mkdirSync(outDir, { recursive: true });
const outfile = path.join(outDir, "run-eval.mjs");
await esbuild.build({
  entryPoints: [path.join(root, "scripts/eval-selection/run-eval.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile,
  logLevel: "warning",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
process.argv.splice(2, 0, root);
await import(pathToFileURL(outfile).href);
