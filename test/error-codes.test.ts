/**
 * The codes a host can switch on stay listed in one place and true: docs/errors.md lists exactly
 * `SKILLCTX_ERROR_CODES` and `DIAGNOSTIC_CODES`; every code the sources create (a `code: "X"` property, a
 * `new SkillctxError("X", …)`, a call of a function whose parameter is named `code`, through `?:` and `??`)
 * is in one of the lists; and every code listed still occurs in the sources.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES, SKILLCTX_ERROR_CODES } from "../packages/core/src/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TEST_FILE = /\.(test|bench)\.ts$|\/testing\/|test-utils\.ts$/;
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{4,}$/;
// Node's own error codes, given to helpers that read them (`readFailure(file, { code: "ENOENT" })`).
const NODE_CODES = new Set(["ENOENT"]);

const sources = [...sourceFiles(path.join(ROOT, "packages"))].map((file) =>
  ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true),
);

describe("error and diagnostic codes", () => {
  it("docs/errors.md lists exactly the error codes and the diagnostic codes, each once, each with a meaning", () => {
    const doc = readFileSync(path.join(ROOT, "docs/errors.md"), "utf8");
    const section = (title: string) => {
      const start = doc.indexOf(`## ${title}\n`);
      expect(start, title).toBeGreaterThan(-1);
      const end = doc.indexOf("\n## ", start + 1);
      const rows = doc
        .slice(start, end === -1 ? undefined : end)
        .split("\n")
        .filter((line) => line.startsWith("| `"));
      for (const row of rows) {
        const meaning = row.split(/(?<!\\)\|/).at(-2) ?? "";
        expect(meaning.trim().length, row).toBeGreaterThan(10);
      }
      return rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1]);
    };
    expect(section("Error codes")).toEqual([...SKILLCTX_ERROR_CODES].sort());
    expect(section("Diagnostic codes")).toEqual([...DIAGNOSTIC_CODES].sort());
    expect(new Set(DIAGNOSTIC_CODES).size).toBe(DIAGNOSTIC_CODES.length);
    expect(DIAGNOSTIC_CODES.filter((c) => (SKILLCTX_ERROR_CODES as readonly string[]).includes(c))).toEqual([]);
  });

  it("every code the sources create is listed", () => {
    const listed = new Set<string>([...SKILLCTX_ERROR_CODES, ...DIAGNOSTIC_CODES]);
    const created = createdCodes();
    // The scan finds the codes it should (a guard against a scan that silently finds nothing).
    expect(created.get("NAME_DIR_MISMATCH")).toBeDefined();
    expect(created.get("CONTEXT_CLOSED")).toBeDefined();
    const missing = [...created].filter(([code]) => !listed.has(code)).map(([code, where]) => `${code} (${where})`);
    expect(missing).toEqual([]);
  });

  it("every code listed occurs in the sources, outside the lists themselves", () => {
    const lists = new Set(
      ["packages/core/src/errors.ts", "packages/core/src/diagnostic-codes.ts"].map((f) => path.join(ROOT, f)),
    );
    const literals = new Set<string>();
    for (const file of sources) {
      if (lists.has(file.fileName)) continue;
      const visit = (node: ts.Node) => {
        if (ts.isStringLiteral(node) && CODE.test(node.text)) literals.add(node.text);
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    expect([...SKILLCTX_ERROR_CODES, ...DIAGNOSTIC_CODES].filter((code) => !literals.has(code))).toEqual([]);
  });
});

/** Each code a source creates, with the first place it does. */
function createdCodes(): Map<string, string> {
  // Functions (and methods, and arrow functions bound to a name) with a parameter named `code`, and its index.
  const takers = new Map<string, number>();
  for (const file of sources) {
    const visit = (node: ts.Node) => {
      if (ts.isFunctionLike(node)) {
        const index = node.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === "code");
        const name = index === -1 ? undefined : functionName(node);
        if (name !== undefined) takers.set(name, index);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  const created = new Map<string, string>();
  for (const file of sources) {
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) && CODE.test(node.text) && !NODE_CODES.has(node.text) && isCode(node, takers)) {
        const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        if (!created.has(node.text)) created.set(node.text, `${path.relative(ROOT, file.fileName)}:${line}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return created;
}

function isCode(literal: ts.StringLiteral, takers: Map<string, number>): boolean {
  let node: ts.Node = literal;
  // `a ? "X" : "Y"`, `x ?? "X"`, `("X")`: the literal is the value of the expression around it.
  for (;;) {
    const parent = node.parent;
    if (ts.isParenthesizedExpression(parent)) node = parent;
    else if (ts.isConditionalExpression(parent) && parent.condition !== node) node = parent;
    else if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)
      node = parent;
    else break;
  }
  const parent = node.parent;
  if (ts.isPropertyAssignment(parent)) return parent.initializer === node && nameText(parent.name) === "code";
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    const callee = parent.expression;
    const name = ts.isPropertyAccessExpression(callee) ? nameText(callee.name) : nameText(callee);
    const index = parent.arguments?.indexOf(node as ts.Expression) ?? -1;
    return name !== undefined && index !== -1 && takers.get(name) === index;
  }
  return false;
}

function functionName(node: ts.SignatureDeclaration): string | undefined {
  if (ts.isConstructorDeclaration(node)) return nameText(node.parent.name);
  const own = node.name === undefined ? undefined : nameText(node.name);
  if (own !== undefined) return own;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return nameText(parent.name);
  return undefined;
}

function nameText(name: ts.Node | undefined): string | undefined {
  return name !== undefined && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) ? name.text : undefined;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(file).isDirectory()) yield* sourceFiles(file);
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && file.includes(`${path.sep}src${path.sep}`)) {
      if (!TEST_FILE.test(file.split(path.sep).join("/"))) yield file;
    }
  }
}
