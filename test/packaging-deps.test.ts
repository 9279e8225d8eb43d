/**
 * Each package declares exactly what its build imports: every bare specifier in `dist/**\/*.js`,
 * `dist/**\/*.d.ts` and its bins (static and dynamic imports, re-exports, `require` and `require.resolve`, `import("x")`
 * types) names a package of `dependencies` or `peerDependencies` (node builtins excepted), and every
 * package declared there is imported somewhere. Reads the build (`pnpm test` builds first); builds nothing.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BUILTINS = new Set(builtinModules);

interface Manifest {
  name: string;
  private?: boolean;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const packages = readdirSync(path.join(ROOT, "packages"), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(path.join(ROOT, "packages", d.name, "package.json")))
  .map((d) => {
    const dir = path.join(ROOT, "packages", d.name);
    return { dir, manifest: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest };
  })
  .filter((p) => p.manifest.private !== true);

describe("bare specifiers found in a file", () => {
  it("reads imports, re-exports, dynamic imports, require, require.resolve and import types, not comments or strings", () => {
    const js = [
      `import a from "a"; import { b } from "@scope/b/sub"; export * from "c"; export { d } from "./d.js";`,
      `import "e"; const f = await import("f/x.js"); const require = createRequire(import.meta.url);`,
      `require("g"); require.resolve("h/cli"); import(name); // import x from "not-me"`,
      `const require2 = createRequire(import.meta.url); require2("l"); require2.resolve("m/cli"); other("not-me-either");`,
      `/** @example import { y } from "nor-me" */ const s = 'from "string-not-me"';`,
      // Two modules of one chunk that both import createRequire: the bundler renames the second import.
      `import { createRequire as createRequire2 } from "node:module"; const require3 = createRequire2(import.meta.url); require3("n");`,
      `createRequire(import.meta.url)("o"); createRequire2(import.meta.url).resolve("p");`,
    ].join("\n");
    expect(specifiersOf("x.js", js)).toEqual([
      "a",
      "@scope/b/sub",
      "c",
      "./d.js",
      "e",
      "f/x.js",
      "g",
      "h/cli",
      "l",
      "m/cli",
      "node:module",
      "n",
      "o",
      "p",
    ]);
    const dts = `/// <reference types="node" />\nexport declare const x: import("i").T;\nimport type { J } from "j";\nimport k = require("k");`;
    expect(specifiersOf("x.d.ts", dts)).toEqual(["@types/node", "i", "j", "k"]);
  });

  it("maps a specifier to the package it needs, builtins to none", () => {
    expect(packageOf("@scope/b/sub")).toBe("@scope/b");
    expect(packageOf("f/x.js")).toBe("f");
    expect(packageOf("./d.js")).toBeUndefined();
    expect(packageOf("node:fs")).toBeUndefined();
    expect(packageOf("fs/promises")).toBeUndefined();
    expect(packageOf("@types/node")).toBeUndefined();
  });
});

/** Peers a package declares for its users' code rather than its own imports. */
const USER_PEERS: Record<string, string[]> = { skillctx: ["zod"] };

describe.each(packages.map((p) => [p.manifest.name, p] as const))(
  "%s: dependencies are exactly what dist imports",
  (_name, pkg) => {
    // The bins ship too (skillctx's bin imports @skillctx/cli).
    const bins = Object.values(pkg.manifest.bin ?? {}).map((file) => path.join(pkg.dir, file));
    const files = [...distFiles(path.join(pkg.dir, "dist")), ...bins];
    const declared = new Set([
      ...Object.keys(pkg.manifest.dependencies ?? {}),
      ...Object.keys(pkg.manifest.peerDependencies ?? {}),
    ]);
    const used = new Map<string, string>(); // package → first file that imports it
    for (const file of files) {
      for (const specifier of specifiersOf(file, readFileSync(file, "utf8"))) {
        const name = packageOf(specifier);
        if (name !== undefined && !used.has(name)) used.set(name, path.relative(pkg.dir, file));
      }
    }

    it("has a build to read (run `pnpm build`)", () => {
      expect(files.filter((f) => f.endsWith(".js") && !bins.includes(f)).length).toBeGreaterThan(0);
    });

    it("imports only declared packages", () => {
      const undeclared = [...used]
        .filter(([name]) => name !== pkg.manifest.name && !declared.has(name))
        .map(([name, file]) => `${name} (${file})`);
      expect(undeclared).toEqual([]);
    });

    it("declares no package it does not import", () => {
      // A peer for the user's own code: skillctx's zod is the zod the user's defineSkill schemas come from
      // (docs/decisions.md, issue 27), imported by @skillctx/engine, not by skillctx's own files.
      const forTheUser = USER_PEERS[pkg.manifest.name] ?? [];
      expect([...declared].filter((name) => !used.has(name) && !forTheUser.includes(name))).toEqual([]);
    });
  },
);

/** The built files whose imports reach users: JavaScript and declarations. */
function distFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f))
    .sort();
}

/** Every module specifier in a built file, in source order, read from its syntax tree (comments and strings do not count). */
function specifiersOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".d.ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS,
  );
  const found: string[] = source.typeReferenceDirectives.map((r) => `@types/${r.fileName}`);
  const literal = (node: ts.Node | undefined) =>
    node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
  const requires = requireNames(source);
  const visit = (node: ts.Node): void => {
    let specifier: string | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) specifier = literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      specifier = literal(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      specifier = literal(node.argument.literal);
    else if (ts.isCallExpression(node) && isModuleCall(node.expression, requires))
      specifier = literal(node.arguments[0]);
    if (specifier !== undefined) found.push(specifier);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * What a file calls as `require`: `require` itself, every variable initialised with `createRequire(...)`
 * (the bundler renames a local `require` to `require2` and the like), and `createRequire(...)` called in
 * place. `createRequire` counts under each name the file imports it as (the bundler renames an import
 * that two modules of one chunk share: `createRequire as createRequire2`).
 */
interface RequireNames {
  requires: Set<string>;
  creators: Set<string>;
}

function requireNames(source: ts.SourceFile): RequireNames {
  const creators = new Set(["createRequire"]);
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!["node:module", "module"].includes(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements)
      if ((element.propertyName ?? element.name).text === "createRequire") creators.add(element.name.text);
  }
  const requires = new Set(["require"]);
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer !== undefined &&
      ts.isCallExpression(node.initializer)
    ) {
      const callee = node.initializer.expression;
      if (ts.isIdentifier(callee) && creators.has(callee.text)) requires.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { requires, creators };
}

/** `import(x)`, and `r(x)` and `r.resolve(x)` for each `require` that {@link requireNames} found. */
function isModuleCall(callee: ts.Expression, names: RequireNames): boolean {
  if (callee.kind === ts.SyntaxKind.ImportKeyword) return true;
  if (isRequire(callee, names)) return true;
  return ts.isPropertyAccessExpression(callee) && isRequire(callee.expression, names) && callee.name.text === "resolve";
}

function isRequire(node: ts.Expression, names: RequireNames): boolean {
  if (ts.isIdentifier(node)) return names.requires.has(node.text);
  return ts.isCallExpression(node) && ts.isIdentifier(node.expression) && names.creators.has(node.expression.text);
}

/** The package a specifier loads, or undefined for relative paths, node builtins and Node's own types. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  if (BUILTINS.has(name) || name === "@types/node") return undefined;
  return name;
}
