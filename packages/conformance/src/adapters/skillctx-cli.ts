/**
 * skillctx through its built CLI: `skillctx build --json` (the system prompt and its diagnostics) and
 * `skillctx list --json` (skills and path rules), every command line of every case run in two Node
 * processes (cli-batch.mjs, one per core of a two-core CI machine), in `prepare`. Needs the build
 * (`pnpm build`).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseJson } from "@skillctx/core/internal";
import { runProcess } from "@skillctx/process";
import type { CaseRun, ConformanceAdapter, Observation } from "../adapter.js";
import { relativeTo } from "./skillctx-library.js";

/** What one command line printed, and its exit code. */
interface CliResult {
  code: number;
  stdout: string;
}

const BATCH = fileURLToPath(new URL("./cli-batch.mjs", import.meta.url));
const BATCHES = 2;

/** The CLI flags of a case: the same options `contextOptions` gives the library. */
export function cliArgs(run: CaseRun): string[] {
  const { model, options } = run.case;
  const args = ["--cwd", run.cwd, "--json"];
  if (model !== undefined) args.push("--model", model);
  args.push(options?.userSkills === true ? "--user" : "--no-user");
  if (options?.trust?.project === true) args.push("--trust");
  if (options?.guidance?.emulate !== undefined) args.push("--emulate", options.guidance.emulate);
  for (const marker of options?.projectRootMarkers ?? []) args.push("--root-marker", marker);
  return args;
}

/** skillctx's built CLI. */
export function skillctxCliAdapter(): ConformanceAdapter {
  const printed = new Map<string, { build?: CliResult; list?: CliResult }>();
  const key = (run: CaseRun) => `${run.slug}#${run.case.id}`;
  return {
    name: "skillctx (CLI)",
    plays: { message: true },
    async prepare(runs) {
      const lines = runs.flatMap((run) =>
        (["build", "list"] as const).map((command) => ({
          run,
          command,
          // The played user message is build's `-m` (a tool call cannot be played through the CLI).
          args: [
            command,
            ...cliArgs(run),
            ...(command === "build" && run.case.play?.message !== undefined ? ["-m", run.case.play.message] : []),
          ],
        })),
      );
      const work = await mkdtemp(path.join(tmpdir(), "skillctx-conformance-cli-"));
      try {
        const batches = Array.from({ length: BATCHES }, (_, b) => lines.filter((_, i) => i % BATCHES === b));
        await Promise.all(
          batches.map(async (batch, b) => {
            const input = path.join(work, `runs-${b}.json`);
            const output = path.join(work, `results-${b}.json`);
            await writeFile(input, JSON.stringify(batch.map(({ run, args }) => ({ args, home: run.home }))));
            const done = await runProcess(
              { file: process.execPath, args: [BATCH, input, output] },
              { cwd: work, env: { HOME: work }, timeoutMs: 300_000, maxOutputBytes: 1024 * 1024 },
            );
            if (done.exitCode !== 0) throw new Error(`cli-batch.mjs exited ${done.exitCode}: ${done.stderr}`);
            const results = parseJson(await readFile(output, "utf8")) as CliResult[];
            batch.forEach(({ run, command }, i) => {
              const entry = printed.get(key(run)) ?? {};
              entry[command] = results[i]!;
              printed.set(key(run), entry);
            });
          }),
        );
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    async observe(run) {
      if (run.case.play?.touched !== undefined) return { unsupported: "the CLI cannot play a tool call" };
      const runs = printed.get(key(run));
      if (runs?.build === undefined || runs.list === undefined) throw new Error(`no CLI run for ${key(run)}`);
      return observation(run, runs.build, runs.list);
    },
  };
}

const envelopeData = (stdout: string): unknown => (parseJson(stdout) as { data: unknown }).data;

// What the CLI printed, in the runner's terms: guidance from `list --json` (always-on files whose name
// is a `<guidance name>` of `build`'s prompt) and by text (symlink aliases are not listed).
function observation(run: CaseRun, build: CliResult, list: CliResult): Observation {
  // Each command's --json is an envelope (docs/cli-json.schema.json); the command's own fields are its `data`.
  const built = envelopeData(build.stdout) as {
    system: string;
    steps: Array<{ activated: Array<{ skill: string }>; diagnostics: Array<{ code: string }> }>;
  };
  const listed = envelopeData(list.stdout) as {
    skills: Array<{ name: string; path: string | null; trigger: string; description: string | null }>;
  };
  const named = new Set([...built.system.matchAll(/<guidance name="([^"]*)"/g)].map((m) => m[1]!));
  const filed = (trigger: string, where: (s: { name: string }) => boolean) =>
    listed.skills
      .filter((s) => s.trigger === trigger && s.path !== null && where(s))
      .map((s) => relativeTo(run.repo, s.path!));
  const played = run.case.play === undefined ? undefined : built.steps[1];
  const activated = played?.activated.flatMap((a) => {
    const file = listed.skills.find((s) => s.name === a.skill)?.path;
    return file === undefined || file === null ? [] : [relativeTo(run.repo, file)];
  });
  return {
    ...(activated !== undefined && { activated }),
    system: built.system,
    guidance: filed("always", (s) => named.has(s.name)),
    guidanceByText: true,
    pathRules: filed("path", () => true),
    skills: listed.skills.map((s) => ({ name: s.name, description: s.description ?? undefined })),
    // The load's diagnostics, and the played step's too.
    diagnostics: built.steps.flatMap((step) => step.diagnostics.map((d) => d.code)),
  };
}
