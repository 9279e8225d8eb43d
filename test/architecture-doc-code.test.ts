// docs/architecture.md, "The data path of a step", checked against the engine's code:
//   - the façade's fields: the sentence "`AgentContext` … is a façade: its public methods and <n> private fields,
//     `a` (…) and `b` (…)" names exactly the instance fields of the class AgentContext, and <n> counts them;
//   - the stage lists of the fenced block: a line `<fn> (engine/<file>.ts)` at the left margin heads the stages of
//     that function, one per following line indented by two spaces (`name   what it does`). Every stage the doc
//     lists is called in that function, in the doc's order (`hotReload.note` is a call of `deps.hotReload.note`),
//     and every stage the function has, a call of a function given `deps` first, is listed;
//   - the import cycles of types only: the paragraph on the lint rules names each cycle of the packages' sources
//     (`a.ts` ↔ `b.ts`), and no other. Biome's noImportCycles fails on any other cycle.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DOC = "docs/architecture.md";
const text = readFileSync(path.join(ROOT, DOC), "utf8");
const ENGINE = path.join(ROOT, "packages/engine/src");

describe(`${DOC}: the façade's fields are the class's`, () => {
  it("names every instance field of AgentContext, and counts them right", () => {
    const doc = facadeFields(text);
    const code = classFields(path.join(ENGINE, "engine/agent-context.ts"), "AgentContext");
    expect(doc.names.sort()).toEqual(code.sort());
    expect(doc.count).toBe(code.length);
  });
});

describe(`${DOC}: the stage lists are the pipelines' stages, in order`, () => {
  const lists = stageLists(text);

  it("lists the stages of the step and reload pipelines", () => {
    expect(lists.map((l) => l.fn).sort()).toEqual(["reloadSkills", "runStep"]);
  });

  for (const list of lists) {
    it(`${list.fn}: every listed stage is called, in this order, and every stage is listed`, () => {
      const calls = callsIn(path.join(ENGINE, list.file), list.fn);
      const problems = compareStages(list.stages, calls);
      expect(problems, problems.join("\n")).toEqual([]);
    });
  }
});

describe(`${DOC}: the cycles of types only are the sources' cycles`, () => {
  it("names each import cycle between files of a package's sources, and no other", () => {
    const doc = namedCycles(text);
    const code = importCycles(path.join(ROOT, "packages"));
    expect(doc.length).toBeGreaterThan(0);
    expect(doc.sort()).toEqual(code.sort());
  });

  it("finds a cycle of two files, and none where imports go one way", () => {
    const files = new Map([
      ["/p/a.ts", ['import type { B } from "./b.js";']],
      ["/p/b.ts", ['import type { A } from "./a.js";', 'import { c } from "./c.js";']],
      ["/p/c.ts", ["export const c = 1;"]],
    ]);
    expect(cyclesOf(files, "/p")).toEqual(["a.ts ↔ b.ts"]);
    files.set("/p/a.ts", ["export type B = 1;"]);
    expect(cyclesOf(files, "/p")).toEqual([]);
  });
});

describe("the reader of the stage lists", () => {
  const source = [
    "async function run(deps, x) {",
    "  const a = first(deps, x);",
    "  if (a) await second(deps);",
    "  const b = [...deps.hotReload.note(a)];",
    "  helper(x);",
    "  return third(deps, b);",
    "}",
  ].join("\n");
  const calls = callsInSource(source, "run");

  it("reads every call in order and marks the stages (a function given deps first)", () => {
    expect(calls.map((c) => `${c.path}${c.stage ? "*" : ""}`)).toEqual([
      "first*",
      "second*",
      "deps.hotReload.note",
      "helper",
      "third*",
    ]);
  });

  it("finds a stage left out, a stage named that is not called, and two stages out of order", () => {
    expect(compareStages(["first", "hotReload.note", "second", "third"], calls)).toEqual([
      "second is listed after hotReload.note, but runs before it (or is not called)",
    ]);
    expect(compareStages(["first", "second", "third"], calls)).toEqual([]);
    expect(compareStages(["first", "third"], calls)).toEqual([
      "second is a stage (called with deps) the doc leaves out",
    ]);
    expect(compareStages(["first", "second", "nope", "third"], calls)).toEqual([
      "nope is listed after second, but runs before it (or is not called)",
    ]);
  });

  it("reads the lists of a fenced block and the façade sentence", () => {
    const doc = [
      "is a façade: its public methods and two private fields,",
      "`deps` (the parts, `x.ts`) and `core` (the running parts). `create` calls",
      "```",
      "run (engine/run.ts) → Result",
      "  first                 does a",
      "                        and more",
      "  hotReload.note        notes",
      "  ◄── { out }",
      "other(x)                not a list",
      "```",
    ].join("\n");
    expect(stageLists(doc)).toEqual([{ fn: "run", file: "engine/run.ts", stages: ["first", "hotReload.note"] }]);
    expect(facadeFields(doc)).toEqual({ count: 2, names: ["deps", "core"] });
  });
});

// --- readers ----------------------------------------------------------------------------------------

interface StageList {
  fn: string;
  file: string;
  stages: string[];
}

interface Call {
  /** The callee as written, `deps.` included (`scanMessages`, `deps.hotReload.note`). */
  path: string;
  /** A stage: a plain function called with `deps` as its first argument. */
  stage: boolean;
}

const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

function facadeFields(doc: string): { count: number; names: string[] } {
  const match = /is a façade: its public methods and (\w+) (?:private )?fields?,([\s\S]*?)\. `create`/.exec(doc);
  if (match === null) throw new Error(`${DOC}: no sentence "is a façade: its public methods and <n> fields, …"`);
  const outside = match[2]!.replace(/\([^()]*\)/g, "");
  return {
    count: NUMBERS[match[1]!] ?? Number(match[1]),
    names: [...outside.matchAll(/`([A-Za-z_#$][\w$]*)`/g)].map((m) => m[1]!),
  };
}

function stageLists(doc: string): StageList[] {
  const lists: StageList[] = [];
  let current: StageList | undefined;
  for (const line of doc.split("\n")) {
    const head = /^([A-Za-z]\w*) \((engine\/[\w/.-]+\.ts)\)/.exec(line);
    if (head !== null) {
      current = { fn: head[1]!, file: head[2]!, stages: [] };
      lists.push(current);
      continue;
    }
    if (current === undefined) continue;
    const stage = /^ {2}([A-Za-z][\w.]*)\s{2,}/.exec(line);
    if (stage !== null) current.stages.push(stage[1]!);
    else if (!line.startsWith("   ")) current = undefined;
  }
  return lists;
}

function classFields(file: string, className: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  source.forEachChild((node) => {
    if (!ts.isClassDeclaration(node) || node.name?.text !== className) return;
    for (const member of node.members) {
      const isStatic =
        (ts.canHaveModifiers(member) ? ts.getModifiers(member) : undefined)?.some(
          (m) => m.kind === ts.SyntaxKind.StaticKeyword,
        ) ?? false;
      if (ts.isPropertyDeclaration(member) && !isStatic) names.push(member.name.getText(source));
    }
  });
  if (names.length === 0) throw new Error(`${file}: no fields found in class ${className}`);
  return names;
}

function callsIn(file: string, fn: string): Call[] {
  return callsInSource(readFileSync(file, "utf8"), fn);
}

function callsInSource(text: string, fn: string): Call[] {
  const source = ts.createSourceFile("x.ts", text, ts.ScriptTarget.Latest, true);
  let body: ts.Node | undefined;
  source.forEachChild((node) => {
    if (ts.isFunctionDeclaration(node) && node.name?.text === fn) body = node.body;
  });
  if (body === undefined) throw new Error(`no function ${fn}`);
  const calls: Call[] = [];
  const visit = (node: ts.Node): void => {
    // Arguments first: in `a(b(deps))`, b runs before a.
    node.forEachChild(visit);
    if (!ts.isCallExpression(node)) return;
    const callee = node.expression.getText(source);
    const first = node.arguments[0]?.getText(source);
    calls.push({ path: callee, stage: ts.isIdentifier(node.expression) && first === "deps" });
  };
  visit(body);
  return calls;
}

function compareStages(listed: readonly string[], calls: readonly Call[]): string[] {
  const problems: string[] = [];
  let at = 0;
  listed.forEach((stage, i) => {
    const found = calls.findIndex((c, j) => j >= at && (c.path === stage || c.path.endsWith(`.${stage}`)));
    if (found === -1) {
      problems.push(
        i === 0
          ? `${stage} is listed but not called`
          : `${stage} is listed after ${listed[i - 1]}, but runs before it (or is not called)`,
      );
      return;
    }
    at = found + 1;
  });
  for (const call of calls)
    if (call.stage && !listed.includes(call.path))
      problems.push(`${call.path} is a stage (called with deps) the doc leaves out`);
  return problems;
}

// `a.ts` ↔ `b.ts` pairs in the paragraph on the lint rules, as "<pkg>/src/a.ts ↔ <pkg>/src/b.ts".
function namedCycles(doc: string): string[] {
  const paragraph = doc.split("\n\n").find((p) => p.includes("noImportCycles"));
  if (paragraph === undefined) throw new Error(`${DOC}: no paragraph on noImportCycles`);
  return [...paragraph.matchAll(/`([\w/.-]+\.ts)` ↔\s+`([\w/.-]+\.ts)`/g)].map((m) =>
    [m[1]!, m[2]!].sort().join(" ↔ "),
  );
}

// Every cycle (a strongly connected set of files) of each package's non-test sources, through relative imports
// of values or types, as "<pkg>/src/a.ts ↔ <pkg>/src/b.ts" (a longer cycle lists its files in order).
function importCycles(packagesDir: string): string[] {
  const files = new Map<string, string[]>();
  for (const file of sourceFiles(packagesDir)) files.set(file, readFileSync(file, "utf8").split("\n"));
  return cyclesOf(files, packagesDir);
}

function cyclesOf(files: ReadonlyMap<string, readonly string[]>, base: string): string[] {
  const edges = new Map<string, string[]>();
  for (const [file, lines] of files) {
    const source = ts.createSourceFile(file, lines.join("\n"), ts.ScriptTarget.Latest);
    const targets: string[] = [];
    for (const statement of source.statements) {
      const from = (statement as ts.ImportDeclaration | ts.ExportDeclaration).moduleSpecifier;
      if (from === undefined || !ts.isStringLiteral(from) || !from.text.startsWith(".")) continue;
      targets.push(path.resolve(path.dirname(file), from.text.replace(/\.js$/, ".ts")));
    }
    edges.set(
      file,
      targets.filter((t) => files.has(t)),
    );
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      component.push(path.relative(base, w).split(path.sep).join("/"));
    } while (w !== v);
    if (component.length > 1) cycles.push(component.sort().join(" ↔ "));
  };
  for (const file of files.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(file).isDirectory()) yield* sourceFiles(file);
    else if (/(?<!\.d)\.ts$/.test(name) && !/\.(test|bench)\.ts$/.test(name)) yield file;
  }
}
