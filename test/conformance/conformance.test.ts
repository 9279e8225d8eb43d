/**
 * The conformance corpus (`@skillctx/conformance`, packages/conformance) against skillctx: every case,
 * naming its rule (a row of docs/conventions.md) and that rule's source, must hold through
 * `AgentContext` (the library) and through the built `skillctx build --json` / `list --json` (one Node
 * process per core runs all CLI command lines: cli-batch.mjs), with the same cwd, model and options; a
 * case's played tool call is "not supported" through the CLI (it plays user messages only).
 * docs/conformance.md (`pnpm conformance`) must show the skillctx columns this run finds.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  cannotPlay,
  caseRuns,
  checkCase,
  LAYOUTS_DIR,
  loadLayouts,
  prepareCopies,
  skillctxCliAdapter,
  skillctxLibraryAdapter,
  tally,
} from "@skillctx/conformance";
import type { CaseResult, CaseRun, Copies, Layout } from "@skillctx/conformance";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, ROOT } from "../helpers/cli.js";

const layouts: Layout[] = await loadLayouts();
const library = skillctxLibraryAdapter();
const cli = skillctxCliAdapter();
const results = { library: [] as CaseResult[], cli: [] as CaseResult[] };
let copies: Copies | undefined;
let runs = new Map<string, CaseRun>();

beforeAll(async () => {
  assertBuilt();
  copies = await prepareCopies(layouts);
  const all = caseRuns(layouts, copies);
  runs = new Map(all.map((run) => [`${run.slug}#${run.case.id}`, run]));
  await cli.prepare!(all);
}, 120_000);

afterAll(async () => {
  await copies?.remove();
});

describe.each(layouts)("conformance layout $slug", (layout) => {
  it.each(layout.cases)("$id — $rule", async (c) => {
    const run = runs.get(`${layout.slug}#${c.id}`)!;
    for (const [adapter, into] of [
      [library, results.library],
      [cli, results.cli],
    ] as const) {
      // A step the adapter cannot play (the CLI has no tool call) is "not supported", as the runner says.
      const unplayable = cannotPlay(adapter, run);
      const result = await checkCase(
        run,
        unplayable === undefined ? await adapter.observe(run) : { unsupported: unplayable },
      );
      into.push(result);
      const label = `${layout.slug}#${c.id} (${c.rule}; ${c.source}) via ${adapter.name}`;
      expect(result.failures, label).toEqual([]);
      expect(result.status, label).toBe(unplayable === undefined ? "holds" : "unsupported");
    }
  });
});

it("the corpus has at least 45 layouts, each with a SOURCE.md, and every case runs", async () => {
  expect(layouts.length).toBeGreaterThanOrEqual(45);
  for (const layout of layouts) {
    const source = await readFile(path.join(LAYOUTS_DIR, layout.slug, "SOURCE.md"), "utf8");
    // a public repository, or (for a layout built from a documented shape) the owner's documentation page
    expect(source, layout.slug).toMatch(/https:\/\/(github\.com\/|[\w.-]+\/docs)/);
    expect(source, layout.slug).toMatch(/text inside is ours/i);
    expect(layout.cases.length, layout.slug).toBeGreaterThan(0);
  }
});

// Runs after the cases (a file's tests run in order): the committed table shows what this run found.
it("docs/conformance.md shows the skillctx results of this run (regenerate with `pnpm conformance`)", async () => {
  const doc = await readFile(path.join(ROOT, "docs/conformance.md"), "utf8");
  const total = layouts.reduce((n, l) => n + l.cases.length, 0);
  for (const [name, found] of [
    ["skillctx (library)", results.library],
    ["skillctx (CLI)", results.cli],
  ] as const) {
    expect(found.length, `${name}: every case ran`).toBe(total);
    const t = tally(found);
    expect(doc, name).toContain(`| ${name} | ${total} | ${t.holds} | ${t.fails} | ${t.unsupported} |`);
  }
});
