/**
 * The conformance corpus (test/conformance/CONFORMANCE.md): layouts reproduced from public repositories,
 * each with the cases that say what its agents read. Loading and preparing only; the checks are in
 * conformance.test.ts, the rule ids in docs/conventions.md.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson } from "@skillctx/core/internal";

export const LAYOUTS = fileURLToPath(new URL("./layouts/", import.meta.url));

/** What a case expects; every key optional. Paths are relative to the layout's `repo/`. */
export interface Expect {
  guidance?: string[];
  guidanceAbsent?: string[];
  guidanceOnce?: string[];
  pathRules?: string[];
  pathRulesAbsent?: string[];
  skills?: string[];
  skillsAbsent?: string[];
  diagnostics?: string[];
  diagnosticsAbsent?: string[];
}

/** The AgentContext options a case may set; each has a CLI flag, so both runs see the same. */
export interface CaseOptions {
  userSkills?: boolean;
  trust?: { project?: boolean };
  guidance?: { emulate?: string };
  projectRootMarkers?: string[];
}

export interface Case {
  id: string;
  rule: string;
  source: string;
  cwd?: string;
  model?: string;
  options?: CaseOptions;
  setup?: { home?: string };
  expect: Expect;
}

export interface Layout {
  slug: string;
  cases: Case[];
}

const CASE_KEYS = new Set(["id", "rule", "source", "cwd", "model", "options", "setup", "expect"]);
const EXPECT_KEYS = new Set([
  "guidance",
  "guidanceAbsent",
  "guidanceOnce",
  "pathRules",
  "pathRulesAbsent",
  "skills",
  "skillsAbsent",
  "diagnostics",
  "diagnosticsAbsent",
]);
const OPTION_KEYS = new Set(["userSkills", "trust", "guidance", "projectRootMarkers"]);

/** Every layout with its cases, checked for unknown keys (a typo must not pass as an empty expectation). */
export async function loadLayouts(): Promise<Layout[]> {
  const slugs = (await readdir(LAYOUTS, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  const layouts: Layout[] = [];
  for (const slug of slugs.sort()) {
    const cases = parseJson(await readFile(path.join(LAYOUTS, slug, "cases.json"), "utf8")) as Case[];
    const ids = new Set<string>();
    for (const c of cases) {
      const where = `${slug}/cases.json ${c.id}`;
      for (const key of Object.keys(c)) if (!CASE_KEYS.has(key)) throw new Error(`${where}: unknown key ${key}`);
      for (const key of Object.keys(c.expect))
        if (!EXPECT_KEYS.has(key)) throw new Error(`${where}: unknown expect ${key}`);
      for (const key of Object.keys(c.options ?? {}))
        if (!OPTION_KEYS.has(key)) throw new Error(`${where}: option ${key} has no CLI flag; add one to the runner`);
      if (ids.has(c.id)) throw new Error(`${where}: duplicate id`);
      if (c.rule === "" || c.source === "") throw new Error(`${where}: every case names its rule and source`);
      ids.add(c.id);
    }
    layouts.push({ slug, cases });
  }
  return layouts;
}

/**
 * Copies each layout's `repo/` to a temporary folder (symlinks kept as symlinks) and makes it a git
 * repository (`git init` + `git add -A`), as CONFORMANCE.md says. Returns slug → real path of the copy.
 */
export async function prepareCopies(layouts: readonly Layout[]): Promise<{ base: string; repos: Map<string, string> }> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-conformance-")));
  const repos = new Map<string, string>();
  for (const { slug } of layouts) {
    const dest = path.join(base, slug);
    await cp(path.join(LAYOUTS, slug, "repo"), dest, { recursive: true, verbatimSymlinks: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd: dest, stdio: "ignore" });
    git("init", "-q");
    git("add", "-A");
    repos.set(slug, dest);
  }
  return { base, repos };
}

/** The first line of a file that is long enough to be told apart (the text checks look for it in `system`). */
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
