import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { diagnostic, type Diagnostic } from "@skillctx/core";
import { createTransport, exitText, sseFrameError, StartupTimeout, startFailure } from "./connection-start.js";
import type { StopReason } from "./connection-start.js";
import { McpFrameError } from "./frame-reader.js";
import { listAllTools, type ToolListing } from "./list-tools.js";
import { ProcessTransport } from "./process-transport.js";
import { resultToText } from "./result-text.js";
import type { ConnectionContext, DeclaredServer, McpCallResult, McpServerState } from "./types.js";
import { within } from "@skillctx/process/internal";
import type { DiagnosticCode } from "@skillctx/core";

const CLIENT_INFO = { name: "skillctx", version: "0.1.0" };

/** One declared server: its client, its process (stdio) and its tools. */
export class ServerConnection {
  readonly server: DeclaredServer;
  state: McpServerState;
  /** The server's tools as it listed them; empty unless running or restartable. */
  tools: Tool[] = [];
  /** Why the last start failed. */
  failure: Diagnostic | undefined;

  readonly #ctx: ConnectionContext;
  #client: Client | undefined;
  #transport: Transport | undefined;
  #starting: Promise<Diagnostic | undefined> | undefined;
  #stop = new AbortController();
  #restarts = 0;
  #refreshing: Promise<void> | undefined;
  #refreshAgain = false;
  #lastExit = "";
  #closed: Promise<void> = Promise.resolve();
  /** Why the bridge stopped the current process (a message over the cap, too many malformed ones). */
  #stopped: StopReason | undefined;
  #malformed = 0;
  readonly #noted = new Set<string>();

  constructor(server: DeclaredServer, ctx: ConnectionContext) {
    this.server = server;
    this.#ctx = ctx;
    this.state = !server.trusted ? "untrusted" : server.config.enabled === false ? "disabled" : "idle";
  }

  /** Process id of a running stdio server. */
  get pid(): number | undefined {
    return this.#transport instanceof ProcessTransport ? this.#transport.pid : undefined;
  }

  /**
   * Starts the server and lists its tools, once; concurrent calls share the attempt.
   * Resolves to a diagnostic when it cannot run. Rejects only if `signal` aborts.
   */
  start(signal?: AbortSignal): Promise<Diagnostic | undefined> {
    if (this.state === "running") return Promise.resolve(undefined);
    if (this.state === "failed") return Promise.resolve(this.failure);
    if (this.state === "untrusted") {
      const source =
        this.server.skill === undefined
          ? "it is declared by the project's MCP configuration"
          : "its skill comes from an untrusted source";
      return Promise.resolve(
        this.#notStarted("MCP_SERVER_UNTRUSTED", `${source} (trust the project scope to allow it)`),
      );
    }
    if (this.state === "disabled")
      return Promise.resolve(this.#notStarted("MCP_SERVER_DISABLED", "it is disabled (enabled: false)"));
    if (this.state === "closed") return Promise.resolve(this.#notStarted("MCP_BRIDGE_CLOSED", "the bridge is closed"));
    this.#starting ??= this.#connect(signal).finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  /** Calls one of the server's tools; failures come back as error results naming the server. */
  async call(
    tool: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal | undefined; timeoutMs?: number | undefined },
  ): Promise<McpCallResult> {
    const name = this.server.name;
    if (this.state === "exited") {
      if (this.#restarts >= this.#ctx.maxRestarts) {
        return error(
          `MCP server "${name}" is not running: it ${this.#lastExit} and was already restarted ${times(this.#restarts)}.`,
        );
      }
      this.#restarts++;
      this.state = "idle";
      const failed = await this.start(options.signal);
      if (failed !== undefined)
        return error(`MCP server "${name}" ${this.#lastExit} and could not be restarted: ${failed.message}`);
    } else if (this.state === "starting") {
      await this.start(options.signal);
    }
    const client = this.#client;
    if (this.state !== "running" || client === undefined)
      return error(`MCP server "${name}" is not running (${this.state}).`);
    if (!this.tools.some((t) => t.name === tool)) return error(`MCP server "${name}" has no tool "${tool}".`);

    const timeout = options.timeoutMs ?? this.server.config.timeout ?? this.#ctx.callTimeoutMs;
    const caller = options.signal;
    caller?.throwIfAborted();
    // A per-call controller: the SDK never removes its abort listener from the signal it gets.
    const local = caller === undefined ? undefined : new AbortController();
    const forward = (): void => local?.abort(caller?.reason);
    caller?.addEventListener("abort", forward, { once: true });
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        ...(local !== undefined && { signal: local.signal }),
        ...(timeout !== undefined && { timeout }),
      });
      return resultToText(result as Record<string, unknown>, { maxChars: this.#ctx.limits.maxResultChars });
    } catch (thrown) {
      if (caller?.aborted) throw caller.reason;
      // The SDK rejects in-flight calls with "Connection closed" once the process is gone.
      if (this.#client !== client) {
        if ((this.state as McpServerState) === "closed")
          return error(`MCP server "${name}" was stopped (bridge closed) during the call to "${tool}".`);
        const next =
          this.#restarts < this.#ctx.maxRestarts
            ? "it will be restarted on the next call"
            : "it will not be restarted again";
        return error(`MCP server "${name}" ${this.#lastExit} during the call to "${tool}"; ${next}.`);
      }
      if (thrown instanceof McpError && thrown.code === ErrorCode.RequestTimeout) {
        return error(`MCP tool "${tool}" on server "${name}" timed out after ${timeout ?? 60_000} ms.`);
      }
      return error(`MCP server "${name}" failed the call to "${tool}": ${describe(thrown)}`);
    } finally {
      caller?.removeEventListener("abort", forward);
    }
  }

  /** Stops the server (stdio: stdin end → SIGTERM → SIGKILL); idempotent. */
  close(): Promise<void> {
    if (this.state !== "closed") {
      this.state = "closed";
      this.tools = [];
      this.#stop.abort(new Error("closed"));
      const starting = this.#starting;
      this.#closed = (async () => {
        await starting?.catch(() => {});
        await this.#disconnect();
      })();
    }
    return this.#closed;
  }

  async #connect(signal: AbortSignal | undefined): Promise<Diagnostic | undefined> {
    const { name, config } = this.server;
    this.state = "starting";
    const attempt = new AbortController();
    const timeoutMs = this.#ctx.startupTimeoutMs;
    const timer = setTimeout(() => attempt.abort(new StartupTimeout()), timeoutMs);
    const onAbort = (): void => attempt.abort(signal?.reason);
    const onStop = (): void => attempt.abort(this.#stop.signal.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    this.#stop.signal.addEventListener("abort", onStop, { once: true });

    const client = new Client(CLIENT_INFO, { capabilities: {} });
    // Frame problems get diagnostics; the rest is protocol noise (EPIPE, late responses): exits surface through onclose.
    client.onerror = (error) => this.#onError(client, error);
    client.onclose = () => this.#onClose(client);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#refresh(client));
    const { limits } = this.#ctx;
    const transport = createTransport(config, {
      env: this.#ctx.env,
      graceMs: this.#ctx.graceMs,
      maxMessageBytes: limits.maxMessageBytes,
      onOversize: (error) => this.#onError(client, error),
    });
    this.#client = client;
    this.#transport = transport;
    this.#stopped = undefined;
    this.#malformed = 0;
    try {
      signal?.throwIfAborted();
      // The SDK's own timeout is a backstop; ours (the abort above) fires first.
      await client.connect(transport, { signal: attempt.signal, timeout: timeoutMs + 1000 });
      const listing = await listAllTools(client, {
        ...this.#listLimits(),
        signal: attempt.signal,
        timeout: timeoutMs + 1000,
      });
      this.#noteListing(listing);
      this.tools = listing.tools;
      this.state = "running";
      this.failure = undefined;
      this.#ctx.toolsChanged();
      return undefined;
    } catch (thrown) {
      const hadTools = this.tools.length > 0;
      this.tools = [];
      await this.#disconnect();
      if (hadTools) this.#ctx.toolsChanged();
      if (this.#stop.signal.aborted)
        return this.#notStarted("MCP_BRIDGE_CLOSED", "the bridge was closed while it started");
      if (signal?.aborted) {
        this.state = "idle";
        throw signal.reason;
      }
      const { code, message } = startFailure({
        name,
        transport,
        timeoutMs,
        timedOut: attempt.signal.reason instanceof StartupTimeout,
        stopped: this.#stopped as StopReason | undefined, // set by #onError while connect() awaited
        why: () => startError(thrown, config.type === "stdio" ? config.cwd : undefined),
      });
      this.state = "failed";
      this.failure = diagnostic(code, "error", message, { path: this.server.path });
      this.#ctx.report(this.failure);
      return this.failure;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      this.#stop.signal.removeEventListener("abort", onStop);
    }
  }

  // The connection closed without close(): the server exited or the link broke.
  #onClose(client: Client): void {
    if (this.#client !== client || this.state !== "running") return;
    const transport = this.#transport;
    this.#client = undefined;
    this.state = "exited";
    if (this.#stopped !== undefined) {
      this.#lastExit = `was stopped because it ${this.#stopped.reason}`; // reported when it was stopped
    } else {
      const exit = transport instanceof ProcessTransport ? transport.exit : undefined;
      this.#lastExit = exit !== undefined ? `exited with ${exitText(exit)}` : "closed the connection";
      const stderr =
        transport instanceof ProcessTransport && transport.stderr !== "" ? `; stderr: ${transport.stderr}` : "";
      this.#ctx.report(
        diagnostic("MCP_SERVER_EXITED", "warning", `MCP server "${this.server.name}" ${this.#lastExit}${stderr}`, {
          path: this.server.path,
        }),
      );
    }
    void transport?.close(); // reap what it left behind
    if (this.#restarts >= this.#ctx.maxRestarts) {
      this.tools = [];
      this.#ctx.toolsChanged();
    }
  }

  // tools/list_changed: fetch the list again; a burst of notifications costs at most two fetches.
  #refresh(client: Client): Promise<void> {
    if (this.#refreshing !== undefined) {
      this.#refreshAgain = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      do {
        this.#refreshAgain = false;
        try {
          const timeout = this.#ctx.startupTimeoutMs;
          // One deadline for the whole listing, so a server cannot stall every page in turn.
          const signal = AbortSignal.any([this.#stop.signal, AbortSignal.timeout(timeout)]);
          const listing = await listAllTools(client, { ...this.#listLimits(), signal, timeout });
          if (this.#client !== client || this.state !== "running") return;
          this.#noteListing(listing);
          const tools = listing.tools;
          if (JSON.stringify(tools) !== JSON.stringify(this.tools)) {
            this.tools = tools;
            this.#ctx.toolsChanged();
          }
        } catch (thrown) {
          if (this.#client !== client || this.state !== "running") return;
          this.#ctx.report(
            diagnostic(
              "MCP_TOOLS_LIST_FAILED",
              "warning",
              `MCP server "${this.server.name}": refreshing its tools failed: ${describe(thrown)}`,
              { path: this.server.path },
            ),
          );
        }
      } while (this.#refreshAgain);
    })().finally(() => (this.#refreshing = undefined));
    return this.#refreshing;
  }

  // A message over the cap, or malformed ones: the first malformed message is a warning, the
  // `maxMalformedMessages`-th stops the server, as does any message over the cap (its response is lost,
  // so calls waiting on it would hang). A stopped server is restarted on the next call, like a crash.
  #onError(client: Client, thrown: Error): void {
    const error = thrown instanceof McpFrameError ? thrown : sseFrameError(thrown);
    if (this.#client !== client || this.#stopped !== undefined || error === undefined) return;
    const name = this.server.name;
    if (error.problem === "oversize") {
      this.#stopServer(client, "MCP_MESSAGE_TOO_LARGE", error.message);
      return;
    }
    this.#malformed++;
    const max = this.#ctx.limits.maxMalformedMessages;
    if (this.#malformed >= max) {
      this.#stopServer(
        client,
        "MCP_MESSAGE_MALFORMED",
        `sent ${this.#malformed} malformed messages (the cap is ${max}), the last one ${error.detail}`,
      );
    } else if (this.#malformed === 1) {
      const more = `; it is stopped after ${max}`;
      this.#ctx.report(
        diagnostic("MCP_MESSAGE_MALFORMED", "warning", `MCP server "${name}" ${error.message}${more}`, {
          path: this.server.path,
        }),
      );
    }
  }

  #stopServer(client: Client, code: DiagnosticCode, reason: string): void {
    this.#stopped = { code, reason };
    // While starting, the start failure carries the reason; once running, it is reported here.
    if (this.state === "running") {
      const next =
        this.#restarts < this.#ctx.maxRestarts
          ? "it will be restarted on the next call"
          : "it will not be restarted again";
      this.#ctx.report(
        diagnostic(code, "error", `MCP server "${this.server.name}" ${reason}; it was stopped and ${next}`, {
          path: this.server.path,
        }),
      );
    }
    // Nothing it sends from now on counts: not even an answer already in the same chunk as the garbage.
    const transport = this.#transport;
    if (transport !== undefined) transport.onmessage = () => {};
    void client.close().catch(() => {});
  }

  #listLimits(): { maxPages: number; maxTools: number; maxBytes: number } {
    const { limits } = this.#ctx;
    return { maxPages: limits.maxToolPages, maxTools: limits.maxToolsPerServer, maxBytes: limits.maxToolListBytes };
  }

  // Each note once per connection: a refresh that finds the same problem says nothing new.
  #noteListing(listing: ToolListing): void {
    for (const note of listing.notes) {
      if (this.#noted.has(note.message)) continue;
      this.#noted.add(note.message);
      this.#ctx.report(
        diagnostic(note.code, "warning", `MCP server "${this.server.name}" ${note.message}`, {
          path: this.server.path,
        }),
      );
    }
  }

  async #disconnect(): Promise<void> {
    const client = this.#client;
    const transport = this.#transport;
    this.#client = undefined;
    if (transport instanceof StreamableHTTPClientTransport) {
      // Best effort: tell the server the session is over, without waiting long.
      await within(
        transport.terminateSession().catch(() => {}),
        500,
      );
    }
    await client?.close().catch(() => {});
    await transport?.close().catch(() => {});
  }

  #notStarted(code: DiagnosticCode, why: string): Diagnostic {
    return diagnostic(code, "warning", `MCP server "${this.server.name}" not started: ${why}`, {
      path: this.server.path,
    });
  }
}

// spawn() blames the command for a missing working directory; say which one it is.
function startError(thrown: unknown, cwd: string | undefined): string {
  if (cwd !== undefined && (thrown as NodeJS.ErrnoException).code === "ENOENT" && !existsSync(cwd)) {
    return `working directory ${cwd} does not exist`;
  }
  return describe(thrown);
}

function error(content: string): McpCallResult {
  return { content, isError: true };
}

function describe(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const cause = thrown.cause instanceof Error ? ` (${thrown.cause.message})` : "";
  return `${thrown.message}${cause}`;
}

function times(n: number): string {
  return n === 1 ? "once" : `${n} times`;
}
