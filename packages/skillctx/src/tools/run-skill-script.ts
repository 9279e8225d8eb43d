import { realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { isScopeTrusted } from "@skillctx/core";
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess } from "@skillctx/process";
import type { ProcessResult } from "@skillctx/process";
import { checkRelativePath, resolveInside } from "./skill-paths.js";
import type { SkillToolHost } from "./skill-tools.js";
import { DEFAULT_SCRIPT_TIMEOUT_MS, folderSkill } from "./skill-tools.js";
import type { ToolResult } from "./tool-provider.js";
import { fail } from "./tool-result.js";

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
 * runs by itself if it is executable. Only skills from
 * trusted scopes may run scripts (`isScopeTrusted` with the host's `trust`). Timeout, output cap,
 * allowlisted environment and process-group kill are those of `runProcess` (`@skillctx/process`): the
 * result comes by the timeout even when the script leaves a daemon holding its output. Aborting `signal`
 * kills the script and rejects.
 */
export async function runSkillScript(host: SkillToolHost, request: ScriptRequest, signal?: AbortSignal): Promise<ToolResult> {
  const found = folderSkill(host, request.name);
  if ("error" in found) return fail(found.error);
  const { skill, dir } = found;
  if (!isScopeTrusted(skill.source.scope, host.trust, skill.source.origin)) {
    const scope = skill.source.scope;
    return fail(
      `Not run: the skill "${skill.name}" comes from the ${scope} scope, which is not trusted to run scripts. ` +
        `(The host can allow it with trust: { ${scope}: true }.)`,
    );
  }

  const checked = checkRelativePath(request.script);
  if (!checked.ok) return fail(`Refused ${JSON.stringify(request.script)}: ${checked.reason}.`);
  const inScripts = checked.path.startsWith("scripts/") ? checked.path.slice("scripts/".length) : checked.path;
  const shown = `scripts/${inScripts}`;
  if (inScripts === "" || inScripts === "scripts") return fail("Name a script file under scripts/, for example scripts/run.py.");
  const resolved = await resolveInside(path.join(dir, "scripts"), inScripts);
  if (!resolved.ok) {
    const where = resolved.missing === true ? `No script ${shown} in the skill "${skill.name}"` : `Refused ${shown}: ${resolved.reason.replace(/skill folder/, "skill's scripts/ folder")}`;
    return fail(`${where}.`);
  }
  if (!resolved.stats.isFile()) return fail(`Refused ${shown}: not a regular file.`);

  const runner = scriptRunner(inScripts, resolved.stats.mode);
  if (runner === undefined) {
    return fail(`No runner for ${shown}: use .py, .sh, .js, .mjs, .cjs, .ts, or make the file executable.`);
  }
  if ("missing" in runner) return fail(`Not run: ${shown} ${runner.missing}`);
  const settings = host.settings.scripts ?? {};
  const cwd = await realpath(dir);
  const env: Record<string, string> = runner.label === "python3" ? { PYTHONPATH: cwd, PYTHONDONTWRITEBYTECODE: "1" } : {};
  const result = await runProcess(
    runner.command(resolved.realPath, request.args ?? []),
    {
      cwd,
      env: { ...env, ...settings.env },
      timeoutMs: settings.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS,
      maxOutputBytes: settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      ...(signal !== undefined && { signal }),
    },
  );
  return formatRun(result, runner.label, shown, settings.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS, settings.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
}

/**
 * The runner for a script file by its extension and mode; `undefined` when there is none, `{ missing }` when
 * the runner needs a package that is not installed (tsx for TypeScript). `findTsx` finds tsx's CLI.
 */
export function scriptRunner(file: string, mode: number, findTsx: () => string | undefined = findTsxCli): Runner | { missing: string } | undefined {
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
function formatRun(result: ProcessResult, runner: string, script: string, timeoutMs: number, maxBytes: number): ToolResult {
  if (result.error !== undefined) return fail(`Could not start ${script} (${runner}): ${result.error}`);
  const parts: string[] = [];
  if (result.stdout !== "") parts.push(result.stdout.replace(/\n$/, ""));
  if (result.stderr !== "") parts.push(`[stderr]\n${result.stderr.replace(/\n$/, "")}`);
  if (result.stderrTruncated) parts.push(`[stderr cut at ${maxBytes} bytes]`);
  if (result.pipesHeldOpen) parts.push(`[a background process of ${script} kept its output open; reading stopped]`);
  let isError = false;
  if (result.timedOut) {
    parts.push(`[${script} timed out after ${timeoutMs} ms; it was stopped]`);
    isError = true;
  } else if (result.truncated) {
    parts.push(`[output cut at ${maxBytes} bytes; ${script} was stopped]`);
  } else if (result.exitSignal !== undefined) {
    parts.push(`[${script} was killed by ${result.exitSignal}]`);
    isError = true;
  } else if (result.exitCode !== 0) {
    parts.push(`[${script} exited with code ${result.exitCode ?? "?"}]`);
    isError = true;
  }
  if (parts.length === 0) parts.push(`(${script} printed nothing; exit code 0)`);
  const content = parts.join("\n");
  return isError ? { content, isError } : { content };
}
