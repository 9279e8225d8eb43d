#!/usr/bin/env node
// Which packages import each name of an internal entry point (`@skillctx/core/internal`,
// `@skillctx/mcp-bridge/internal`, ...): an internal entry keeps only what at least two other packages
// share; a name one package uses belongs in that package or is imported from its own module there.
// Counts the non-test sources of packages/*/src (tests, benches and testing/ helpers excluded).
//   node scripts/internal-importers.mjs [specifier]   one line per exported name: count and packages
//   --below <n>                                        only the names imported by fewer than n packages
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { buildReports } from "./api-report.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TEST_FILE = /\.(test|bench)\.ts$|(^|\/)testing\/|test-utils\.ts$/;

/** For each package folder, the names it imports from `specifier`. */
export function importersOf(specifier, root = ROOT) {
  const byName = new Map();
  const packagesDir = path.join(root, "packages");
  for (const pkg of readdirSync(packagesDir)) {
    const src = path.join(packagesDir, pkg, "src");
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, "utf8");
      if (!text.includes(specifier)) continue;
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
      for (const statement of source.statements) {
        const from = statement.moduleSpecifier;
        if (!from || !ts.isStringLiteral(from) || from.text !== specifier) continue;
        for (const name of importedNames(statement)) {
          if (!byName.has(name)) byName.set(name, new Set());
          byName.get(name).add(pkg);
        }
      }
    }
  }
  return byName;
}

function importedNames(statement) {
  if (ts.isImportDeclaration(statement)) {
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) return bindings.elements.map((e) => (e.propertyName ?? e.name).text);
    return bindings ? ["*"] : [];
  }
  if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause))
    return statement.exportClause.elements.map((e) => (e.propertyName ?? e.name).text);
  return ["*"];
}

function* sourceFiles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* sourceFiles(file);
    else if (name.endsWith(".ts") && !TEST_FILE.test(file.split(path.sep).join("/"))) yield file;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const belowAt = args.indexOf("--below");
  const below = belowAt === -1 ? Number.POSITIVE_INFINITY : Number(args[belowAt + 1]);
  const specifier = args.find((a, i) => !a.startsWith("--") && i !== belowAt + 1) ?? "@skillctx/core/internal";
  const report = [...buildReports(ROOT).values()].find((r) => r.specifier === specifier);
  if (report === undefined) throw new Error(`no entry point ${specifier}`);
  const importers = importersOf(specifier);
  for (const name of report.exports.keys()) {
    const pkgs = [...(importers.get(name) ?? [])].sort();
    if (pkgs.length < below) console.log(`${pkgs.length}\t${name}\t${pkgs.join(", ")}`);
  }
}
