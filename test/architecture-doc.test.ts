// docs/architecture.md checks itself: every file it names exists, and every cap in its table equals the
// exported constant it names.
//
// Which text names a file. A backticked span outside fenced code blocks, made only of letters, digits and
// `@ . - _ /`, that is one of:
//   - a file with a source extension: `.ts`, `.mts`, `.mjs`, `.js`, `.sh` (`engine/state-store.ts`, `types.ts`);
//   - a markdown file with a folder: `docs/decisions.md` (a bare `SKILL.md` is a file of a skill, not of this repo);
//   - a folder, written with a trailing `/` (`core/src/glob/`, `engine/`).
// Build output (`dist/...`, `.d.ts`) is not checked: it exists only after `pnpm build`.
//
// Where a named path is looked for, first match wins:
//   - a bare file name (no `/`) after a file path with a folder in the same table cell, paragraph or list item
//     is in that file's folder: in "`core/src/fs/walk.ts`, `paths.ts`" the second is core/src/fs/paths.ts;
//   - otherwise the path is relative to the repository root, to `packages/`, to `packages/<pkg>/` or to
//     `packages/<pkg>/src/` for any package (`engine/state-store.ts` is packages/skillctx/src/engine/state-store.ts).
//
// The caps table (section "Caps and their defaults") has a `constant` column. Its cell names, in backticks,
// one exported constant per value of the `default` cell (`NAME`, or `NAME.field` for a field of an exported
// object), in the same order and with the same separators (" / " or " and "); `—` marks a value that has no
// constant. A constant is found by name: the one module under packages/*/src (tests aside) that exports it.
// Values: "4 MiB", "256 KiB", "20,000 B", "1,024 code points", "10 s", "500 ms", "10 min", "1 day"; sizes
// compare in bytes, times in milliseconds (so `_MS` constants), plain counts as they are. Text in parentheses
// and words around the one number of a value are ignored.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const DOC = "docs/architecture.md";
const text = readFileSync(path.join(ROOT, DOC), "utf8");
const PACKAGES = readdirSync(path.join(ROOT, "packages"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe(`${DOC} names only files that exist`, () => {
  const named = namedPaths(text);

  it("names files (the reader below found some)", () => {
    expect(named.length).toBeGreaterThan(20);
  });

  it("every file and folder it names exists", () => {
    const missing = named
      .filter((ref) => resolveNamed(ref) === undefined)
      .map((ref) => `${DOC} names \`${ref.token}\` (line ${ref.line}), which does not exist${lookedIn(ref)}`);
    expect(missing, missing.join("\n")).toEqual([]);
  });
});

describe(`${DOC}: every cap in the table equals its exported constant`, () => {
  const rows = capRows(text);
  const exporters = exportIndex();

  it("has the caps table with a constant column", () => {
    expect(rows.length).toBeGreaterThan(20);
  });

  it("each named constant is exported and equals the default the table gives", async () => {
    const problems: string[] = [];
    for (const row of rows) {
      for (const { value, constant } of row.pairs) {
        if (constant === undefined) continue;
        const [name, ...fields] = constant.split(".");
        const files = exporters.get(name!) ?? [];
        if (files.length !== 1) {
          problems.push(
            files.length === 0
              ? `${DOC} line ${row.line} ("${row.what}") names \`${constant}\`, which no module under packages/*/src exports`
              : `${DOC} line ${row.line} ("${row.what}") names \`${constant}\`, exported by several modules: ${files.join(", ")}`,
          );
          continue;
        }
        const module = (await import(pathToFileURL(path.join(ROOT, files[0]!)).href)) as Record<string, unknown>;
        let actual: unknown = module[name!];
        for (const field of fields) actual = (actual as Record<string, unknown> | undefined)?.[field];
        const expected = parseQuantity(value);
        if (expected === undefined)
          problems.push(`${DOC} line ${row.line} ("${row.what}"): cannot read a number from "${value}"`);
        else if (actual !== expected)
          problems.push(
            `${DOC} line ${row.line} ("${row.what}") gives ${value.trim()} (${expected}) for \`${constant}\`, ` +
              `which is ${String(actual)} in ${files[0]}`,
          );
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("every default value names its constant", () => {
    const unnamed = rows.flatMap((row) =>
      row.pairs
        .filter((pair) => pair.constant === undefined && parseQuantity(pair.value) !== undefined)
        .map((pair) => `${DOC} line ${row.line} ("${row.what}"): the default ${pair.value.trim()} names no constant`),
    );
    expect(unnamed, unnamed.join("\n")).toEqual([]);
  });
});

describe("the reader of the doc", () => {
  it("reads sizes, times and counts", () => {
    expect(parseQuantity("4 MiB")).toBe(4 * 1024 * 1024);
    expect(parseQuantity("256 KiB")).toBe(262_144);
    expect(parseQuantity("1,024 code points")).toBe(1024);
    expect(parseQuantity("20,000 B")).toBe(20_000);
    expect(parseQuantity("10 s")).toBe(10_000);
    expect(parseQuantity("500 ms")).toBe(500);
    expect(parseQuantity("10 min")).toBe(600_000);
    expect(parseQuantity("1 MiB of JSON")).toBe(1024 * 1024);
    expect(parseQuantity("50 KiB each")).toBe(51_200);
    expect(parseQuantity("the server's (at most 1 day), else 300 s")).toBe(300_000);
    expect(parseQuantity("none")).toBeUndefined();
    expect(parseQuantity("1 or 2")).toBeUndefined();
  });

  it("finds paths in backticks, anchors bare names to the cell's folder, skips build output and fenced code", () => {
    const doc = [
      "```",
      "`fenced/ignored.ts`",
      "```",
      "| a | `core/src/fs/walk.ts`, `paths.ts` | `dist/cli.js`, `SKILL.md`, `docs/decisions.md` |",
      "",
      "The `engine/` folder and `types.ts`; `.d.ts` and `./` are not paths.",
    ].join("\n");
    expect(namedPaths(doc).map((ref) => [ref.token, ref.anchor, ref.line])).toEqual([
      ["core/src/fs/walk.ts", undefined, 4],
      ["paths.ts", "core/src/fs", 4],
      ["docs/decisions.md", undefined, 4],
      ["engine/", undefined, 6],
      ["types.ts", undefined, 6],
    ]);
    expect(resolveNamed({ token: "paths.ts", anchor: "core/src/fs", line: 1 })).toBe("packages/core/src/fs/paths.ts");
    expect(resolveNamed({ token: "engine/nope.ts", line: 1 })).toBeUndefined();
  });
});

interface NamedPath {
  token: string;
  /** The folder of the file path named before it in the same cell or paragraph, for a bare file name. */
  anchor?: string;
  line: number;
}

/** The file and folder paths the doc names, in order (see the rules at the top). */
function namedPaths(doc: string): NamedPath[] {
  const found: NamedPath[] = [];
  let fenced = false;
  let anchor: string | undefined;
  doc.split("\n").forEach((line, index) => {
    if (line.trimStart().startsWith("```")) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    if (line.trim() === "" || /^\s*([-*]|\d+\.)\s/.test(line)) anchor = undefined; // a new paragraph or item
    for (const cell of line.startsWith("|") ? line.split("|") : [line]) {
      if (line.startsWith("|")) anchor = undefined; // each table cell on its own
      for (const [, token] of cell.matchAll(/`([^`]+)`/g)) {
        if (!isPathToken(token!)) continue;
        const bare = !token!.includes("/");
        found.push(
          bare && anchor !== undefined
            ? { token: token!, anchor, line: index + 1 }
            : { token: token!, line: index + 1 },
        );
        if (!bare && !token!.endsWith("/")) anchor = path.posix.dirname(token!);
      }
    }
  });
  return found;
}

function isPathToken(token: string): boolean {
  if (!/^[\w@.\-/]+$/.test(token) || token.startsWith("dist/") || token.includes("/dist/")) return false;
  if (token.endsWith(".d.ts")) return false;
  if (/[\w-]\.(ts|mts|mjs|js|sh)$/.test(token)) return true;
  if (/[\w-]\.md$/.test(token)) return token.includes("/");
  return token.endsWith("/") && /[\w-]/.test(token);
}

/** The repository path a named path resolves to, or undefined. */
function resolveNamed(ref: NamedPath): string | undefined {
  return candidates(ref).find((candidate) => existsSync(path.join(ROOT, candidate)));
}

function candidates(ref: NamedPath): string[] {
  if (ref.anchor !== undefined) return candidates({ token: path.posix.join(ref.anchor, ref.token), line: ref.line });
  const token = ref.token.replace(/\/$/, "");
  return [
    token,
    `packages/${token}`,
    ...PACKAGES.map((pkg) => `packages/${pkg}/${token}`),
    ...PACKAGES.map((pkg) => `packages/${pkg}/src/${token}`),
  ];
}

function lookedIn(ref: NamedPath): string {
  return ref.anchor === undefined
    ? " (looked at the root, packages/, packages/<pkg>/ and packages/<pkg>/src/)"
    : ` (a bare name after a path in ${ref.anchor}/: looked in that folder, from the root, packages/ and packages/<pkg>/(src/))`;
}

interface CapRow {
  what: string;
  line: number;
  pairs: { value: string; constant?: string }[];
}

/** The rows of the caps table, each default value paired with the constant named for it. */
function capRows(doc: string): CapRow[] {
  const lines = doc.split("\n");
  const start = lines.findIndex((line) => /^##\s+Caps and their defaults/.test(line));
  if (start < 0) throw new Error(`${DOC} has no "## Caps and their defaults" section`);
  const header = lines.slice(start).findIndex((line) => line.startsWith("|"));
  const headerIndex = start + header;
  const columns = cells(lines[headerIndex]!);
  const defaultColumn = columns.indexOf("default");
  const constantColumn = columns.indexOf("constant");
  if (defaultColumn < 0 || constantColumn < 0)
    throw new Error(`${DOC}: the caps table needs a "default" and a "constant" column (it has ${columns.join(", ")})`);
  const rows: CapRow[] = [];
  for (let index = headerIndex + 2; index < lines.length && lines[index]!.startsWith("|"); index++) {
    const row = cells(lines[index]!);
    const values = splitItems(row[defaultColumn] ?? "");
    const constants = splitItems(row[constantColumn] ?? "");
    const what = row[0] ?? "";
    if (values.length !== constants.length)
      throw new Error(
        `${DOC} line ${index + 1} ("${what}"): ${values.length} default values but ${constants.length} constants; ` +
          `name one constant (or —) per value, with the same separators`,
      );
    rows.push({
      what,
      line: index + 1,
      pairs: values.map((value, i) => {
        const name = /`([^`]+)`/.exec(constants[i]!)?.[1];
        return name === undefined ? { value } : { value, constant: name };
      }),
    });
  }
  return rows;
}

function cells(line: string): string[] {
  return line
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
}

/** A cell's items: parenthesised text dropped, split at " / " and " and ". */
function splitItems(cell: string): string[] {
  return dropParentheses(cell)
    .split(/\s+(?:\/|and)\s+/)
    .map((item) => item.trim());
}

function dropParentheses(text: string): string {
  let previous: string;
  do {
    previous = text;
    text = text.replace(/\([^()]*\)/g, "");
  } while (text !== previous);
  return text;
}

const UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  ms: 1,
  s: 1000,
  min: 60_000,
  day: 86_400_000,
};

/** The one number of a value in the unit its constant uses (bytes, milliseconds, a count), or undefined. */
function parseQuantity(value: string): number | undefined {
  const matches = [...dropParentheses(value).matchAll(/(\d[\d,]*(?:\.\d+)?)(?:\s*(KiB|MiB|GiB|B|ms|s|min|day)\b)?/g)];
  if (matches.length !== 1) return undefined;
  const [, digits, unit = ""] = matches[0]!;
  return Number(digits!.replaceAll(",", "")) * UNITS[unit]!;
}

/** Exported names → the non-test source files under packages/*\/src that export them (`export const NAME`). */
function exportIndex(): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const pkg of PACKAGES) {
    const src = path.join(ROOT, "packages", pkg, "src");
    if (!existsSync(src)) continue;
    for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".ts") || /\.(test|bench)\.ts$/.test(entry.name)) continue;
      const file = path.relative(ROOT, path.join(entry.parentPath, entry.name));
      if (file.includes(`${path.sep}testing${path.sep}`)) continue;
      for (const [, name] of readFileSync(path.join(ROOT, file), "utf8").matchAll(/^export const (\w+)\b/gm)) {
        index.set(name!, [...(index.get(name!) ?? []), file.split(path.sep).join("/")]);
      }
    }
  }
  return index;
}
