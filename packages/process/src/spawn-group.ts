import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { childProcess } from "./child-process.js";
import type { Readable, Writable } from "node:stream";
import { processEnv } from "./env.js";
import { killGroup, signalGroup, USE_PROCESS_GROUPS } from "./group.js";
import { DEFAULT_CLOSE_GRACE_MS } from "./limits.js";
import { trackGroup } from "./registry.js";
import type { ProcessCommand } from "./run-process.js";
import { joinScope, ProcessClosedError, type ProcessScope } from "./scope.js";
import { within } from "./timing.js";

/** Options of {@link spawnGroup}. */
export interface SpawnGroupOptions {
  /** Working directory of the child. */
  cwd?: string | undefined;
  /** Variables added to the allowlisted environment (see `processEnv`); these win. @default {} */
  env?: Record<string, string> | undefined;
  /**
   * Each stage of `close()` (stdin end, SIGTERM, SIGKILL) waits this long for the child to exit; after the
   * child exits by itself, what it left in its group gets as long between SIGTERM and SIGKILL.
   * @default 2_000
   */
  closeGraceMs?: number | undefined;
  /** The owner's scope: closing it closes the child, and a closed scope starts nothing. @default undefined */
  scope?: ProcessScope | undefined;
}

/** How a child process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A long-lived child with piped stdio, leading its own process group. */
export interface GroupProcess {
  /** Process id of the child, which is also its process group id. */
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** How the child ended, once it has. */
  readonly exit: ProcessExit | undefined;
  /** Resolves when the child has exited (before its group is cleaned up). */
  readonly exited: Promise<ProcessExit>;
  /**
   * Resolves when it is all over: the child exited, what it left in its group is gone, and its pipes are
   * closed (or were closed by us because a process that left the group still held them).
   */
  readonly closed: Promise<ProcessExit>;
  /**
   * Stops the child in stages (end stdin, then SIGTERM to the group, then SIGKILL, each after
   * `closeGraceMs`), then whatever is left of its group; resolves with {@link closed}. Idempotent.
   */
  close(): Promise<void>;
  /** Same as `close()`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a long-lived child (an MCP stdio server) in its own process group, with piped stdio and the
 * allowlisted environment, and resolves once it runs. Rejects with the spawn error (its `code`, e.g.
 * `ENOENT`) when it cannot start, or with a `ProcessClosedError` when `scope` is closed.
 *
 * The child is registered: `scope.close()`, `closeAll()` and the exit of this process stop it. When the
 * child exits by itself, the rest of its group is stopped too (SIGTERM, then SIGKILL).
 *
 * @example
 * const server = await spawnGroup({ file: "npx", args: ["-y", "some-mcp-server"] }, { cwd, env: { TOKEN } });
 * server.stdout.on("data", onData);
 * await server.close();
 */
export async function spawnGroup(command: ProcessCommand, options: SpawnGroupOptions = {}): Promise<GroupProcess> {
  if (options.scope?.closed === true) throw new ProcessClosedError();
  const [file, args] = typeof command === "string" ? ["/bin/sh", ["-c", command]] : [command.file, command.args ?? []];
  const child = childProcess().spawn(file, args, {
    cwd: options.cwd,
    env: processEnv(options.env),
    detached: USE_PROCESS_GROUPS,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  const spawnError = await new Promise<Error | undefined>((resolve) => {
    child.once("spawn", () => resolve(undefined));
    child.once("error", resolve);
  });
  if (spawnError !== undefined || child.pid === undefined) throw spawnError ?? new Error(`${file} did not start`);
  child.on("error", () => {}); // a failed kill later on is not worth a crash
  child.stdin.on("error", () => {}); // EPIPE from a child that just died: its exit is reported instead
  return new Group(child, child.pid, options);
}

class Group implements GroupProcess {
  readonly pid: number;
  readonly exited: Promise<ProcessExit>;
  readonly closed: Promise<ProcessExit>;
  #exit: ProcessExit | undefined;
  #closing: Promise<void> | undefined;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #graceMs: number;

  constructor(child: ChildProcessWithoutNullStreams, pid: number, options: SpawnGroupOptions) {
    this.#child = child;
    this.pid = pid;
    this.#graceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        resolve(this.#exit);
      }),
    );
    const eof = new Promise<void>((resolve) => {
      let open = 2;
      for (const stream of [child.stdout, child.stderr]) stream.once("close", () => --open === 0 && resolve());
    });
    const live = { pgid: pid, close: () => this.close() };
    const untrack = trackGroup(live);
    this.closed = this.#cleanUp(eof, () => {
      untrack();
      leaveScope();
    });
    const leaveScope = joinScope(options.scope, live);
  }

  // Once the child exited: stop what it left in its group, then let go of the pipes.
  async #cleanUp(eof: Promise<void>, forget: () => void): Promise<ProcessExit> {
    const exit = await this.exited;
    await killGroup(this.pid, { graceMs: this.#graceMs });
    // Only a process that left the group can still hold the pipes now; do not wait on it for long.
    await within(eof, this.#graceMs);
    for (const stream of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) stream.destroy();
    forget();
    return exit;
  }

  get stdin(): Writable {
    return this.#child.stdin;
  }

  get stdout(): Readable {
    return this.#child.stdout;
  }

  get stderr(): Readable {
    return this.#child.stderr;
  }

  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #shutdown(): Promise<void> {
    const grace = this.#graceMs;
    if (this.#exit === undefined) {
      this.#child.stdin.end();
      await within(this.exited, grace);
    }
    if (this.#exit === undefined) {
      signalGroup(this.pid, "SIGTERM");
      await within(this.exited, grace);
    }
    if (this.#exit === undefined) {
      signalGroup(this.pid, "SIGKILL");
      await within(this.exited, grace);
    }
    await within(this.closed, 2 * grace + 1_000);
  }
}
