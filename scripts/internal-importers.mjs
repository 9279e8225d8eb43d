#!/usr/bin/env node
// Which packages import each name of an internal entry point (`@skillctx/core/internal`,
// `@skillctx/mcp-bridge/internal`, ...): an internal entry keeps only what at least two other packages
// share; a name one package uses belongs in that package or is imported from its own module there.
// Counts the non-test sources of packages/*/src (tests, benches and testing/ helpers excluded).
//   node scripts/internal-importers.mjs [specifier]   one line per exported name: count and packages
//   --below <n>                                        only the names imported by fewer than n packages
//   --check                                            every package's internal entry: exit 1 when a name is
//                                                      imported by fewer than 2 other packages (CI, .ci/run)
// --check reads the names a package's src/internal.ts exports from its text (an internal entry is a list
// of `export { … } from` lines), so it needs no type checker. The names still owed a move are listed, each
// with why, in scripts/internal-importers.owed.tsv: a name there that now passes, or a new name that fails
// and is not there, both fail the check, so the list can only shrink.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
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

/** Each package's internal entry (`<pkg>/internal`, from `src/internal.ts`) and the names it exports. */
export function internalEntries(root = ROOT) {
  const entries = [];
  const packagesDir = path.join(root, "packages");
  for (const dir of readdirSync(packagesDir).sort()) {
    const file = path.join(packagesDir, dir, "src", "internal.ts");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(path.join(packagesDir, dir, "package.json"), "utf8"));
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
    const names = [];
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement)) continue;
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause))
        throw new Error(`${file}: \`export *\` hides the names; list them one by one`);
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    }
    entries.push({ specifier: `${pkg.name}/internal`, pkg: dir, names });
  }
  return entries;
}

/**
 * The names of the internal entries imported by fewer than two other packages, against the owed list.
 * @returns {{ ok: boolean, problems: string[] }}
 */
export function checkInternalEntries(root = ROOT, owedFile = path.join(root, "scripts/internal-importers.owed.tsv")) {
  const owed = new Set(
    existsSync(owedFile)
      ? readFileSync(owedFile, "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "" && !l.startsWith("#"))
          .map((l) => l.split("\t").slice(0, 2).join("\t"))
      : [],
  );
  const problems = [];
  const seen = new Set();
  for (const entry of internalEntries(root)) {
    const importers = importersOf(entry.specifier, root);
    for (const name of entry.names) {
      const pkgs = [...(importers.get(name) ?? [])].filter((p) => p !== entry.pkg).sort();
      const key = `${entry.specifier}\t${name}`;
      if (pkgs.length >= 2) {
        if (owed.has(key))
          problems.push(`${entry.specifier} ${name}: now imported by ${pkgs.join(", ")}; remove it from the owed list`);
        continue;
      }
      seen.add(key);
      if (!owed.has(key))
        problems.push(
          `${entry.specifier} ${name}: imported by ${pkgs.length === 0 ? "no other package" : `only ${pkgs[0]}`}; ` +
            "move it to the package that uses it (or import it from its own module there)",
        );
    }
  }
  for (const key of [...owed].sort())
    if (!seen.has(key) && !problems.some((p) => p.startsWith(key.replace("\t", " "))))
      problems.push(`${key.replace("\t", " ")}: no longer exported; remove it from the owed list`);
  return { ok: problems.length === 0, problems };
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

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv.includes("--check")
) {
  const { ok, problems } = checkInternalEntries();
  if (!ok) {
    console.error("internal-importers: an internal entry exports a name fewer than two other packages import:");
    for (const problem of problems) console.error(`  ${problem}`);
  }
  process.exitCode = ok ? 0 : 1;
} else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
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
