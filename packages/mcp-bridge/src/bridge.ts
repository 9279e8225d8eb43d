import { compareCodePoints, diagnostic, SkillctxError, type Diagnostic } from "@skillctx/core";
import { loadWithMcpSdk } from "./mcp-sdk.js";
import {
  MCP_MAX_MALFORMED_MESSAGES,
  MCP_MAX_MESSAGE_BYTES,
  MCP_MAX_RESULT_CHARS,
  MCP_MAX_TOOL_LIST_BYTES,
  MCP_MAX_TOOL_PAGES,
  MCP_MAX_TOOLS_PER_SERVER,
} from "./limits.js";
import { decodeToolArguments, equalValues, reduceToolName } from "@skillctx/core/internal";
// The connection module brings the MCP SDK (about 100 ms to load): it is imported when the first bridge is created.
import type { ServerConnection } from "./server-connection.js";
import type { ConnectionContext } from "./types.js";
import { assignToolNames } from "./tool-names.js";
import type { DeclaredServer, McpCallResult, McpServerStatus, McpTool } from "./types.js";

/** Options for {@link createMcpBridge}. */
export interface McpBridgeOptions {
  /** How long a server may take to start and answer the handshake and `tools/list`. @default 30_000 */
  startupTimeoutMs?: number;
  /** Default per-call timeout; a server's `timeout` and a call's `timeoutMs` win. @default 60_000 */
  callTimeoutMs?: number;
  /** Variables every stdio server gets on top of the allowlist (a server's own `env` wins). */
  env?: Record<string, string>;
  /** Called when {@link McpBridge.tools} may answer differently (a server started, refreshed or died). */
  onToolsChanged?: () => void;
  /** Aborting closes the bridge. */
  signal?: AbortSignal;
  /** How long each shutdown stage (stdin end, SIGTERM, SIGKILL) waits. @default 2000 */
  shutdownGraceMs?: number;
  /** How many times a server that exited (or was stopped for misbehaving) is restarted, on the next call to it. @default 1 */
  maxRestarts?: number;
  /**
   * Longest JSON-RPC message a server may send: one stdio line, one HTTP response body, one server-sent
   * event. A server that sends a longer one is stopped (`MCP_MESSAGE_TOO_LARGE`); calls waiting on it
   * get an error result; it is restarted on the next call (see `maxRestarts`). @default 16 MiB
   */
  maxMessageBytes?: number;
  /** Most `tools/list` pages read from one server; past it the tools listed so far are kept (`MCP_TOOLS_LIST_TRUNCATED`). @default 100 */
  maxToolPages?: number;
  /** Most tools kept from one server (`MCP_TOOLS_LIST_TRUNCATED`). @default 1000 */
  maxToolsPerServer?: number;
  /** Most bytes of tool definitions (JSON) kept from one server (`MCP_TOOLS_LIST_TRUNCATED`). @default 4 MiB */
  maxToolListBytes?: number;
  /**
   * Malformed messages (not JSON, not JSON-RPC) one server process may send: the first gives a warning
   * (`MCP_MESSAGE_MALFORMED`), this many stop the server like an over-size message does. @default 100
   */
  maxMalformedMessages?: number;
  /** Longest tool result text returned, in characters; the rest is cut with a note on the last line. @default 100_000 */
  maxResultChars?: number;
}

/** Options of one tool call. */
export interface McpCallOptions {
  signal?: AbortSignal;
  /** Overrides the server's and the bridge's timeout for this call. */
  timeoutMs?: number;
}

/** The running side of skill-declared MCP servers. Create with {@link createMcpBridge}. */
export interface McpBridge {
  /**
   * Starts servers by name, in parallel, and lists their tools. Idempotent: running
   * servers are left alone, a server that failed is not retried. An untrusted, disabled,
   * unknown or failing server gives a diagnostic and the others carry on.
   * Rejects only when `signal` aborts (the servers it was starting are stopped).
   */
  start(names: readonly string[], options?: { signal?: AbortSignal }): Promise<Diagnostic[]>;
  /** Declares more servers. A name already declared with other settings is kept as first declared (diagnostic). */
  add(servers: readonly DeclaredServer[]): void;
  /** Tools of started servers, sorted by name (code point). */
  tools(): McpTool[];
  /**
   * Calls a tool by its `mcp__<server>__<tool>` name. Failures (unknown tool, timeout,
   * server gone) come back as `{ isError: true }` results naming the server; a server that
   * exited is restarted on the next call (see `maxRestarts`). Rejects only when `signal` aborts.
   */
  callTool(name: string, args: unknown, options?: McpCallOptions): Promise<McpCallResult>;
  /** Status of every declared server, in declaration order. */
  servers(): McpServerStatus[];
  /** Everything the bridge noticed so far (start failures, exits, trust refusals, …), oldest first. */
  readonly diagnostics: Diagnostic[];
  /** Stops every server and leaves no process behind; idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Creates a bridge over declared MCP servers. Nothing starts unless named in `start`
 * (or later through `bridge.start`): servers of always-on skills at creation, the
 * others when their skill activates.
 *
 * @example
 * await using bridge = await createMcpBridge(servers, { start: ["github"] });
 * const result = await bridge.callTool("mcp__github__search", { q: "skillctx" });
 */
export async function createMcpBridge(
  servers: readonly DeclaredServer[],
  options: McpBridgeOptions & { start?: readonly string[] } = {},
): Promise<McpBridge> {
  options.signal?.throwIfAborted();
  Connection ??= (await loadWithMcpSdk(() => import("./server-connection.js"), "an MCP server declared by a skill"))
    .ServerConnection;
  options.signal?.throwIfAborted();
  const bridge = new Bridge(options);
  bridge.add(servers);
  if (options.start !== undefined && options.start.length > 0) {
    try {
      await bridge.start(options.start, { signal: options.signal });
    } catch (error) {
      await bridge.close();
      throw error;
    }
  }
  return bridge;
}

// Set by the first createMcpBridge, before any Bridge exists.
let Connection: typeof ServerConnection | undefined;

class Bridge implements McpBridge {
  readonly #connections = new Map<string, ServerConnection>();
  readonly #diagnostics: Diagnostic[] = [];
  readonly #seen = new Set<string>();
  readonly #options: McpBridgeOptions;
  readonly #ctx: ConnectionContext;
  #tools: McpTool[] | undefined = [];
  #routes = new Map<string, { connection: ServerConnection; tool: string }>();
  #closing: Promise<void> | undefined;
  readonly #onAbort = (): void => void this.close();

  constructor(options: McpBridgeOptions) {
    this.#options = options;
    this.#ctx = {
      startupTimeoutMs: options.startupTimeoutMs ?? 30_000,
      callTimeoutMs: options.callTimeoutMs,
      graceMs: options.shutdownGraceMs ?? 2000,
      maxRestarts: options.maxRestarts ?? 1,
      env: options.env,
      limits: {
        maxMessageBytes: options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES,
        maxToolPages: options.maxToolPages ?? MCP_MAX_TOOL_PAGES,
        maxToolsPerServer: options.maxToolsPerServer ?? MCP_MAX_TOOLS_PER_SERVER,
        maxToolListBytes: options.maxToolListBytes ?? MCP_MAX_TOOL_LIST_BYTES,
        maxMalformedMessages: options.maxMalformedMessages ?? MCP_MAX_MALFORMED_MESSAGES,
        maxResultChars: options.maxResultChars ?? MCP_MAX_RESULT_CHARS,
      },
      toolsChanged: () => this.#toolsChanged(),
      report: (d) => this.#report(d),
    };
    options.signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  get diagnostics(): Diagnostic[] {
    return [...this.#diagnostics];
  }

  add(servers: readonly DeclaredServer[]): void {
    this.#assertOpen();
    for (const server of servers) {
      const existing = this.#connections.get(server.name);
      if (existing === undefined) {
        this.#connections.set(server.name, new Connection!(server, this.#ctx));
      } else if (!sameDeclaration(existing.server, server)) {
        const by = server.skill === undefined ? "" : ` by skill "${server.skill}"`;
        this.#reportOnce(
          diagnostic(
            "MCP_SERVER_DUPLICATE",
            "warning",
            `MCP server "${server.name}" declared again${by} with other settings; the first declaration is kept`,
            { path: server.path },
          ),
        );
      }
    }
  }

  async start(names: readonly string[], options: { signal?: AbortSignal } = {}): Promise<Diagnostic[]> {
    this.#assertOpen();
    options.signal?.throwIfAborted();
    const settled = await Promise.allSettled(
      [...new Set(names)].map((name) => {
        const connection = this.#connections.get(name);
        if (connection === undefined) {
          return Promise.resolve(
            diagnostic("MCP_SERVER_UNKNOWN", "error", `no MCP server named "${name}" is declared`),
          );
        }
        return connection.start(options.signal);
      }),
    );
    if (options.signal?.aborted) throw options.signal.reason;
    const found: Diagnostic[] = [];
    for (const outcome of settled) {
      if (outcome.status === "rejected") throw outcome.reason;
      if (outcome.value !== undefined) {
        found.push(outcome.value);
        // Start failures are already recorded by their connection; "not started" notes are recorded once.
        if (!this.#diagnostics.includes(outcome.value)) this.#reportOnce(outcome.value);
      }
    }
    return found;
  }

  tools(): McpTool[] {
    return [...this.#currentTools()];
  }

  async callTool(name: string, args: unknown, options: McpCallOptions = {}): Promise<McpCallResult> {
    this.#assertOpen();
    options.signal?.throwIfAborted();
    this.#currentTools();
    const route = this.#routes.get(name);
    if (route === undefined) {
      // A tool of a server that is down is withdrawn from tools(); say why instead of "unknown".
      const down = [...this.#connections.values()].find(
        (c) => c.state !== "running" && name.startsWith(`mcp__${reduceToolName(c.server.name)}__`),
      );
      const why = down === undefined ? "" : `: MCP server "${down.server.name}" is not running (${down.state})`;
      return { content: `Unknown MCP tool "${name}"${why}.`, isError: true };
    }
    const input = toArguments(args);
    if (input === undefined) {
      return {
        content: `MCP tool "${name}" takes a JSON object of arguments, not ${JSON.stringify(args)}.`,
        isError: true,
      };
    }
    return route.connection.call(route.tool, input, options);
  }

  servers(): McpServerStatus[] {
    return [...this.#connections.values()].map((c) => {
      const status: McpServerStatus = {
        name: c.server.name,
        trusted: c.server.trusted,
        state: c.state,
        tools: c.tools.length,
      };
      if (c.server.skill !== undefined) status.skill = c.server.skill;
      const pid = c.pid;
      if (pid !== undefined) status.pid = pid;
      return status;
    });
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#options.signal?.removeEventListener("abort", this.#onAbort);
      await Promise.all([...this.#connections.values()].map((c) => c.close()));
      this.#tools = [];
      this.#routes = new Map();
    })();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  // Rebuilt lazily after a change; every step in between gets the cached list.
  #currentTools(): McpTool[] {
    if (this.#tools !== undefined) return this.#tools;
    const entries = [...this.#connections.values()].flatMap((connection) =>
      connection.tools.map((tool) => ({ connection, tool, server: connection.server.name })),
    );
    const names = assignToolNames(entries.map((e) => ({ server: e.server, tool: e.tool.name })));
    const routes = new Map<string, { connection: ServerConnection; tool: string }>();
    const tools = entries.map((entry, i) => {
      const name = names[i]!;
      routes.set(name, { connection: entry.connection, tool: entry.tool.name });
      const tool: McpTool = { name, inputSchema: entry.tool.inputSchema, server: entry.server, tool: entry.tool.name };
      if (entry.connection.server.skill !== undefined) tool.skill = entry.connection.server.skill;
      if (entry.tool.description !== undefined) tool.description = entry.tool.description;
      if (entry.tool.title !== undefined) tool.title = entry.tool.title;
      if (entry.tool.annotations !== undefined) tool.annotations = entry.tool.annotations;
      return tool;
    });
    tools.sort((a, b) => compareCodePoints(a.name, b.name));
    this.#tools = tools;
    this.#routes = routes;
    return tools;
  }

  #toolsChanged(): void {
    this.#tools = undefined;
    if (this.#closing !== undefined) return;
    try {
      this.#options.onToolsChanged?.();
    } catch (error) {
      this.#report(diagnostic("MCP_CALLBACK_FAILED", "warning", `onToolsChanged threw: ${(error as Error).message}`));
    }
  }

  #report(d: Diagnostic): void {
    this.#diagnostics.push(d);
  }

  #reportOnce(d: Diagnostic): void {
    const key = `${d.code}\0${d.message}\0${d.path ?? ""}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#diagnostics.push(d);
  }

  #assertOpen(): void {
    if (this.#closing !== undefined) throw new SkillctxError("MCP_BRIDGE_CLOSED", "the MCP bridge is closed");
  }
}

function sameDeclaration(a: DeclaredServer, b: DeclaredServer): boolean {
  return a.skill === b.skill && a.trusted === b.trusted && equalValues(a.config, b.config);
}

// Tool arguments must be a JSON object; models sometimes send it as a JSON string.
function toArguments(args: unknown): Record<string, unknown> | undefined {
  if (args === undefined || args === null) return {};
  if (typeof args === "string") {
    // Blank text is not JSON here: an empty string is a malformed call, not a call without arguments.
    const decoded = decodeToolArguments(args);
    return decoded.ok ? toArguments(decoded.value ?? {}) : undefined;
  }
  return typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : undefined;
}
