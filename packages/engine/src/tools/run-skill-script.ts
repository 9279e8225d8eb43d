import { realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { readTextFile } from "@skillctx/core/internal";
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess } from "@skillctx/process";
import type { ProcessResult } from "@skillctx/process";
import {
  emitScriptFinished,
  findUv,
  pythonEnv,
  runNotes,
  unmanagedDependencies,
  untrustedScriptMessage,
} from "../code/python/launch.js";
import { MAX_SCRIPT_SOURCE_BYTES } from "../limits.js";
import { scriptMetadata } from "../code/python/pep723.js";
import { verifiedFolderChange } from "@skillctx/sources";
import { checkRelativePath, resolveInside } from "./skill-paths.js";
import type { SkillToolHost } from "./skill-tools.js";
import { folderSkill } from "./skill-tools.js";
import { DEFAULT_SCRIPT_TIMEOUT_MS } from "../tool-kit/skill-folder.js";
import type { ToolResult } from "./tool-provider.js";
import { fail } from "../tool-kit/tool-result.js";

/** What the model asked `run_skill_script` for. */
export interface ScriptRequest {
  name: string;
  /** A file under the skill's `scripts/` folder: `scripts/x.py` or `x.py`. */
  script: string;
  args?: string[] | undefined;
}

/** How a script runs: a label for messages and the program with its arguments. */
interface Runner {
  label: string;
  command(script: string, args: readonly string[]): { file: string; args: string[] };
}

/**
 * Runs a script from a skill's `scripts/` folder, with the skill folder as working directory. The runner
 * follows the extension: `.py` python3, `.sh` bash, `.js`/`.mjs`/`.cjs` node, `.ts`/`.mts`/`.cts` node with
 * tsx (an optional peer dependency of skillctx: without it the result says how to add it); any other file
 * runs by itself if it is executable. A Python script gets the skill folder on `PYTHONPATH`, and one with a
 * PEP 723 `# /// script` block runs through `uv run --script` when `uv` is on PATH. Only trusted skills
 * may run scripts (`isSkillTrusted` with the host's `trust`). Each run emits `script.finished`. Timeout, output cap,
 * allowlisted environment and process-group kill are those of `runProcess` (`@skillctx/process`): the
 * result comes by the timeout even when the script leaves a daemon holding its output. Aborting `signal`
 * kills the script and rejects.
 */
export async function runSkillScript(
  host: SkillToolHost,
  request: ScriptRequest,
  signal?: AbortSignal,
): Promise<ToolResult> {
  const found = folderSkill(host, request.name);
  if ("error" in found) return fail(found.error);
  const { skill, dir } = found;
  const untrusted = untrustedScriptMessage(skill, host.trust);
  if (untrusted !== undefined) return fail(untrusted);
  // A signed skill's scripts run only while its folder is what was verified (a script may import its siblings).
  const changed = await verifiedFolderChange(skill, signal);
  if (changed !== undefined) return fail(`Not run: ${changed}.`);

  const checked = checkRelativePath(request.script);
  if (!checked.ok) return fail(`Refused ${JSON.stringify(request.script)}: ${checked.reason}.`);
  const inScripts = checked.path.startsWith("scripts/") ? checked.path.slice("scripts/".length) : checked.path;
  const shown = `scripts/${inScripts}`;
  if (inScripts === "" || inScripts === "scripts")
    return fail("Name a script file under scripts/, for example scripts/run.py.");
  const resolved = await resolveInside(path.join(dir, "scripts"), inScripts);
  if (!resolved.ok) {
    const where =
      resolved.missing === true
        ? `No script ${shown} in the skill "${skill.name}"`
        : `Refused ${shown}: ${resolved.reason.replace(/skill folder/, "skill's scripts/ folder")}`;
    return fail(`${where}.`);
  }
  if (!resolved.stats.isFile()) return fail(`Refused ${shown}: not a regular file.`);

  let runner = scriptRunner(inScripts, resolved.stats.mode);
  if (runner === undefined) {
    return fail(`No runner for ${shown}: use .py, .sh, .js, .mjs, .cjs, .ts, or make the file executable.`);
  }
  if ("missing" in runner) return fail(`Not run: ${shown} ${runner.missing}`);
  const settings = host.settings.scripts ?? {};
  const cwd = await realpath(dir);
  const python = runner.label === "python3";
  if (python) runner = await withInlineMetadata(runner, resolved.realPath, cwd, shown, host);
  const result = await runProcess(runner.command(resolved.realPath, request.args ?? []), {
    cwd,
    env: { ...(python ? pythonEnv(cwd) : {}), ...settings.env },
    timeoutMs: settings.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS,
    maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    ...(signal !== undefined && { signal }),
  });
  emitScriptFinished(host.events, skill, shown, result);
  return formatRun(
    result,
    runner.label,
    shown,
    settings.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS,
    settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
  );
}

/**
 * A Python script with a PEP 723 `# /// script` block runs through `uv run --script` when `uv` is on PATH
 * (uv builds the environment its block asks for); otherwise with python3, and a diagnostic names the
 * dependencies that may be missing.
 */
async function withInlineMetadata(
  runner: Runner,
  file: string,
  root: string,
  shown: string,
  host: SkillToolHost,
): Promise<Runner> {
  const read = await readTextFile(file, { root, maxBytes: MAX_SCRIPT_SOURCE_BYTES, truncate: true });
  const meta = read.ok ? scriptMetadata(read.text) : undefined;
  if (meta === undefined || "error" in meta) return runner;
  const uv = findUv();
  if (uv === undefined) {
    host.diagnostic(unmanagedDependencies(meta, file, shown));
    return runner;
  }
  return {
    label: "uv",
    command: (script, args) => ({ file: uv, args: ["run", "--quiet", "--script", script, ...args] }),
  };
}

/**
 * The runner for a script file by its extension and mode; `undefined` when there is none, `{ missing }` when
 * the runner needs a package that is not installed (tsx for TypeScript). `findTsx` finds tsx's CLI.
 */
export function scriptRunner(
  file: string,
  mode: number,
  findTsx: () => string | undefined = findTsxCli,
): Runner | { missing: string } | undefined {
  const via = (label: string, program: string, before: string[] = []): Runner => ({
    label,
    command: (script, args) => ({ file: program, args: [...before, script, ...args] }),
  });
  switch (path.extname(file).toLowerCase()) {
    case ".py":
      return via("python3", "python3");
    case ".sh":
      return via("bash", "bash");
    case ".js":
    case ".mjs":
    case ".cjs":
      return via("node", process.execPath);
    case ".ts":
    case ".mts":
    case ".cts": {
      const cli = findTsx();
      return cli === undefined ? { missing: TSX_MISSING } : via("tsx", process.execPath, [cli]);
    }
    default:
      if ((mode & 0o111) === 0) return undefined;
      return { label: "executable", command: (script, args) => ({ file: script, args: [...args] }) };
  }
}

/** Why a TypeScript script did not run, and how the host adds what it needs. */
export const TSX_MISSING =
  "is TypeScript, and running it needs tsx, an optional peer dependency of skillctx that is not installed. " +
  "Add it beside skillctx (npm install tsx, or pnpm add tsx), or ship the script as .js.";

const require = createRequire(import.meta.url);
let tsxPath: string | undefined;

/**
 * tsx's CLI, resolved from skillctx's own location (where a host installs its optional peers; never a
 * global install), or `undefined` when it is not installed. `resolve` finds the file (tests point it at a
 * module that does not exist); the default's answer is kept for the process.
 */
export function findTsxCli(resolve: () => string = resolveTsxCli): string | undefined {
  if (resolve === resolveTsxCli && tsxPath !== undefined) return tsxPath;
  let found: string;
  try {
    found = resolve();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "MODULE_NOT_FOUND" || code === "ERR_PACKAGE_PATH_NOT_EXPORTED") return undefined;
    throw error;
  }
  if (resolve === resolveTsxCli) tsxPath = found;
  return found;
}

function resolveTsxCli(): string {
  return require.resolve("tsx/cli");
}

/** stdout, then stderr under a marker, then what ended the run when it was not a clean exit. */
function formatRun(
  result: ProcessResult,
  runner: string,
  script: string,
  timeoutMs: number,
  maxBytes: number,
): ToolResult {
  if (result.error !== undefined) return fail(`Could not start ${script} (${runner}): ${result.error}`);
  const parts: string[] = [];
  if (result.stdout !== "") parts.push(result.stdout.replace(/\n$/, ""));
  if (result.stderr !== "") parts.push(`[stderr]\n${result.stderr.replace(/\n$/, "")}`);
  const { notes, failed: isError } = runNotes(result, script, timeoutMs, maxBytes);
  parts.push(...notes);
  if (parts.length === 0) parts.push(`(${script} printed nothing; exit code 0)`);
  const content = parts.join("\n");
  return isError ? { content, isError } : { content };
}
