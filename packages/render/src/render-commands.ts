import { setMaxListeners } from "node:events";
import { SkillctxError } from "@skillctx/core";
import stripAnsi from "strip-ansi";
import { LineCounter, scanSpans } from "./find-commands.js";
import { mapConcurrent } from "./map-concurrent.js";
import { defaultUntrustedMarker, errorMarker, shownCommand, stderrExcerpt, truncationMarker } from "./markers.js";
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, runProcess } from "./run-process.js";
import type { ProcessResult, RunProcessOptions } from "./run-process.js";

/** Options for {@link renderCommands}. */
export interface RenderOptions {
  /** Working directory of every command (usually the repository or the skill's folder). */
  cwd: string;
  /** Per command; the whole process group is killed when it passes. `Infinity` means no limit. @default 10_000 */
  timeoutMs?: number;
  /** Bytes of UTF-8 kept of each command's stdout; past it reading stops and the command is killed. @default 51_200 */
  maxOutputBytes?: number;
  /** Added to the allowlisted environment (PATH, HOME, LANG, LC_*, TERM, USER, SHELL, TMPDIR); these values win. */
  env?: Record<string, string>;
  /** Commands running at once. @default 4 */
  concurrency?: number;
  /** Aborting kills every running command's process group; the promise then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /**
   * When false, nothing runs: each span renders as a marker saying it was not run, from `untrustedMarker`.
   * @default true
   */
  trusted?: boolean;
  /** The marker for a command that was not run because `trusted` is false. The default says the source is untrusted and how to allow it. */
  untrustedMarker?: (command: string) => string;
}

/** What happened to one command, in document order. */
export interface CommandRun {
  command: string;
  /** 1-based line of the `!` in the rendered text. */
  line: number;
  /** Exit code; undefined when killed (timeout, output cap), not started, or skipped. */
  exitCode: number | undefined;
  durationMs: number;
  /** stdout passed `maxOutputBytes` and was cut. */
  truncated: boolean;
  timedOut: boolean;
  /** Not run because the text is untrusted. */
  skipped?: boolean;
  /** Why the command's span became an `[Error: …]` marker. */
  error?: string;
}

/** The rendered text and what each command did. */
export interface RenderResult {
  text: string;
  runs: CommandRun[];
}

/**
 * Replaces every `` !`cmd` `` outside code (see {@link findCommands}) with the command's stdout, ANSI escapes
 * removed and whitespace trimmed; `` \!`cmd` `` becomes the literal `` !`cmd` ``. Output is never scanned again.
 *
 * Commands run through `/bin/sh -c` in `cwd`, up to `concurrency` at once, each in its own process group with an
 * allowlisted environment, a timeout and an output cap. Failures never throw: a non-zero exit, a timeout or a
 * command that could not start renders as an `[Error: …]` marker. Only an abort rejects, after every process is gone.
 *
 * @example
 * const { text, runs } = await renderCommands("On branch !`git branch --show-current`.", { cwd: repo });
 */
export async function renderCommands(text: string, options: RenderOptions): Promise<RenderResult> {
  checkOptions(options);
  const { signal } = options;
  signal?.throwIfAborted();
  const spans = scanSpans(text);
  const lines = new LineCounter(text);
  const commands = spans.flatMap((span) =>
    span.kind === "command" ? [{ command: span.command, line: lines.lineAt(span.start) }] : [],
  );

  let outcomes: Array<{ replacement: string; run: CommandRun }>;
  if (commands.length === 0) {
    outcomes = [];
  } else if (options.trusted === false) {
    const marker = options.untrustedMarker ?? defaultUntrustedMarker;
    outcomes = commands.map(({ command, line }) => ({
      replacement: marker(command),
      run: { command, line, exitCode: undefined, durationMs: 0, truncated: false, timedOut: false, skipped: true },
    }));
  } else {
    const limit = options.concurrency ?? 4;
    // One listener on the caller's signal; each running command listens to an internal one instead, so a high
    // concurrency does not trip Node's listener-leak warning on the caller's signal.
    const internal = new AbortController();
    setMaxListeners(limit + 1, internal.signal);
    const forward = (): void => internal.abort(signal?.reason);
    signal?.addEventListener("abort", forward, { once: true });
    const runOptions = { ...processOptions(options), signal: internal.signal };
    try {
      outcomes = await mapConcurrent(
        commands,
        limit,
        async ({ command, line }) => outcome(command, line, await runProcess(command, runOptions), options),
        internal.signal,
      );
    } finally {
      signal?.removeEventListener("abort", forward);
    }
  }

  let rendered = "";
  let position = 0;
  let next = 0;
  for (const span of spans) {
    rendered += text.slice(position, span.start);
    rendered += span.kind === "escape" ? span.literal : (outcomes[next++]?.replacement ?? "");
    position = span.end;
  }
  rendered += text.slice(position);
  return { text: rendered, runs: outcomes.map((o) => o.run) };
}

function processOptions(options: RenderOptions): RunProcessOptions {
  const result: RunProcessOptions = { cwd: options.cwd };
  if (options.env !== undefined) result.env = options.env;
  if (options.timeoutMs !== undefined) result.timeoutMs = options.timeoutMs;
  if (options.maxOutputBytes !== undefined) result.maxOutputBytes = options.maxOutputBytes;
  return result;
}

function outcome(command: string, line: number, result: ProcessResult, options: RenderOptions): { replacement: string; run: CommandRun } {
  const run: CommandRun = {
    command,
    line,
    exitCode: result.exitCode,
    durationMs: result.durationMs,
    truncated: result.truncated,
    timedOut: result.timedOut,
  };
  let failure: string | undefined;
  if (result.error !== undefined) {
    failure = `${shownCommand(command)} could not start: ${result.error}`;
  } else if (result.timedOut) {
    failure = `${shownCommand(command)} timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`;
  } else if (!result.truncated && result.exitCode !== 0) {
    const how = result.exitCode !== undefined ? `exited with code ${result.exitCode}` : `was killed by ${result.exitSignal ?? "a signal"}`;
    const excerpt = stderrExcerpt(cleanOutput(result.stderr));
    failure = `${shownCommand(command)} ${how}${excerpt === "" ? "" : `: ${excerpt}`}`;
  }
  if (failure !== undefined) {
    run.error = failure;
    return { replacement: errorMarker(failure), run };
  }
  const output = cleanOutput(result.stdout);
  if (!result.truncated) return { replacement: output, run };
  const marker = truncationMarker(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  return { replacement: output === "" ? marker : `${output}\n${marker}`, run };
}

/** ANSI escapes removed (including one cut in half at the byte cap), surrounding whitespace trimmed. */
function cleanOutput(output: string): string {
  return stripAnsi(output.replace(/\u001b(?:\[[0-?]*[ -/]*)?$/, "")).trim();
}

function checkOptions(options: RenderOptions): void {
  const problems: string[] = [];
  if (typeof options.cwd !== "string" || options.cwd === "") problems.push("cwd must be a non-empty path");
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) problems.push("timeoutMs must be a positive number");
  if (options.maxOutputBytes !== undefined && !(Number.isInteger(options.maxOutputBytes) && options.maxOutputBytes > 0)) {
    problems.push("maxOutputBytes must be a positive integer");
  }
  if (options.concurrency !== undefined && !(Number.isInteger(options.concurrency) && options.concurrency > 0)) {
    problems.push("concurrency must be a positive integer");
  }
  if (problems.length > 0) {
    throw new SkillctxError("INVALID_RENDER_OPTIONS", `Invalid render options: ${problems.join("; ")}.`, { data: { problems } });
  }
}
