/**
 * How skill scripts start, shared by `run_skill_script` and typed script tools: the trust message, the
 * Python environment (the skill folder on `PYTHONPATH`), the PEP 723 rule (`uv run --script` when `uv`
 * is on `PATH`, else `python3` and a diagnostic naming what may be missing), the notes that say how a
 * run ended, and the `script.finished` event.
 */
import { createHash } from "@skillctx/core/internal";
import { accessSync, constants, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { diagnostic, isSkillTrusted } from "@skillctx/core";
import type { Diagnostic, Skill, Trust } from "@skillctx/core";
import type { ProcessResult } from "@skillctx/process";
import type { EventSink } from "../../events/types.js";
import type { ScriptMetadata } from "./pep723.js";

/** Why a script of an untrusted skill does not run, and the `trust` option that would allow it; undefined when trusted. */
export function untrustedScriptMessage(skill: Skill, trust: Trust | undefined): string | undefined {
  if (isSkillTrusted(skill, trust)) return undefined;
  const { scope, origin } = skill.source;
  const allow =
    scope === "remote"
      ? `trust: { remote: [${JSON.stringify(origin ?? "<source name>")}] }`
      : `trust: { ${scope}: true }`;
  const from = scope === "remote" ? `the remote source ${JSON.stringify(origin ?? "?")}` : `the ${scope} scope`;
  return `Not run: the skill "${skill.name}" comes from ${from}, which is not trusted to run scripts. (The host can allow it with ${allow}.)`;
}

/** Environment of a Python child: the skill folder on `PYTHONPATH` (sibling imports work), no `.pyc` files in it. */
export function pythonEnv(skillDir: string): Record<string, string> {
  return { PYTHONPATH: skillDir, PYTHONDONTWRITEBYTECODE: "1" };
}

let uvLookup: { pathVar: string | undefined; found: string | undefined } | undefined;

/** `uv`'s absolute path when it is an executable on the host's `PATH` (looked up again when `PATH` changes), else undefined. */
export function findUv(): string | undefined {
  const pathVar = process.env.PATH;
  if (uvLookup !== undefined && uvLookup.pathVar === pathVar) return uvLookup.found;
  let found: string | undefined;
  for (const dir of (pathVar ?? "").split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, "uv");
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      found = candidate;
      break;
    } catch {
      // not here
    }
  }
  uvLookup = { pathVar, found };
  return found;
}

/** The warning for a PEP 723 script that runs with plain `python3` because `uv` is not on `PATH`. */
export function unmanagedDependencies(meta: ScriptMetadata, file: string, shown: string): Diagnostic {
  const deps =
    meta.dependencies.length === 0
      ? "no dependencies"
      : `dependencies that may be missing: ${meta.dependencies.slice(0, 20).join(", ")}${meta.dependencies.length > 20 ? ", …" : ""}`;
  return diagnostic(
    "SCRIPT_DEPENDENCIES_UNMANAGED",
    "warning",
    `${shown} has a PEP 723 "# /// script" block (${deps}); uv is not on PATH, so it runs with python3. Install uv to run it in its own environment.`,
    { path: file, line: meta.line },
  );
}

let runnerDir: string | undefined;

/**
 * A file that holds `block` (a script's PEP 723 block) and then `source` (a runner program), so that
 * `uv run --script <file>` builds the script's environment and runs the runner in it. Written once per
 * content into a private folder of this process (mode 0700, removed at exit).
 */
export function uvRunnerFile(block: string, source: string): string {
  if (runnerDir === undefined) {
    runnerDir = mkdtempSync(path.join(tmpdir(), "skillctx-uv-"));
    const dir = runnerDir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  const text = `${block}\n${source}`;
  const file = path.join(runnerDir, `runner-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.py`);
  try {
    writeFileSync(file, text, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return file;
}

/** Notes on how a run ended (stderr cut, pipes held, timeout, output cap, signal, exit code), and whether that is an error. */
export function runNotes(
  result: ProcessResult,
  script: string,
  timeoutMs: number,
  maxBytes: number,
): { notes: string[]; failed: boolean } {
  const notes: string[] = [];
  if (result.stderrTruncated) notes.push(`[stderr cut at ${maxBytes} bytes]`);
  if (result.pipesHeldOpen) notes.push(`[a background process of ${script} kept its output open; reading stopped]`);
  if (result.timedOut) {
    notes.push(`[${script} timed out after ${timeoutMs} ms; it was stopped]`);
    return { notes, failed: true };
  }
  if (result.truncated) {
    notes.push(`[output cut at ${maxBytes} bytes; ${script} was stopped]`);
    return { notes, failed: false };
  }
  if (result.exitSignal !== undefined) {
    notes.push(`[${script} was killed by ${result.exitSignal}]`);
    return { notes, failed: true };
  }
  if (result.exitCode !== 0) {
    notes.push(`[${script} exited with code ${result.exitCode ?? "?"}]`);
    return { notes, failed: true };
  }
  return { notes, failed: false };
}

/** Emits `script.finished` for a run (built only when someone listens). */
export function emitScriptFinished(events: EventSink, skill: Skill, script: string, result: ProcessResult): void {
  if (!events.wants("script.finished")) return;
  events.emit({
    type: "script.finished",
    skill: skill.name,
    script,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    bytes: Buffer.byteLength(result.stdout) + Buffer.byteLength(result.stderr),
    truncated: result.truncated || result.stderrTruncated,
    timedOut: result.timedOut,
  });
}
