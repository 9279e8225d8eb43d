#!/usr/bin/env node
// Builds the package in the current folder into `dist.next/`, which then replaces `dist/`: a fresh
// folder each time, so no file of a deleted source stays behind to be packed; a failed build leaves the
// previous `dist/` in place.
//
// - Declarations: `tsc -p tsconfig.build.json --emitDeclarationOnly` (one .d.ts per source, as before;
//   tsc also type-checks the package).
// - JavaScript: esbuild bundles each entry point (every `exports` target, plus `cli` when the package has
//   src/cli.ts) into one file, with code splitting so that modules loaded by `import()` stay separate
//   chunks loaded on first use. Dependencies stay bare imports, so each package still resolves its own
//   dependencies and the other @skillctx packages. Why: a cold process pays per module file, and the
//   unbundled build made `import("skillctx")` load about 170 files (docs/performance.md).
// - The JavaScript is minified (whitespace and syntax; identifiers keep their names).
// - Self-contained packages (SELF_CONTAINED: `skillctx` and `@skillctx/cli`, what a user imports or runs)
//   bundle the other @skillctx packages too, from their sources: one file per entry plus shared chunks,
//   tree-shaken, instead of every package's entry and chunks (a cold `import("skillctx")` went from 1.85×
//   to about 1.45× the CPU time of `node -e 0`, docs/performance.md). Third-party packages stay bare
//   imports, so these packages declare the dependencies of the code they carry. Declarations are not
//   bundled: the .d.ts files stay per source file and import the other @skillctx packages' types.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const tsc = require.resolve("typescript/bin/tsc");
const esbuild = require("esbuild");
const next = "dist.next";
const SELF_CONTAINED = new Set(["skillctx", "@skillctx/cli"]);
const packagesDir = path.resolve("..");

/** `packages/<name>/src/<sub or index>.ts` for `@skillctx/<name>[/<sub>]`, or undefined for any other specifier. */
function workspaceSource(specifier) {
  const m = /^@skillctx\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(specifier);
  return m === null ? undefined : path.join(packagesDir, m[1], "src", `${m[2] ?? "index"}.ts`);
}

const barrels = new Map();
/**
 * What a package entry (a barrel of `export { a, b as c } from "./x.js"`) re-exports: exported name →
 * { file, name } of the module that defines it. Names the entry defines itself or re-exports with
 * `export *` are absent (their imports stay on the entry).
 */
function barrelOf(file) {
  let names = barrels.get(file);
  if (names !== undefined) return names;
  names = new Map();
  const text = readFileSync(file, "utf8");
  for (const m of text.matchAll(/^export\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)";/gm)) {
    const target = path.resolve(path.dirname(file), m[2].replace(/\.js$/, ".ts"));
    for (const item of splitNames(m[1])) names.set(item.as, { file: target, name: item.name });
  }
  barrels.set(file, names);
  return names;
}

/** `a, type B, c as d` → [{ name: "a", as: "a" }, { name: "c", as: "d" }] (type-only names dropped). */
function splitNames(list) {
  return list
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "" && !item.startsWith("type "))
    .map((item) => {
      const [name, as = name] = item.split(/\s+as\s+/);
      return { name, as };
    });
}

/**
 * Bundles the other @skillctx packages into a self-contained package, from their sources. Value imports
 * and re-exports of a package entry (`import { a } from "@skillctx/core/internal"`) are rewritten to the
 * modules that define them: with code splitting, esbuild puts every module an entry's barrel reaches into
 * that entry's chunk, so `skillctx --help` would load the whole of core for `errorText`. Any other bare
 * specifier stays an import.
 */
const bundleWorkspace = ({ commonJs }) => ({
  name: "bundle-workspace",
  setup(build) {
    build.onLoad({ filter: /\/packages\/[a-z-]+\/src\/.*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const contents = (commonJs ? requireOtherPackages(text) : text).replace(
        /^(import|export)\s*\{([^}]*)\}\s*from\s*"(@skillctx\/[a-z-]+(?:\/[a-z-]+)?)";/gm,
        (statement, keyword, list, specifier) => {
          const entry = workspaceSource(specifier);
          if (entry === undefined || !existsSync(entry)) return statement;
          const names = barrelOf(entry);
          const direct = [];
          const kept = [];
          for (const item of splitNames(list)) {
            const found = names.get(item.name);
            if (found === undefined) kept.push(item);
            else direct.push(`${keyword} { ${found.name} as ${item.as} } from ${JSON.stringify(found.file)};`);
          }
          const rest = kept.map((item) => `${item.name} as ${item.as}`).join(", ");
          return [...direct, ...(kept.length > 0 ? [`${keyword} { ${rest} } from "${specifier}";`] : [])].join("\n");
        },
      );
      return { contents, loader: "ts" };
    });
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const file = workspaceSource(args.path);
      if (file === undefined) return { path: args.path, external: true };
      if (!existsSync(file)) throw new Error(`${args.path} (imported by ${args.importer}): no ${file}`);
      return { path: file };
    });
  },
});

// `import("pkg")` of another package → `__importViaRequire("pkg")` (scripts/import-via-require.js), in the
// CommonJS builds; `typeof import("pkg")` types and the workspace's own packages (bundled) stay.
const OTHER_PACKAGE_IMPORT = /(?<!typeof\s*)\bimport\(\s*"((?!\.|@skillctx\/|node:)[^"]+)"\s*\)/g;
function requireOtherPackages(text) {
  return text.replace(OTHER_PACKAGE_IMPORT, (_, specifier) => `__importViaRequire(${JSON.stringify(specifier)})`);
}

/**
 * src/X.ts for every `./dist/X.js` the package exports, and src/cli.ts when there is one; `cjs`: src/X.ts
 * for every `./dist/X.cjs` it exports (built on their own as CommonJS, see below).
 */
function entryPoints(extension = ".js") {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const targets = Object.values(pkg.exports ?? {}).map((target) =>
    typeof target === "string" ? target : target.default,
  );
  const entries = targets
    .filter((target) => typeof target === "string" && target.startsWith("./dist/") && target.endsWith(extension))
    .map((target) => path.join("src", `${target.slice("./dist/".length, -extension.length)}.ts`));
  if (extension === ".js" && existsSync("src/cli.ts")) entries.push("src/cli.ts");
  for (const entry of entries)
    if (!existsSync(entry)) throw new Error(`${pkg.name}: exports name ${entry}, which does not exist`);
  return entries;
}

rmSync(next, { recursive: true, force: true });
try {
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", next, "--emitDeclarationOnly"], {
    stdio: "inherit",
  });
  const selfContained = SELF_CONTAINED.has(JSON.parse(readFileSync("package.json", "utf8")).name);
  const built = await esbuild.build({
    entryPoints: entryPoints(),
    outdir: next,
    outbase: "src",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    ...(selfContained ? { plugins: [bundleWorkspace({ commonJs: false })] } : { packages: "external" }),
    chunkNames: "chunks/[name]-[hash]",
    // Whitespace, comments and syntax only: names stay, so stack traces still name functions. A cold
    // process compiles every module it loads, and the time grows with the source text (docs/performance.md).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
    metafile: process.env.SKILLCTX_BUILD_META !== undefined,
  });
  // A `.cjs` export is one CommonJS file with everything it imports inside (the modules it imports with
  // `import()` too; other packages stay bare imports): the CLI's front door (help) and its `main`, which the
  // bin requires. Node compiles one such file several times faster than the same code as ES module chunks,
  // and a process that needs only the front door never starts the ES module loader (docs/performance.md,
  // "Start-up"). The same code is also in the ES module build, so it must hold no state the two could share.
  for (const entry of entryPoints(".cjs")) {
    // Its declarations as `.d.cts` (a `.d.ts` in an ES module package describes an ES module: attw's FalseESM).
    const declarations = path.join(next, path.relative("src", entry).replace(/\.ts$/, ""));
    writeFileSync(`${declarations}.d.cts`, readFileSync(`${declarations}.d.ts`));
    await esbuild.build({
      entryPoints: [entry],
      outfile: path.join(next, `${path.relative("src", entry).replace(/\.ts$/, "")}.cjs`),
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      ...(selfContained ? { plugins: [bundleWorkspace({ commonJs: true })] } : { packages: "external" }),
      inject: [path.join(import.meta.dirname, "import-via-require.js")],
      // `import.meta.url` (createRequire's base) is this file's URL in CommonJS too.
      banner: { js: 'const __fileUrl = require("node:url").pathToFileURL(__filename).href;' },
      // No `import()` is left: the bin runs main.cjs from a V8 code cache, and Node 20 loses the `import()`
      // callback of code read from a cache. Another package's is `__importViaRequire` (above; Node 20.19+
      // requires ES modules too); a bundled module's is esbuild's own.
      supported: { "dynamic-import": false },
      // `import.meta.resolve` has no CommonJS counterpart: it is undefined there (zod-lib.ts then requires zod's CommonJS build).
      define: { "import.meta.url": "__fileUrl", "import.meta.resolve": "undefined" },
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: "warning",
    });
  }
  // SKILLCTX_BUILD_META=file writes esbuild's metafile (which module went into which chunk, with sizes).
  if (built.metafile !== undefined) writeFileSync(process.env.SKILLCTX_BUILD_META, JSON.stringify(built.metafile));
} catch (error) {
  if (error?.errors === undefined && error?.status === undefined) console.error(error);
  rmSync(next, { recursive: true, force: true });
  process.exit(1);
}
if (existsSync("dist")) rmSync("dist", { recursive: true, force: true });
renameSync(next, "dist");
