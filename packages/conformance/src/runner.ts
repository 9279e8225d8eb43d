/**
 * The runner: every case of every layout through each adapter, on one set of copies. Yields per case per
 * adapter holds / fails (with what differed) / not supported.
 */
import path from "node:path";
import type { CaseRun, ConformanceAdapter } from "./adapter.js";
import { checkCase } from "./check-case.js";
import type { CaseResult } from "./check-case.js";
import type { Case } from "./case-schema.js";
import { loadLayouts, prepareCopies } from "./layouts.js";
import type { Copies, Layout } from "./layouts.js";

/** The cases of `layouts` as adapters see them, on `copies`. */
export function caseRuns(layouts: readonly Layout[], copies: Copies): CaseRun[] {
  return layouts.flatMap((layout) => {
    const repo = copies.repos.get(layout.slug);
    if (repo === undefined) throw new Error(`no copy of layout ${layout.slug}`);
    return layout.cases.map((c: Case) => ({
      slug: layout.slug,
      repo,
      cwd: path.join(repo, c.cwd ?? "."),
      home: c.setup?.home === undefined ? copies.emptyHome : path.join(repo, c.setup.home),
      case: c,
    }));
  });
}

/**
 * Why `adapter` cannot act out the case's `play` (a user message, a tool call that reads a file), or
 * undefined when it can or the case plays nothing.
 */
export function cannotPlay(adapter: ConformanceAdapter, run: CaseRun): string | undefined {
  const play = run.case.play;
  if (play === undefined) return undefined;
  if (play.message !== undefined && adapter.plays?.message !== true)
    return `${adapter.name} cannot play a user message`;
  if (play.touched !== undefined && adapter.plays?.toolCall !== true) return `${adapter.name} cannot play a tool call`;
  return undefined;
}

/** Runs every case through `adapter` (prepare, observe each, close) and checks each observation. */
export async function runAdapter(adapter: ConformanceAdapter, runs: readonly CaseRun[]): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  try {
    await adapter.prepare?.(runs);
    for (const run of runs) {
      if (adapter.rules !== undefined && !adapter.rules.has(run.case.rule)) {
        results.push(await checkCase(run, { unsupported: `${adapter.name} has no notion of ${run.case.rule}` }));
        continue;
      }
      const unplayable = cannotPlay(adapter, run);
      if (unplayable !== undefined) {
        results.push(await checkCase(run, { unsupported: unplayable }));
        continue;
      }
      let observed: Awaited<ReturnType<ConformanceAdapter["observe"]>>;
      try {
        observed = await adapter.observe(run);
      } catch (error) {
        // A loader that throws on a layout fails that case; the next case still runs.
        const result = await checkCase(run, {});
        results.push({
          ...result,
          status: "fails",
          failures: [`the loader threw: ${errorText(error).replaceAll(run.repo, "<repo>")}`],
        });
        continue;
      }
      results.push(await checkCase(run, observed));
    }
  } finally {
    await adapter.close?.();
  }
  return results;
}

/** One adapter's results. */
export interface AdapterResults {
  adapter: string;
  results: CaseResult[];
}

/** Options of {@link runConformance}. */
export interface RunConformanceOptions {
  /** The layouts folder. @default the corpus shipped with this package */
  layoutsDir?: string;
  /** Called after each adapter finishes. */
  onAdapter?: (done: AdapterResults) => void;
}

/** Every case of the corpus through every adapter, one after the other, on one set of copies. */
export async function runConformance(
  adapters: readonly ConformanceAdapter[],
  options: RunConformanceOptions = {},
): Promise<AdapterResults[]> {
  const layouts = await loadLayouts(options.layoutsDir);
  const copies = await prepareCopies(layouts, options.layoutsDir);
  try {
    const runs = caseRuns(layouts, copies);
    const all: AdapterResults[] = [];
    for (const adapter of adapters) {
      const done = { adapter: adapter.name, results: await runAdapter(adapter, runs) };
      options.onAdapter?.(done);
      all.push(done);
    }
    return all;
  } finally {
    await copies.remove();
  }
}

/** Counts of one adapter's results. */
export function tally(results: readonly CaseResult[]): Record<CaseResult["status"], number> {
  const counts = { holds: 0, fails: 0, unsupported: 0 };
  for (const r of results) counts[r.status] += 1;
  return counts;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
