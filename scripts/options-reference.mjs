#!/usr/bin/env node
// The skillctx package README's table of `AgentContext.create` options (the page npm shows; the root README
// links the API reference instead, where the same JSDoc is rendered), generated from the types and JSDoc of
// `AgentContextOptions` (packages/engine/src/engine/options.ts and the group and settings types it names):
// each option, each option of its group and each field of a settings object, with its type, its `@default`
// and the first sentence of its comment. test/packaging-readme.test.ts fails when a README's table is not this one.
//   node scripts/options-reference.mjs           print the table
//   node scripts/options-reference.mjs --write   put it between the markers of packages/skillctx/README.md
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const OPTIONS_FILE = fileURLToPath(new URL("../packages/engine/src/engine/options.ts", import.meta.url));
const TSCONFIG = fileURLToPath(new URL("../tsconfig.test.json", import.meta.url));
/** The READMEs that carry the table: the one npm shows for skillctx. */
export const README_FILES = ["../packages/skillctx/README.md"].map((f) => fileURLToPath(new URL(f, import.meta.url)));
export const START = "<!-- options:start -->";
export const END = "<!-- options:end -->";

// Options whose object type is data, not settings: named, not listed field by field (by path).
const NOT_EXPANDED = new Set([
  "skills",
  "signal",
  "sources.cache",
  "tools.host",
  "conversation.state",
  "conversation.templates",
]);
// Rows go this deep: a group (`tools`), its options (`tools.skillTools`) and their fields (`tools.skillTools.maxListedFiles`).
const MAX_DEPTH = 3;

/** One row per option, per field of a group and per field of a settings object, in declaration order. */
export function readOptions() {
  const config = ts.getParsedCommandLineOfConfigFile(
    TSCONFIG,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  const program = ts.createProgram([OPTIONS_FILE], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(OPTIONS_FILE);
  const decl = file?.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === "AgentContextOptions");
  if (decl === undefined) throw new Error("no AgentContextOptions interface in options.ts");
  const rows = [];
  const add = (symbols, prefix, depth) => {
    for (const symbol of symbols) {
      const name = prefix === "" ? symbol.name : `${prefix}.${symbol.name}`;
      const row = describe(checker, symbol, name);
      rows.push(row);
      const settings =
        NOT_EXPANDED.has(name) || depth >= MAX_DEPTH
          ? undefined
          : settingsObject(checker, checker.getTypeOfSymbol(symbol));
      if (settings === undefined) continue;
      if (row.summary === "") row.summary = "Settings, field by field below.";
      add(settings.getProperties(), name, depth + 1);
    }
  };
  add(checker.getTypeAtLocation(decl).getProperties(), "", 1);
  return rows;
}

function describe(checker, symbol, name) {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
  const tags = symbol.getJsDocTags(checker);
  const tag = (n) => tags.find((t) => t.name === n);
  const text = (parts) =>
    ts
      .displayPartsToString(parts ?? [])
      .replace(/\s+/g, " ")
      .trim();
  let type = declaration?.type?.getText().replace(/\s+/g, " ") ?? checker.typeToString(checker.getTypeOfSymbol(symbol));
  if (declaration?.type !== undefined && ts.isFunctionTypeNode(declaration.type)) type = "function";
  return {
    name,
    required:
      declaration !== undefined && ts.isPropertySignature(declaration) && declaration.questionToken === undefined,
    type,
    default: text(tag("default")?.text),
    summary: firstSentence(text(symbol.getDocumentationComment(checker))),
    deprecated: tag("deprecated") !== undefined,
  };
}

/** The object type to list field by field (of `T`, `T | undefined` or `boolean | T`), if it is a settings object. */
function settingsObject(checker, type) {
  const parts = type.isUnion() ? type.types : [type];
  const objects = parts.filter(
    (t) => (t.flags & ts.TypeFlags.Object) !== 0 && t.getCallSignatures().length === 0 && !checker.isArrayType(t),
  );
  if (objects.length !== 1) return undefined;
  const [object] = objects;
  return object.getProperties().length > 0 ? object : undefined;
}

/** The markdown table, between its markers. */
export function optionsTable(rows = readOptions()) {
  const cell = (s) => s.replace(/\|/g, "\\|");
  const lines = rows.map((o) => {
    const type = o.type.length > 40 ? "object" : `\`${cell(o.type)}\``;
    const def = o.required ? "required" : o.default === "" ? "" : cell(o.default);
    const summary = `${cell(o.summary)}${o.deprecated ? " Deprecated." : ""}`;
    return `| \`${o.name}\` | ${type} | ${def} | ${summary} |`;
  });
  return [START, "| option | type | default | what it does |", "|---|---|---|---|", ...lines, END].join("\n");
}

/** README text with its options table replaced by `table`; throws when the markers are missing. */
export function withOptionsTable(readme, table = optionsTable()) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no options markers (${START} … ${END})`);
  return readme.slice(0, start) + table + readme.slice(end + END.length);
}

function firstSentence(text) {
  const match = /^(.*?[.!?])(\s|$)/.exec(text);
  return (match?.[1] ?? text).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--write") {
    const table = optionsTable();
    for (const file of README_FILES) writeFileSync(file, withOptionsTable(readFileSync(file, "utf8"), table));
  } else {
    console.log(optionsTable());
  }
}
