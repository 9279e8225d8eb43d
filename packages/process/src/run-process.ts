import type { ChildProcess } from "node:child_process";
import { childProcess } from "./child-process.js";
import { statSync } from "node:fs";
import { processEnv } from "./env.js";
import { killGroup, USE_PROCESS_GROUPS } from "./group.js";
import {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  PIPE_EOF_GRACE_MS,
  SIGKILL_WAIT_MS,
} from "./limits.js";
import { OutputCollector } from "./output-collector.js";
import { trackGroup } from "./registry.js";
import { joinScope, ProcessClosedError, type ProcessScope } from "./scope.js";
import { within } from "./timing.js";

// setTimeout fires at once for delays above this; larger timeouts mean "no timeout".
const MAX_TIMER_MS = 2_147_483_647;

/** A shell command line (run with `/bin/sh -c`), or a program and its arguments (no shell). */
export type ProcessCommand = string | { file: string; args?: readonly string[] };

/** Options for {@link runProcess}. */
export interface RunProcessOptions {
  /** Working directory of the process. */
  cwd: string;
  /** Variables added to the allowlisted environment (see `processEnv`); these win. @default {} */
  env?: Record<string, string> | undefined;
  /**
   * After this, the process group is killed and the result returned, even when a process outside the
   * group still holds the output pipes. `Infinity` means no limit. @default 10_000
   */
  timeoutMs?: number | undefined;
  /**
   * Bytes kept of stdout and of stderr each. Once stdout passes it, reading stops and the group is killed.
   * Raise it for a program whose whole output is wanted (git listings), or stream with `onStdout`.
   * @default 51_200
   */
  maxOutputBytes?: number | undefined;
  /** Time between SIGTERM and SIGKILL when the group is killed. @default 500 */
  killGraceMs?: number | undefined;
  /** Aborting kills the process group; the promise then rejects with `signal.reason`, once the group is gone. */
  signal?: AbortSignal | undefined;
  /**
   * Receives stdout chunk by chunk instead of collecting it (the result's `stdout` is then `""`). The cap
   * still applies: past `maxOutputBytes` no chunk is passed on and the group is killed. If it throws, the
   * group is killed and `runProcess` rejects with that error.
   * @default undefined (collected)
   */
  onStdout?: ((chunk: Buffer) => void) | undefined;
  /** The owner's scope: closing it kills the process, and a closed scope starts nothing. @default undefined */
  scope?: ProcessScope | undefined;
}

/** What a process did. */
export interface ProcessResult {
  /** Exit code, or undefined when it was killed by a signal or never started. */
  exitCode: number | undefined;
  /** The signal that ended it, if one did (ours after a timeout or the output cap, or another). */
  exitSignal: string | undefined;
  /** stdout, at most `maxOutputBytes` of UTF-8, never ending inside a character (`""` with `onStdout`). */
  stdout: string;
  /** stderr, capped the same way. */
  stderr: string;
  /** stdout passed the cap; the process was stopped. */
  truncated: boolean;
  /** stderr passed the cap (the process was left running). */
  stderrTruncated: boolean;
  /** The timeout killed it. */
  timedOut: boolean;
  /**
   * When reading stopped, a process outside the group (a descendant that started its own session, such as
   * `setsid daemon &`) still held stdout or stderr open. It may still be running: no group kill reaches it.
   */
  pipesHeldOpen: boolean;
  durationMs: number;
  /** Set when the process could not start (missing program or working directory, …). */
  error?: string;
}

type StopReason = "timeout" | "abort" | "cap" | "closed" | "callback";

/**
 * Runs one process in its own process group with the allowlisted environment, a timeout and bounded
 * output, and returns what it did. Never throws for the process's own failures (non-zero exit, timeout,
 * failure to start); rejects only when `signal` is aborted (with `signal.reason`) or its `scope` is closed
 * (with a `ProcessClosedError`), after the group is gone.
 *
 * Nothing of the group is left running when the promise settles: on timeout, abort, close or full stdout
 * the whole group gets SIGTERM, then SIGKILL after `killGraceMs`; when the process exits, whatever it left
 * in its group is stopped the same way. The result comes on time even when a descendant that left the
 * group (`setsid`) keeps the pipes open: after a stop, reading ends once the group is gone; after a normal
 * exit, the pipes are awaited until the timeout at most. Either way `pipesHeldOpen` says so.
 *
 * Spawned with `node:child_process` rather than execa: execa's promise waits for the stdio streams to
 * close, so a descendant holding the pipes would keep it pending past any timeout.
 *
 * @example
 * const r = await runProcess({ file: "node", args: ["script.mjs"] }, { cwd: skillDir, timeoutMs: 5_000 });
 * const s = await runProcess("git status --short", { cwd: repo });
 */
export async function runProcess(command: ProcessCommand, options: RunProcessOptions): Promise<ProcessResult> {
  const { signal, scope } = options;
  signal?.throwIfAborted();
  if (scope?.closed === true) throw new ProcessClosedError();
  const [file, args] = typeof command === "string" ? ["/bin/sh", ["-c", command]] : [command.file, command.args ?? []];
  const started = performance.now();

  let child: ChildProcess;
  try {
    child = childProcess().spawn(file, args, {
      cwd: options.cwd,
      env: processEnv(options.env),
      detached: USE_PROCESS_GROUPS, // the child leads its own process group, so the whole group can be killed
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
  } catch (error) {
    // Arguments no process can take (a NUL byte, …) throw synchronously.
    return notStarted(started, messageOf(error));
  }
  const spawnError = await new Promise<Error | undefined>((resolve) => {
    child.once("spawn", () => resolve(undefined));
    child.once("error", resolve);
  });
  child.on("error", () => {}); // later errors (a failed kill) are not ours to throw
  if (spawnError !== undefined || child.pid === undefined) {
    signal?.throwIfAborted();
    return notStarted(started, spawnErrorMessage(spawnError, file, options.cwd));
  }
  return supervise(child, child.pid, started, options);
}

async function supervise(
  child: ChildProcess,
  pgid: number,
  started: number,
  options: RunProcessOptions,
): Promise<ProcessResult> {
  const { signal, onStdout } = options;
  const timeoutMs = nonNegative(options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const maxBytes = nonNegative(options.maxOutputBytes, DEFAULT_MAX_OUTPUT_BYTES);
  const graceMs = nonNegative(options.killGraceMs, DEFAULT_KILL_GRACE_MS);
  const stdout = new OutputCollector(maxBytes, { keep: onStdout === undefined });
  const stderr = new OutputCollector(maxBytes);
  const streams = [child.stdout, child.stderr].filter((s) => s !== null);

  let stopReason: StopReason | undefined;
  let callbackError: unknown;
  let onStop: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (onStop = resolve));
  const stop = (reason: StopReason): void => {
    if (stopReason !== undefined) return;
    stopReason = reason;
    // Stop reading while the group is killed: a flood is not worth the CPU, and a blocked writer still dies.
    for (const stream of streams) stream.pause();
    onStop?.();
  };
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, exitSignal) => {
      exit = { code, signal: exitSignal };
      resolve();
    }),
  );
  let ended = 0;
  const eof = new Promise<void>((resolve) => {
    for (const stream of streams) stream.once("end", () => ++ended === streams.length && resolve());
    if (streams.length === 0) resolve();
  });
  let onDeadline: (() => void) | undefined;
  const deadline = new Promise<void>((resolve) => (onDeadline = resolve));

  child.stdout?.on("data", (chunk: Buffer) => {
    const kept = stdout.push(chunk);
    if (onStdout !== undefined && kept.length > 0 && stopReason !== "callback") {
      // A throw here would escape the stream's "data" handler and end the host process.
      try {
        onStdout(kept);
      } catch (error) {
        callbackError = error;
        stop("callback");
      }
    }
    if (stdout.truncated) stop("cap");
  });
  child.stderr?.on("data", (chunk: Buffer) => void stderr.push(chunk));

  // At the deadline a running process is stopped; one that already exited only has its pipes waited for.
  const timer =
    timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => (exit === undefined ? stop("timeout") : onDeadline?.()), Math.max(0, timeoutMs))
      : undefined;
  const onAbort = (): void => stop("abort");
  signal?.addEventListener("abort", onAbort, { once: true });
  let settled: Promise<void> | undefined;
  const group = {
    pgid,
    close: () => {
      stop("closed");
      return settled ?? Promise.resolve();
    },
  };
  const untrack = trackGroup(group);
  const leaveScope = joinScope(options.scope, group);
  if (signal?.aborted === true) stop("abort");

  let eofSeen = false;
  void eof.then(() => (eofSeen = true));
  const work = async (): Promise<void> => {
    await Promise.race([exited, stopped]);
    // Finished or stopped, the group goes: what it left running in the background, or all of it.
    await killGroup(pgid, { graceMs, leaderExit: exited });
    // After a normal exit the pipes are read to their end, until the deadline at most.
    if (stopReason === undefined) await Promise.race([eof, stopped, deadline]);
    // Once the group is gone, end of file comes at once, unless a process that left the group holds a pipe.
    if (!eofSeen && stopReason !== undefined) {
      for (const stream of streams) stream.resume();
      await within(eof, PIPE_EOF_GRACE_MS);
    }
    await within(exited, SIGKILL_WAIT_MS); // for the exit code or signal
  };
  settled = work();
  try {
    await settled;
  } finally {
    for (const stream of streams) stream.destroy();
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    untrack();
    leaveScope();
  }
  if (stopReason === "abort" && signal !== undefined) throw signal.reason;
  if (stopReason === "closed") throw new ProcessClosedError();
  if (stopReason === "callback") throw callbackError;
  return {
    exitCode: exit?.code ?? undefined,
    exitSignal: exit?.signal ?? undefined,
    stdout: stdout.text(),
    stderr: stderr.text(),
    truncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    timedOut: stopReason === "timeout",
    pipesHeldOpen: !eofSeen,
    durationMs: performance.now() - started,
  };
}

/** A usable number option: the default for undefined or NaN, 0 for a negative value (`Infinity` stays). */
function nonNegative(value: number | undefined, fallback: number): number {
  return value === undefined || Number.isNaN(value) ? fallback : Math.max(0, value);
}

function notStarted(started: number, error: string): ProcessResult {
  return {
    exitCode: undefined,
    exitSignal: undefined,
    stdout: "",
    stderr: "",
    truncated: false,
    stderrTruncated: false,
    timedOut: false,
    pipesHeldOpen: false,
    durationMs: performance.now() - started,
    error,
  };
}

/** Node says `spawn /bin/sh ENOENT` for a missing working directory too; name the one that is missing. */
function spawnErrorMessage(error: Error | undefined, file: string, cwd: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") {
    let cwdOk = false;
    try {
      cwdOk = statSync(cwd).isDirectory();
    } catch {
      // missing
    }
    if (!cwdOk) return `working directory not found: ${cwd} (${code})`;
    return `program not found: ${file} (${code})`;
  }
  return error === undefined ? "the process did not start" : messageOf(error);
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
