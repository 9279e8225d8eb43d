import * as path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadWithMcpSdk } from "./mcp-sdk.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ClientCapabilities, ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { SkillctxError } from "@skillctx/core";
import { MCP_MAX_MALFORMED_MESSAGES, MCP_MAX_MESSAGE_BYTES } from "./limits.js";
import { within } from "@skillctx/process/internal";
import type { McpServerConfig } from "./config-schema.js";
import type { McpFrameError } from "./frame-reader.js";

/** Options for {@link openMcpClient}. */
export interface OpenMcpClientOptions {
  /** The host-assigned label of the server, used in error messages (never the server's self-reported name). */
  name: string;
  /** Folder a relative stdio `cwd` resolves against. @default the config's `cwd` as given */
  baseDir?: string | undefined;
  /** Variables a stdio server gets on top of the allowlisted environment (its own `env` wins). */
  env?: Record<string, string> | undefined;
  /** Longest message (stdio line, HTTP body, server-sent event) the server may send. @default 16 MiB */
  maxMessageBytes?: number | undefined;
  /** Malformed messages tolerated before the connection is closed. @default 100 */
  maxMalformedMessages?: number | undefined;
  /** How long the spawn and the MCP handshake may take. @default 30000 */
  startupTimeoutMs?: number | undefined;
  /** How long each shutdown stage (stdin end, SIGTERM, SIGKILL) waits. @default 2000 */
  graceMs?: number | undefined;
  /** Capabilities the client declares. @default {} */
  capabilities?: ClientCapabilities | undefined;
  /**
   * Called for each message over the cap (`problem: "oversize"`, the message is dropped and the request
   * waiting for it never gets an answer: abort it) and each malformed one (`"malformed"`).
   */
  onProblem?: ((error: McpFrameError) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** A connected SDK client over the bridge's capped transports. */
export interface OpenMcpClient {
  /** The SDK client: `request`, `readResource`, ... (pass a `signal` and `timeout` to each call). */
  client: Client;
  /** What the server declared in its `initialize` result. */
  serverCapabilities: ServerCapabilities | undefined;
  /** Why the connection was closed by the guard (too many malformed messages), if it was. */
  readonly stopped: string | undefined;
  /** The last bytes a stdio server wrote to stderr. */
  stderr(): string;
  /** Closes the client and stops a stdio server (stdin end → SIGTERM → SIGKILL); idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const CLIENT_INFO = { name: "skillctx", version: "0.1.0" };

/**
 * Connects an MCP SDK `Client` to one server over the bridge's own transports: stdio through
 * `ProcessTransport` (process group, allowlisted environment, `FrameReader` cap on each line) and
 * streamable HTTP through `cappedFetch` (cap on each body and each event). For one-off sessions that
 * are not tool servers of a skill (the skill sources of `skillctx`); the bridge keeps its own
 * connections. The SDK is loaded on the first call.
 *
 * @throws SkillctxError `MCP_SERVER_START_TIMEOUT` (handshake past `startupTimeoutMs`) or
 * `MCP_SERVER_START_FAILED` (spawn failed, exited, refused), naming the server; the abort reason when `signal` aborts.
 * @example
 * const { client, close } = await openMcpClient({ type: "stdio", command: "node", args: ["server.mjs"] }, { name: "team" });
 */
export async function openMcpClient(config: McpServerConfig, options: OpenMcpClientOptions): Promise<OpenMcpClient> {
  const [{ Client }, { StreamableHTTPClientTransport }, { ProcessTransport }, { cappedFetch }] = await loadWithMcpSdk(
    () =>
      Promise.all([
        import("@modelcontextprotocol/sdk/client/index.js"),
        import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
        import("./process-transport.js"),
        import("./capped-fetch.js"),
      ]),
    `the MCP server ${JSON.stringify(options.name)}`,
  );
  options.signal?.throwIfAborted();
  const maxMessageBytes = options.maxMessageBytes ?? MCP_MAX_MESSAGE_BYTES;
  const maxMalformed = options.maxMalformedMessages ?? MCP_MAX_MALFORMED_MESSAGES;
  const timeoutMs = options.startupTimeoutMs ?? 30_000;
  const client = new Client(CLIENT_INFO, { capabilities: options.capabilities ?? {} });
  let stopped: string | undefined;
  let malformed = 0;
  const problem = (error: Error): void => {
    const frame = error as McpFrameError;
    if (frame.problem !== "oversize" && frame.problem !== "malformed") return; // protocol noise: EPIPE, late answers
    try {
      options.onProblem?.(frame);
    } catch {
      // a throwing listener must not break the transport
    }
    if (frame.problem === "malformed" && ++malformed >= maxMalformed && stopped === undefined) {
      stopped = `sent ${malformed} malformed messages (the cap is ${maxMalformed})`;
      void client.close().catch(() => {});
    }
  };
  client.onerror = problem;
  const transport: Transport =
    config.type === "stdio"
      ? new ProcessTransport({
          command: config.command,
          args: config.args,
          cwd:
            config.cwd === undefined || options.baseDir === undefined
              ? config.cwd
              : path.resolve(options.baseDir, config.cwd),
          env: { ...options.env, ...config.env },
          graceMs: options.graceMs ?? 2000,
          maxMessageBytes,
        })
      : new StreamableHTTPClientTransport(new URL(config.url), {
          requestInit: { headers: config.headers ?? {} },
          fetch: cappedFetch({ maxBytes: maxMessageBytes, onOversize: problem }),
        });
  const stderr = (): string => (transport instanceof ProcessTransport ? transport.stderr : "");
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      if (transport instanceof StreamableHTTPClientTransport)
        await within(
          transport.terminateSession().catch(() => {}),
          500,
        );
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    })();
    return closing;
  };

  const attempt = new AbortController();
  const timer = setTimeout(
    () =>
      attempt.abort(
        new SkillctxError(
          "MCP_SERVER_START_TIMEOUT",
          `MCP server "${options.name}" did not complete the MCP handshake within ${timeoutMs} ms`,
        ),
      ),
    timeoutMs,
  );
  const onAbort = (): void => attempt.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    // The SDK's own timeout is a backstop; the abort above fires first.
    await client.connect(transport, { signal: attempt.signal, timeout: timeoutMs + 1000 });
  } catch (thrown) {
    await close();
    if (options.signal?.aborted) throw options.signal.reason;
    if (SkillctxError.isInstance(attempt.signal.reason)) throw attempt.signal.reason;
    const tail = stderr() === "" ? "" : `; stderr: ${stderr()}`;
    throw new SkillctxError(
      "MCP_SERVER_START_FAILED",
      `MCP server "${options.name}" failed to start: ${describe(thrown)}${tail}`,
      { cause: thrown },
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  return {
    client,
    serverCapabilities: client.getServerCapabilities(),
    get stopped() {
      return stopped;
    },
    stderr,
    close,
    [Symbol.asyncDispose]: close,
  };
}

function describe(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const cause = thrown.cause instanceof Error ? ` (${thrown.cause.message})` : "";
  return `${thrown.message}${cause}`;
}
