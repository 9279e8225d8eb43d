import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { MCP_MAX_MESSAGE_BYTES } from "./limits.js";
import { FrameReader } from "./frame-reader.js";
import { spawnGroup, type GroupProcess, type ProcessExit, type ProcessScope } from "@skillctx/process";

/** Options for {@link ProcessTransport}. */
export interface ProcessTransportOptions {
  command: string;
  args?: string[] | undefined;
  /**
   * Added to the allowlisted environment (PATH, HOME, LANG, LC_*, TERM, USER, SHELL, TMPDIR; see
   * `processEnv` of `@skillctx/process`): the caller's variables and the server's own `env`. Nothing
   * else of the host's environment reaches the server. @default {}
   */
  env?: Record<string, string> | undefined;
  cwd?: string | undefined;
  /** How long each shutdown stage waits before the next, harsher one. @default 2000 */
  graceMs?: number | undefined;
  /** The owner's process scope: closing it closes this server too. @default undefined */
  scope?: ProcessScope | undefined;
  /** How many bytes of the child's stderr to keep for error messages. @default 4096 */
  stderrBytes?: number | undefined;
  /**
   * Longest message (one stdout line) the server may send, in bytes. A longer one is dropped as it
   * streams in and reported to `onerror` as an `McpFrameError` (`oversize`); so is a line that is not
   * JSON-RPC (`malformed`). The transport keeps reading; the bridge stops such a server.
   * @default 16 MiB (`MCP_MAX_MESSAGE_BYTES`)
   */
  maxMessageBytes?: number | undefined;
}

export type { ProcessExit } from "@skillctx/process";

/**
 * MCP stdio client transport. Compared with the SDK's `StdioClientTransport` it passes
 * the allowlisted environment plus `env` only, runs the server in its own process group
 * (through `spawnGroup` of `@skillctx/process`) so that wrappers (`npx`, `sh -c`, `uv run`)
 * and their children are stopped together, waits for the processes to be gone when
 * closing, and keeps a tail of stderr (instead of printing it over the host's output)
 * for error messages.
 *
 * `close()` stops the server in stages: end stdin, then SIGTERM, then SIGKILL, each
 * after `graceMs`; then any process left in the group gets the same treatment.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: ProcessTransportOptions;
  #frames: FrameReader | undefined;
  #child: GroupProcess | undefined;
  #started = false;
  #stderr = "";
  #exit: ProcessExit | undefined;
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
  async start(): Promise<void> {
    if (this.#started) throw new Error("ProcessTransport already started");
    this.#started = true;
    const { command, args = [], env, cwd, scope } = this.#options;
    let child: GroupProcess;
    try {
      child = await spawnGroup(
        { file: command, args },
        { env, cwd, scope, closeGraceMs: this.#options.graceMs ?? 2000 },
      );
    } catch (error) {
      this.#exit ??= { code: null, signal: null };
      throw error;
    }
    this.#child = child;
    if (this.#closing !== undefined) {
      // close() came while it was starting: it must not outlive the transport.
      await child.close();
      throw new Error("ProcessTransport closed while starting");
    }
    void child.exited.then((exit) => (this.#exit = exit));
    void child.closed.then(() => this.#fireClose());
    child.stdout.on("data", (chunk: Buffer) => this.#read(chunk));
    child.stderr.on("data", (chunk: Buffer) => this.#keepStderr(chunk));
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
    // Stages (stdin end, SIGTERM, SIGKILL to the group) and the clean-up of the group are spawnGroup's.
    await this.#child?.close();
    this.#frames?.clear();
    this.#fireClose();
  }

  // Framing and the size cap live in FrameReader: it never throws, so a hostile server cannot crash the host here.
  #read(chunk: Buffer): void {
    this.#frames ??= new FrameReader(
      { maxBytes: this.#options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES },
      {
        message: (message) => {
          // A throw here would escape the stream's "data" handler and end the host process.
          try {
            this.onmessage?.(message);
          } catch (error) {
            this.onerror?.(error as Error);
          }
        },
        problem: (error) => this.onerror?.(error),
      },
    );
    this.#frames.push(chunk);
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
