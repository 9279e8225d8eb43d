/**
 * The lint rules that encode the architecture (biome.json, lint/no-json-parse.grit) fire where they
 * should and stay quiet for each concept's owner. Each case writes a small tree in a temp folder with
 * the repository's own configuration and runs the real Biome binary over it.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BIOME = path.join(ROOT, "node_modules", ".bin", "biome");
const run = promisify(execFile);

let dir = "";

/** Writes `files` (path → text) under the temp tree. */
function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}

/** Runs `biome lint` over the temp tree; returns one `file rule` line per diagnostic. */
async function lint(): Promise<string[]> {
  const result = await run(BIOME, ["lint", "--max-diagnostics=500", "."], { cwd: dir }).catch(
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? "", stderr: error.stderr ?? "" }),
  );
  const text = `${result.stdout}\n${result.stderr}`;
  return [...text.matchAll(/^(\S+\.ts):\d+:\d+ (lint\/\S+|plugin)/gm)].map((m) => `${m[1]} ${m[2]}`);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "skillctx-lint-"));
  const config = JSON.parse(readFileSync(path.join(ROOT, "biome.json"), "utf8")) as Record<string, unknown>;
  delete config["$schema"];
  config["vcs"] = { enabled: false };
  writeFileSync(path.join(dir, "biome.json"), JSON.stringify(config, null, 2));
  cpSync(path.join(ROOT, "lint"), path.join(dir, "lint"), { recursive: true });
  const body = Array.from({ length: 401 }, (_, i) => `export const line${i} = ${i};`).join("\n");
  write({
    // A file-level cycle.
    "packages/core/src/cycle-a.ts": 'import { b } from "./cycle-b.js";\nexport const a = (): number => b() + 1;\n',
    "packages/core/src/cycle-b.ts": 'import { a } from "./cycle-a.js";\nexport const b = (): number => a() + 1;\n',
    // Processes outside @skillctx/process, and inside it.
    "packages/core/src/spawns.ts": 'import { spawn } from "node:child_process";\nexport const s = spawn;\n',
    "packages/process/src/spawns.ts": 'import { spawn } from "node:child_process";\nexport const s = spawn;\n',
    // yaml and zod outside their loaders.
    "packages/compat/src/reads-yaml.ts": 'import { parse } from "yaml";\nexport const p = parse;\n',
    "packages/compat/src/builds-schema.ts": 'import { z } from "zod";\nexport const s = z.string();\n',
    // JSON.parse outside its owner, in its owner, and in a test.
    "packages/compat/src/parses.ts": "export const read = (text: string): unknown => JSON.parse(text);\n",
    "packages/core/src/json/parse-json.ts": "export const parseJson = (text: string): unknown => JSON.parse(text);\n",
    "packages/compat/src/parses.test.ts": "export const read = (text: string): unknown => JSON.parse(text);\n",
    // A floating promise of our own async function.
    "packages/core/src/floats.ts":
      "async function work(): Promise<number> {\n  return 1;\n}\nexport function go(): void {\n  work();\n}\n",
    // A value import used only as a type.
    "packages/core/src/type-only.ts":
      'import { Buffer } from "node:buffer";\nexport const size = (b: Buffer): number => b.length;\n',
    // A source file over 400 lines, and a test file over 400 lines (allowed).
    "packages/core/src/long.ts": `${body}\n`,
    "packages/core/src/long.test.ts": `${body}\n`,
  });
}, 30_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("architecture lint rules (biome.json)", () => {
  it("reports each broken rule on its file, and nothing on the owners", async () => {
    const found = await lint();
    const on = (file: string): string[] =>
      found.filter((line) => line.startsWith(`${file} `)).map((line) => line.split(" ")[1]!);

    expect(on("packages/core/src/cycle-a.ts")).toContain("lint/suspicious/noImportCycles");
    expect(on("packages/core/src/spawns.ts")).toContain("lint/style/noRestrictedImports");
    expect(on("packages/process/src/spawns.ts")).toEqual([]);
    expect(on("packages/compat/src/reads-yaml.ts")).toContain("lint/style/noRestrictedImports");
    expect(on("packages/compat/src/builds-schema.ts")).toContain("lint/style/noRestrictedImports");
    expect(on("packages/compat/src/parses.ts")).toContain("plugin");
    expect(on("packages/core/src/json/parse-json.ts")).toEqual([]);
    expect(on("packages/compat/src/parses.test.ts")).not.toContain("plugin");
    expect(on("packages/core/src/floats.ts")).toContain("lint/nursery/noFloatingPromises");
    expect(on("packages/core/src/type-only.ts")).toContain("lint/style/useImportType");
    expect(on("packages/core/src/long.ts")).toContain("lint/style/noExcessiveLinesPerFile");
    expect(on("packages/core/src/long.test.ts")).not.toContain("lint/style/noExcessiveLinesPerFile");
  }, 60_000);
});
