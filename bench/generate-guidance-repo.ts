/**
 * Generates the repository of the guidance-discovery benchmark: a real git repository of 50,000
 * committed files (source trees of 50 packages) of which 40 are nested guidance files
 * (AGENTS.md, CLAUDE.md, GEMINI.md, AGENT.md and `.cursor/rules/*.mdc` in package folders), plus
 * root guidance. Deterministic; generated once into `.bench-data/guidance-repo` and reused.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** Where generated data lives (gitignored). */
export const BENCH_DATA = fileURLToPath(new URL("../.bench-data/", import.meta.url));

// Bump when the generated shape changes, so stale data is regenerated.
const GENERATOR_VERSION = 2;

/** Total files in the repository, guidance included. */
export const TOTAL_FILES = 50_000;
/** Guidance files below the root. */
export const NESTED_GUIDANCE = 40;

const PACKAGES = 50;
const NESTED_KINDS = ["AGENTS.md", "CLAUDE.md", "GEMINI.md", "AGENT.md", ".cursor/rules/style.mdc"];

/** Returns the repository folder, generating it first when missing or stale. */
export async function ensureGuidanceRepo(): Promise<string> {
  const dir = path.join(BENCH_DATA, "guidance-repo");
  const stamp = `${dir}.stamp`;
  const want = `${GENERATOR_VERSION}:${TOTAL_FILES}:${NESTED_GUIDANCE}`;
  if (existsSync(stamp) && (await readFile(stamp, "utf8")) === want && existsSync(path.join(dir, ".git"))) return dir;
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  await generate(dir);
  await writeFile(stamp, want);
  return dir;
}

async function generate(dir: string): Promise<void> {
  const files = new Map<string, string>();
  files.set("AGENTS.md", "# Root guidance\n\nRun the tests before pushing.\n");
  files.set("CLAUDE.md", "# Claude\n\n@docs/conventions.md\n");
  files.set("docs/conventions.md", "Conventions: small diffs, tests beside code.\n");
  files.set(".cursor/rules/root.mdc", "---\nalwaysApply: true\n---\nRoot rule.\n");
  files.set(".gitignore", "dist/\n*.log\n");

  // 40 nested guidance files in package (and some sub-package) folders.
  for (let i = 0; i < NESTED_GUIDANCE; i++) {
    // 30 package roots, then 10 module folders inside packages.
    const folder =
      i < 30
        ? `packages/pkg-${String(i).padStart(2, "0")}`
        : `packages/pkg-${String(i - 30).padStart(2, "0")}/src/mod-1`;
    const kind = NESTED_KINDS[i % NESTED_KINDS.length] ?? "AGENTS.md";
    const text = kind.endsWith(".mdc")
      ? `---\nglobs: src/**/*.ts\n---\nRule ${i}.\n`
      : `# Guidance ${i}\n\nNotes for ${folder}.\n`;
    files.set(`${folder}/${kind}`, text);
  }

  // Source files up to the total, spread over packages, modules and sub-folders.
  let n = 0;
  while (files.size < TOTAL_FILES) {
    // About ten files per folder: 50 packages × 20 modules × 5 parts.
    const pkg = `packages/pkg-${String(n % PACKAGES).padStart(2, "0")}`;
    const k = Math.floor(n / PACKAGES);
    const mod = Math.floor(k / 50) % 20;
    const part = Math.floor(k / 10) % 5;
    files.set(`${pkg}/src/mod-${mod}/part-${part}/file-${n}.ts`, `export const value${n} = ${n};\n`);
    n++;
  }

  const folders = new Set([...files.keys()].map((f) => path.dirname(path.join(dir, f))));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  const entries = [...files];
  for (let i = 0; i < entries.length; i += 512) {
    await Promise.all(entries.slice(i, i + 512).map(([file, text]) => writeFile(path.join(dir, file), text)));
  }
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(
    dir,
    "-c",
    "gc.auto=0",
    "-c",
    "user.name=bench",
    "-c",
    "user.email=bench@example.com",
    "-c",
    "commit.gpgsign=false",
    "commit",
    "-q",
    "-m",
    "generated",
  );
}

function git(cwd: string, ...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error) =>
      error === null ? resolve() : reject(error),
    );
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.log(await ensureGuidanceRepo());
}
