import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { execa } from "execa";
import { commandEnv } from "./command-env.js";
import { OutputCollector } from "./output-collector.js";

/** @default 10_000 */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** @default 51_200 */
export const DEFAULT_MAX_OUTPUT_BYTES = 51_200;
/** @default 500 */
export const DEFAULT_KILL_GRACE_MS = 500;

// setTimeout fires at once for delays above this; larger timeouts mean "no timeout".
const MAX_TIMER_MS = 2_147_483_647;
const POLL_MS = 10;

/** A shell command line (run with `/bin/sh -c`), or a program and its arguments (no shell). */
export type ProcessCommand = string | { file: string; args?: readonly string[] };

/** Options for {@link runProcess}. */
export interface RunProcessOptions {
  /** Working directory of the process. */
  cwd: string;
  /** Variables added to the allowlisted environment (see {@link commandEnv}); these win. */
  env?: Record<string, string>;
  /** After this, the process group is killed. `Infinity` means no limit. @default 10_000 */
  timeoutMs?: number;
  /** Bytes kept of stdout and of stderr each. Once stdout passes it, reading stops and the group is killed. @default 51_200 */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL when the group is killed. @default 500 */
  killGraceMs?: number;
  /** Aborting kills the process group; the promise then rejects with `signal.reason`. */
  signal?: AbortSignal;
}

/** What a process did. */
export interface ProcessResult {
  /** Exit code, or undefined when it was killed by a signal or never started. */
  exitCode: number | undefined;
  /** The signal that ended it, if one did (ours after a timeout or the output cap, or another). */
  exitSignal: string | undefined;
  /** stdout, at most `maxOutputBytes` of UTF-8, never ending inside a character. */
  stdout: string;
  /** stderr, capped the same way. */
  stderr: string;
  /** stdout passed the cap; the process was stopped. */
  truncated: boolean;
  /** stderr passed the cap (the process was left running). */
  stderrTruncated: boolean;
  /** The timeout killed it. */
  timedOut: boolean;
  durationMs: number;
  /** Set when the process could not start (missing program or working directory, …). */
  error?: string;
}

/**
 * Runs one process in its own process group with a bounded environment, timeout and output, and returns
 * what it did. Never throws for the process's own failures (non-zero exit, timeout, failure to start);
 * rejects only when `signal` is aborted, after the group is gone.
 *
 * Nothing is left running when the promise settles: on timeout, abort or full stdout the whole group gets
 * SIGTERM, then SIGKILL after `killGraceMs`; when the process exits, whatever it left in its group in the
 * background is stopped the same way. (A grandchild that starts its own session escapes any group kill.)
 *
 * @example
 * const r = await runProcess({ file: "node", args: ["script.mjs"] }, { cwd: skillDir, timeoutMs: 5_000 });
 * const s = await runProcess("git status --short", { cwd: repo });
 */
export async function runProcess(command: ProcessCommand, options: RunProcessOptions): Promise<ProcessResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const [file, args] = typeof command === "string" ? ["/bin/sh", ["-c", command]] : [command.file, command.args ?? []];

  const started = performance.now();
  const stdout = new OutputCollector(maxBytes);
  const stderr = new OutputCollector(maxBytes);
  const subprocess = execa(file, args, {
    cwd: options.cwd,
    env: commandEnv(options.env),
    extendEnv: false,
    detached: true, // the child leads its own process group, so the whole group can be killed
    cleanup: false,
    stdin: "ignore",
    buffer: false,
    reject: false,
    windowsHide: true,
  });
  const pgid = subprocess.pid;

  let stopReason: "timeout" | "abort" | "cap" | undefined;
  let exited = false;
  let reaping: Promise<void> | undefined;
  const reap = (): Promise<void> => (reaping ??= pgid === undefined ? Promise.resolve() : killGroup(pgid, graceMs));
  const stop = (reason: "timeout" | "abort" | "cap"): void => {
    if (reason === "timeout" && exited) return; // finished in time; only its pipes were still closing
    stopReason ??= reason;
    void reap();
  };

  // Keep draining both pipes after the cap (the collector drops the bytes) so the writer never blocks.
  subprocess.stdout?.on("data", (chunk: Buffer) => {
    if (!stdout.push(chunk)) stop("cap");
  });
  subprocess.stderr?.on("data", (chunk: Buffer) => void stderr.push(chunk));
  subprocess.once("exit", () => {
    exited = true;
    void reap();
  });
  const timer =
    pgid !== undefined && timeoutMs <= MAX_TIMER_MS ? setTimeout(() => stop("timeout"), Math.max(0, timeoutMs)) : undefined;
  const onAbort = (): void => stop("abort");
  signal?.addEventListener("abort", onAbort, { once: true });
  if (pgid !== undefined) liveGroups.track(pgid);

  try {
    const result = await subprocess;
    await reaping;
    if (stopReason === "abort" && signal !== undefined) throw signal.reason;
    const durationMs = performance.now() - started;
    if (pgid === undefined) {
      const error = (result.originalMessage ?? result.message ?? "unknown error").split("\n")[0] ?? "unknown error";
      return {
        exitCode: undefined,
        exitSignal: undefined,
        stdout: "",
        stderr: "",
        truncated: false,
        stderrTruncated: false,
        timedOut: false,
        durationMs,
        error,
      };
    }
    return {
      exitCode: result.exitCode,
      exitSignal: result.signal,
      stdout: stdout.text(),
      stderr: stderr.text(),
      truncated: stdout.truncated,
      stderrTruncated: stderr.truncated,
      timedOut: stopReason === "timeout",
      durationMs,
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    if (pgid !== undefined) liveGroups.untrack(pgid);
  }
}

/** SIGTERM to the group, SIGKILL after the grace period if a member is still alive; resolves when none is. */
async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  const deadline = performance.now() + graceMs;
  while (groupAlive(pgid)) {
    if (performance.now() >= deadline) {
      signalGroup(pgid, "SIGKILL");
      // Bounded: a process stuck in uninterruptible sleep must not hang us.
      for (let waited = 0; groupAlive(pgid) && waited < 1_000; waited += POLL_MS) await delay(POLL_MS);
      return;
    }
    await delay(POLL_MS);
  }
}

/** Sends a signal to every process of the group; false when the group no longer exists. */
function signalGroup(pgid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, name);
    return true;
  } catch (error) {
    // EPERM: a member we may not signal (e.g. setuid) still exists.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a member of the group is still running. `kill(-pgid, 0)` also counts zombies, which linger until
 * init reaps them (late in some sandboxes, never under a container whose PID 1 does not reap), so on Linux
 * the process table decides.
 */
function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== "linux") return true;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 0x30 || entry.charCodeAt(0) > 0x39) continue;
    try {
      // Synchronous on purpose: /proc reads are in-memory, and one scan takes about 2 ms for 100 processes.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
    } catch {
      // it ended while we looked
    }
  }
  return false;
}

/** Groups still running; killed if this process exits first (detached children outlive their parent). */
const liveGroups = {
  groups: new Set<number>(),
  hooked: false,
  track(pgid: number): void {
    this.groups.add(pgid);
    if (!this.hooked) {
      this.hooked = true;
      process.on("exit", () => {
        for (const group of this.groups) signalGroup(group, "SIGKILL");
      });
    }
  },
  untrack(pgid: number): void {
    this.groups.delete(pgid);
  },
};
