import { spawn, type ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { within, poll } from "./timing.js";
import { isGroupAlive, signalGroup, trackGroup, untrackGroup, USE_PROCESS_GROUPS } from "./process-group.js";

/** Options for {@link ProcessTransport}. */
export interface ProcessTransportOptions {
  command: string;
  args?: string[] | undefined;
  /** The child's whole environment (nothing is added to it). */
  env: Record<string, string>;
  cwd?: string | undefined;
  /** How long each shutdown stage waits before the next, harsher one. @default 2000 */
  graceMs?: number | undefined;
  /** How many bytes of the child's stderr to keep for error messages. @default 4096 */
  stderrBytes?: number | undefined;
}

/** How a child process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * MCP stdio client transport. Compared with the SDK's `StdioClientTransport` it passes
 * exactly the environment it is given, runs the server in its own process group so
 * that wrappers (`npx`, `sh -c`, `uv run`) and their children are stopped together,
 * waits for the processes to be gone when closing, and keeps a tail of stderr (instead
 * of printing it over the host's output) for error messages.
 *
 * `close()` stops the server in stages: end stdin, then SIGTERM, then SIGKILL, each
 * after `graceMs`; then any process left in the group gets the same treatment.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: ProcessTransportOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcess | undefined;
  #stderr = "";
  #exit: ProcessExit | undefined;
  #exited: Promise<void> = Promise.resolve();
  #closing: Promise<void> | undefined;
  #closeFired = false;

  constructor(options: ProcessTransportOptions) {
    this.#options = options;
  }

  /** Process id of the server while it runs. */
  get pid(): number | undefined {
    return this.#exit === undefined ? this.#child?.pid : undefined;
  }

  /** How the process ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** The last bytes the server wrote to stderr, trimmed. */
  get stderr(): string {
    return this.#stderr.trim();
  }

  /** Spawns the server. Rejects if it cannot be spawned (for example, command not found). */
  start(): Promise<void> {
    if (this.#child !== undefined) return Promise.reject(new Error("ProcessTransport already started"));
    const { command, args = [], env, cwd } = this.#options;
    const child = spawn(command, args, {
      env,
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: USE_PROCESS_GROUPS,
      windowsHide: true,
    });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once("exit", () => resolve()));

    child.once("exit", (code, signal) => {
      this.#exit = { code, signal };
      if (child.pid !== undefined) void this.#reapGroup(child.pid);
    });
    child.once("close", () => this.#fireClose());
    child.stdout!.on("data", (chunk: Buffer) => this.#read(chunk));
    child.stderr!.on("data", (chunk: Buffer) => this.#keepStderr(chunk));
    // Writing to a server that just died gives EPIPE; its exit is reported through onclose.
    child.stdin!.on("error", () => {});

    return new Promise((resolve, reject) => {
      child.once("spawn", () => {
        child.off("error", reject);
        if (child.pid !== undefined) trackGroup(child.pid);
        child.on("error", (error) => this.onerror?.(error));
        resolve();
      });
      child.once("error", (error) => {
        this.#exit ??= { code: null, signal: null };
        reject(error);
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (stdin == null || !stdin.writable || this.#exit !== undefined || this.#closing !== undefined) {
      return Promise.reject(new Error("Not connected"));
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Stops the server and everything it started; idempotent. Resolves once they are gone. */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    const child = this.#child;
    const pid = child?.pid;
    if (child === undefined || pid === undefined) {
      this.#fireClose();
      return;
    }
    const grace = this.#options.graceMs ?? 2000;
    if (this.#exit === undefined) {
      child.stdin?.end();
      await within(this.#exited, grace);
    }
    if (this.#exit === undefined) {
      signalGroup(pid, "SIGTERM");
      await within(this.#exited, grace);
    }
    if (this.#exit === undefined) {
      signalGroup(pid, "SIGKILL");
      await within(this.#exited, grace);
    }
    await this.#reapGroup(pid);
    this.#buffer.clear();
    this.#fireClose();
  }

  // Once the leader is gone, stop what it left in its group (SIGTERM, then SIGKILL).
  #reaping: Promise<void> | undefined;
  #reapGroup(pid: number): Promise<void> {
    this.#reaping ??= (async () => {
      if (USE_PROCESS_GROUPS && isGroupAlive(pid)) {
        const grace = this.#options.graceMs ?? 2000;
        signalGroup(pid, "SIGTERM");
        if (!(await poll(() => !isGroupAlive(pid), grace))) {
          signalGroup(pid, "SIGKILL");
          await poll(() => !isGroupAlive(pid), grace);
        }
      }
      untrackGroup(pid);
    })();
    return this.#reaping;
  }

  #read(chunk: Buffer): void {
    this.#buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  #keepStderr(chunk: Buffer): void {
    const max = this.#options.stderrBytes ?? 4096;
    this.#stderr += chunk.toString("utf8");
    if (this.#stderr.length > max) this.#stderr = this.#stderr.slice(-max);
  }

  #fireClose(): void {
    if (this.#closeFired) return;
    this.#closeFired = true;
    this.onclose?.();
  }
}
