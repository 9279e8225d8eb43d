/**
 * The layouts: `layouts/<slug>/` holds SOURCE.md (the public repository or documented shape it
 * reproduces), `repo/` (the tree, symlinks committed as symlinks) and `cases.json` (case-schema.ts).
 * Loading, and preparing the copies every adapter reads; the checks are in check-case.ts.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson } from "@skillctx/core/internal";
import { runGit } from "@skillctx/process";
import { caseSchemas } from "./case-schema.js";
import type { Case } from "./case-schema.js";

/** The corpus shipped with this package. */
export const LAYOUTS_DIR: string = fileURLToPath(new URL("../layouts/", import.meta.url));

/** One layout: its folder name and its cases. */
export interface Layout {
  slug: string;
  cases: Case[];
}

/**
 * Every layout under `dir` with its cases, checked against the schema (unknown keys fail) and for
 * duplicate ids.
 */
export async function loadLayouts(dir: string = LAYOUTS_DIR): Promise<Layout[]> {
  const slugs = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  const layouts: Layout[] = [];
  for (const slug of slugs.sort()) {
    const file = path.join(dir, slug, "cases.json");
    const parsed = caseSchemas().cases.safeParse(parseJson(await readFile(file, "utf8")));
    if (!parsed.success) throw new Error(`${slug}/cases.json: ${parsed.error.message}`);
    const ids = new Set<string>();
    for (const c of parsed.data) {
      if (ids.has(c.id)) throw new Error(`${slug}/cases.json ${c.id}: duplicate id`);
      ids.add(c.id);
    }
    layouts.push({ slug, cases: parsed.data });
  }
  return layouts;
}

/** The copies every adapter reads: slug → real path of a git repository holding the layout's `repo/`. */
export interface Copies {
  base: string;
  /** An empty folder, the HOME of cases without `setup.home`. */
  emptyHome: string;
  repos: Map<string, string>;
  /** Removes the copies. */
  remove(): Promise<void>;
}

/**
 * Copies each layout's `repo/` to a temporary folder (symlinks kept as symlinks) and makes it a git
 * repository (`git init` + `git add -A`), since agents bound their walks at the git root.
 */
export async function prepareCopies(layouts: readonly Layout[], dir: string = LAYOUTS_DIR): Promise<Copies> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-conformance-")));
  const emptyHome = path.join(base, ".home");
  await mkdir(emptyHome);
  const repos = new Map<string, string>();
  for (const { slug } of layouts) {
    const dest = path.join(base, slug);
    await cp(path.join(dir, slug, "repo"), dest, { recursive: true, verbatimSymlinks: true });
    for (const args of [
      ["init", "-q"],
      ["add", "-A"],
    ]) {
      const result = await runGit(["-c", "init.defaultBranch=main", ...args], { cwd: dest, timeoutMs: 30_000 });
      if (result.exitCode !== 0) throw new Error(`git ${args[0]} in ${dest}: ${result.stderr || result.error}`);
    }
    repos.set(slug, dest);
  }
  return { base, emptyHome, repos, remove: () => rm(base, { recursive: true, force: true }) };
}

/** The first line of a file long enough to be told apart (the text checks look for it in the prompt). */
export async function markerLine(file: string): Promise<string | undefined> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const body = text.startsWith("---\n") ? text.slice(text.indexOf("\n---", 3) + 4) : text;
  return body
    .split("\n")
    .map((line) => line.trim())
    .find((line) => line.length >= 12 && !line.startsWith("@"));
}

/** How often `part` occurs in `text`. */
export function occurrences(text: string, part: string): number {
  return part === "" ? 0 : text.split(part).length - 1;
}
