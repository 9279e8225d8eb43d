/**
 * One call of a typed script tool: `main(**args)` in a child Python (the runner of `runner-source.ts`)
 * through `@skillctx/process` (argv only, allowlisted environment, timeout, output cap, group kill on
 * abort), then its printed output and return value as a tool result.
 */
import { randomBytes } from "@skillctx/core/internal";
import { runProcess } from "@skillctx/process";
import type { ProcessResult } from "@skillctx/process";
import type { Skill } from "@skillctx/core";
import type { ToolResult } from "../../context-types.js";
import type { EventSink } from "../../events/types.js";
import { emitScriptFinished, findUv, pythonEnv, runNotes, uvRunnerFile } from "./launch.js";
import { MAX_CALL_ARGUMENT_BYTES } from "../../limits.js";
import type { ScriptMetadata } from "./pep723.js";
import { RUNNER_SOURCE } from "./runner-source.js";
import { safeParseJson } from "@skillctx/core/internal";

/** What {@link callMain} runs. */
export interface MainCall {
  skill: Skill;
  /** The skill folder's real path: working directory and `PYTHONPATH`. */
  skillDir: string;
  /** The script's real path. */
  file: string;
  /** How results and events name it: `scripts/x.py`. */
  shown: string;
  /** Its PEP 723 block, when it has one (then `uv run --script` runs it when `uv` is on PATH). */
  metadata: ScriptMetadata | undefined;
  args: Record<string, unknown>;
  /** Top-level parameters annotated as tuples: their JSON arrays become tuples. */
  tuples: readonly string[];
  timeoutMs: number;
  maxOutputBytes: number;
  env?: Record<string, string> | undefined;
  /** The interpreter. @default "python3" */
  python?: string | undefined;
  events: EventSink;
  signal: AbortSignal;
}

/**
 * Runs `main(**args)` of a script and renders what it did: the printed output, then the return value
 * (a string as is, other values as JSON), stderr under a marker; an error result for an exception, a
 * non-zero exit, a timeout or a missing interpreter. Rejects only on abort (after the group is gone).
 */
export async function callMain(call: MainCall): Promise<ToolResult> {
  const payload = JSON.stringify(call.args);
  const payloadBytes = Buffer.byteLength(payload);
  if (payloadBytes > MAX_CALL_ARGUMENT_BYTES) {
    return {
      content: `Not run: the arguments of ${call.shown} are ${payloadBytes} bytes of JSON; at most ${MAX_CALL_ARGUMENT_BYTES} are passed.`,
      isError: true,
    };
  }
  const marker = `\u001eskillctx-result-${randomBytes(12).toString("hex")}`;
  const tail = [call.file, marker, payload, JSON.stringify(call.tuples)];
  const uv = call.metadata === undefined ? undefined : findUv();
  const python = call.python ?? "python3";
  const command =
    uv !== undefined && call.metadata !== undefined
      ? { file: uv, args: ["run", "--quiet", "--script", uvRunnerFile(call.metadata.block, RUNNER_SOURCE), ...tail] }
      : { file: python, args: ["-c", RUNNER_SOURCE, ...tail] };
  const result = await runProcess(command, {
    cwd: call.skillDir,
    env: { ...pythonEnv(call.skillDir), ...call.env },
    timeoutMs: call.timeoutMs,
    maxOutputBytes: call.maxOutputBytes,
    signal: call.signal,
  });
  emitScriptFinished(call.events, call.skill, call.shown, result);
  const rendered = render(result, call, marker, uv === undefined ? python : "uv");
  const deps = call.metadata?.dependencies ?? [];
  if (rendered.isError === true && uv === undefined && deps.length > 0) {
    rendered.content += `\n[uv is not on PATH, so ${call.shown} ran with python3 without its declared dependencies: ${deps.slice(0, 20).join(", ")}]`;
  }
  return rendered;
}

function render(result: ProcessResult, call: MainCall, marker: string, runner: string): ToolResult {
  if (result.error !== undefined)
    return { content: `Could not start ${call.shown} (${runner}): ${result.error}`, isError: true };
  const at = result.stdout.lastIndexOf(`\n${marker}\n`);
  const printed = (at === -1 ? result.stdout : result.stdout.slice(0, at)).replace(/\n$/, "");
  const parts: string[] = [];
  if (printed !== "") parts.push(printed);
  const { notes, failed } = runNotes(result, call.shown, call.timeoutMs, call.maxOutputBytes);
  let returned = false;
  if (at !== -1 && !failed && !result.truncated) {
    const value = parseValue(result.stdout.slice(at + marker.length + 2));
    returned = value.ok;
    if (!value.ok) parts.push(`[the return value of main() could not be read back]`);
    else if (typeof value.value === "string") parts.push(value.value);
    else if (value.value !== null || printed === "")
      parts.push(value.value === null ? "(main() returned None)" : JSON.stringify(value.value));
  }
  if (result.stderr !== "") parts.push(`[stderr]\n${result.stderr.replace(/\n$/, "")}`);
  parts.push(...notes);
  if (!returned && !failed && !result.truncated)
    parts.push(`[${call.shown}: main() did not return (the script exited first)]`);
  const isError = failed || result.truncated || !returned;
  const content = parts.join("\n");
  return isError ? { content, isError } : { content };
}

function parseValue(text: string): { ok: true; value: unknown } | { ok: false } {
  return safeParseJson(text);
}
