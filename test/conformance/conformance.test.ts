/**
 * The conformance corpus (issue 24, CONFORMANCE.md): layouts reproduced from public repositories, each
 * case naming its rule (a row of docs/conventions.md) and that rule's source. Every case runs twice:
 * through `AgentContext` (the library) and through the built `skillctx build --json` / `list --json`
 * (one Node process runs all CLI command lines: cli-batch.mjs), with the same cwd, model and options.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { parseJson } from "@skillctx/core/internal";
import { AgentContext } from "skillctx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "../helpers/cli.js";
import { LAYOUTS, loadLayouts, markerLine, occurrences, prepareCopies } from "./corpus.js";
import type { Case, Layout } from "./corpus.js";

const layouts: Layout[] = await loadLayouts();

interface Observed {
  system: string;
  /** Repo-relative paths of always-on guidance and always-on skills (and their symlink aliases). */
  guidance: Set<string>;
  /** Name of the always-on skill read from each of those paths. */
  guidanceName: Map<string, string>;
  pathRules: Set<string>;
  skills: Set<string>;
  diagnostics: Set<string>;
}

interface CliResult {
  code: number;
  stdout: string;
}

let base = "";
let repos = new Map<string, string>();
const cli = new Map<string, { build: CliResult; list: CliResult }>();

const key = (slug: string, id: string) => `${slug}#${id}`;
// A command's --json is an envelope (docs/cli-json.schema.json); the command's own fields are its `data`.
const envelopeData = (stdout: string) => (parseJson(stdout) as { data: unknown }).data;
const homeOf = (repo: string, c: Case) =>
  c.setup?.home === undefined ? path.join(base, ".home") : path.join(repo, c.setup.home);
const cwdOf = (repo: string, c: Case) => path.join(repo, c.cwd ?? ".");
const rel = (repo: string, file: string) => path.relative(repo, path.resolve(file)).split(path.sep).join("/");

function cliArgs(repo: string, c: Case): string[] {
  const args = ["--cwd", cwdOf(repo, c), "--json"];
  if (c.model !== undefined) args.push("--model", c.model);
  args.push(c.options?.userSkills === true ? "--user" : "--no-user");
  if (c.options?.trust?.project === true) args.push("--trust");
  if (c.options?.guidance?.emulate !== undefined) args.push("--emulate", c.options.guidance.emulate);
  for (const marker of c.options?.projectRootMarkers ?? []) args.push("--root-marker", marker);
  return args;
}

beforeAll(async () => {
  assertBuilt();
  ({ base, repos } = await prepareCopies(layouts));
  await mkdir(path.join(base, ".home"), { recursive: true });
  const runs: Array<{ args: string[]; home: string; key: string; command: "build" | "list" }> = [];
  for (const layout of layouts) {
    const repo = repos.get(layout.slug)!;
    for (const c of layout.cases) {
      for (const command of ["build", "list"] as const)
        runs.push({
          args: [command, ...cliArgs(repo, c)],
          home: homeOf(repo, c),
          key: key(layout.slug, c.id),
          command,
        });
    }
  }
  // Two batch processes (the CI machine has two cores), each running its half of the command lines in turn.
  const halves = [runs.filter((_, i) => i % 2 === 0), runs.filter((_, i) => i % 2 === 1)];
  await Promise.all(
    halves.map(async (half, h) => {
      const input = path.join(base, `.runs-${h}.json`);
      const output = path.join(base, `.results-${h}.json`);
      await writeFile(input, JSON.stringify(half.map(({ args, home }) => ({ args, home }))));
      await promisify(execFile)(process.execPath, [path.join(ROOT, "test/conformance/cli-batch.mjs"), input, output], {
        cwd: base,
        env: { PATH: process.env.PATH ?? "", HOME: path.join(base, ".home") },
        maxBuffer: 64 * 1024 * 1024,
      });
      const results = parseJson(await readFile(output, "utf8")) as CliResult[];
      half.forEach((run, i) => {
        const entry = cli.get(run.key) ?? ({} as { build: CliResult; list: CliResult });
        entry[run.command] = results[i]!;
        cli.set(run.key, entry);
      });
    }),
  );
}, 120_000);

afterAll(async () => {
  if (base !== "") await rm(base, { recursive: true, force: true });
});

async function viaLibrary(repo: string, c: Case): Promise<Observed> {
  const ctx = await AgentContext.create({
    cwd: cwdOf(repo, c),
    sources: {
      homeDir: homeOf(repo, c),
      userSkills: c.options?.userSkills ?? false,
      ...(c.options?.projectRootMarkers !== undefined && { projectRootMarkers: c.options.projectRootMarkers }),
    },
    ...(c.model !== undefined && { model: c.model }),
    ...(c.options?.trust !== undefined && { trust: c.options.trust }),
    ...(c.options?.guidance?.emulate !== undefined && {
      guidance: { emulate: c.options.guidance.emulate as "codex" },
    }),
  });
  try {
    const step = await ctx.buildContext([]);
    const observed: Observed = {
      system: step.system,
      guidance: new Set(),
      guidanceName: new Map(),
      pathRules: new Set(),
      skills: new Set(ctx.skills.map((s) => s.name)),
      diagnostics: new Set(step.diagnostics.map((d) => d.code)),
    };
    for (const skill of ctx.skills) {
      if (skill.source.path === undefined) continue;
      const where = [rel(repo, skill.source.path), ...(skill.metadata["aliases"] ?? "").split(", ").filter(Boolean)];
      for (const p of where) {
        if (skill.trigger.type === "always") {
          observed.guidance.add(p);
          observed.guidanceName.set(p, skill.name);
        }
        if (skill.trigger.type === "path") observed.pathRules.add(p);
      }
    }
    return observed;
  } finally {
    await ctx.close();
  }
}

// What the CLI printed, in the library's terms: guidance by the names in `system`, rules and skills from `list --json`.
function viaCli(repo: string, slug: string, c: Case): Observed & { guidanceNames: Set<string> } {
  const runs = cli.get(key(slug, c.id));
  if (runs === undefined) throw new Error(`no CLI run for ${slug}#${c.id}`);
  const build = envelopeData(runs.build.stdout) as {
    system: string;
    steps: Array<{ diagnostics: Array<{ code: string }> }>;
  };
  const list = envelopeData(runs.list.stdout) as {
    skills: Array<{ name: string; path: string | null; trigger: string }>;
    diagnostics: Array<{ code: string }>;
  };
  const guidanceNames = new Set([...build.system.matchAll(/<guidance name="([^"]*)"/g)].map((m) => m[1]!));
  return {
    system: build.system,
    guidance: new Set(),
    guidanceName: new Map(),
    guidanceNames,
    pathRules: new Set(
      list.skills.filter((s) => s.trigger === "path" && s.path !== null).map((s) => rel(repo, s.path!)),
    ),
    skills: new Set(list.skills.map((s) => s.name)),
    diagnostics: new Set(build.steps[0]?.diagnostics.map((d) => d.code) ?? []),
  };
}

async function check(repo: string, slug: string, c: Case): Promise<void> {
  const e = c.expect;
  const lib = await viaLibrary(repo, c);
  const out = viaCli(repo, slug, c);
  const label = (what: string) => `${slug}#${c.id} (${c.rule}; ${c.source}): ${what}`;
  const marker = async (p: string) => markerLine(path.join(repo, p));

  for (const p of e.guidance ?? []) {
    expect(lib.guidance.has(p), label(`${p} is always-on guidance (library)`)).toBe(true);
    const name = lib.guidanceName.get(p)!;
    const line = await marker(p);
    expect(
      out.guidanceNames.has(name) || (line !== undefined && out.system.includes(line)),
      label(`${p} in CLI system`),
    ).toBe(true);
  }
  for (const p of e.guidanceAbsent ?? []) {
    expect(lib.guidance.has(p), label(`${p} is not always-on guidance`)).toBe(false);
    const line = await marker(p);
    if (line !== undefined) {
      expect(occurrences(lib.system, line), label(`${p}'s text not in system (library)`)).toBe(0);
      expect(occurrences(out.system, line), label(`${p}'s text not in system (CLI)`)).toBe(0);
    }
  }
  for (const p of e.guidanceOnce ?? []) {
    const line = await marker(p);
    expect(line, label(`${p} has a line to look for`)).toBeDefined();
    expect(occurrences(lib.system, line!), label(`${p}'s text exactly once in system (library)`)).toBe(1);
    expect(occurrences(out.system, line!), label(`${p}'s text exactly once in system (CLI)`)).toBe(1);
  }
  for (const p of e.pathRules ?? []) {
    expect(lib.pathRules.has(p), label(`${p} is a path rule (library)`)).toBe(true);
    expect(out.pathRules.has(p), label(`${p} is a path rule (CLI)`)).toBe(true);
  }
  for (const p of e.pathRulesAbsent ?? []) {
    expect(lib.pathRules.has(p), label(`${p} is not a path rule (library)`)).toBe(false);
    expect(out.pathRules.has(p), label(`${p} is not a path rule (CLI)`)).toBe(false);
  }
  for (const name of e.skills ?? []) {
    expect(lib.skills.has(name), label(`skill ${name} (library)`)).toBe(true);
    expect(out.skills.has(name), label(`skill ${name} (CLI)`)).toBe(true);
  }
  for (const name of e.skillsAbsent ?? []) {
    expect(lib.skills.has(name), label(`no skill ${name} (library)`)).toBe(false);
    expect(out.skills.has(name), label(`no skill ${name} (CLI)`)).toBe(false);
  }
  for (const code of e.diagnostics ?? []) {
    expect(lib.diagnostics.has(code), label(`diagnostic ${code} (library)`)).toBe(true);
    expect(out.diagnostics.has(code), label(`diagnostic ${code} (CLI)`)).toBe(true);
  }
  for (const code of e.diagnosticsAbsent ?? []) {
    expect(lib.diagnostics.has(code), label(`no diagnostic ${code} (library)`)).toBe(false);
    expect(out.diagnostics.has(code), label(`no diagnostic ${code} (CLI)`)).toBe(false);
  }
}

describe.each(layouts)("conformance layout $slug", (layout) => {
  it.each(layout.cases)("$id — $rule", async (c) => {
    await check(repos.get(layout.slug)!, layout.slug, c);
  });
});

it("the corpus has at least 25 layouts, each with a SOURCE.md, and every case runs", async () => {
  expect(layouts.length).toBeGreaterThanOrEqual(25);
  for (const layout of layouts) {
    const source = await readFile(path.join(LAYOUTS, layout.slug, "SOURCE.md"), "utf8");
    // a public repository, or (for a layout built from a documented shape) the owner's documentation page
    expect(source, layout.slug).toMatch(/https:\/\/(github\.com\/|[\w.-]+\/docs)/);
    expect(source, layout.slug).toMatch(/text inside is ours/i);
    expect(layout.cases.length, layout.slug).toBeGreaterThan(0);
  }
});
