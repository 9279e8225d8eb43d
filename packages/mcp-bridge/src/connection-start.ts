/**
 * Starting one MCP server connection: its transport (stdio through `ProcessTransport`, HTTP through the
 * SDK's streamable HTTP transport over `cappedFetch`) and what a failed start is reported as.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { cappedFetch } from "./capped-fetch.js";
import { McpFrameError } from "./frame-reader.js";
import { ProcessTransport } from "./process-transport.js";
import type { DeclaredServer } from "./types.js";
import type { DiagnosticCode } from "@skillctx/core";

/** The abort reason of a start that took longer than the startup timeout. */
export class StartupTimeout extends Error {}

// The SDK's HTTP transport parses each server-sent event itself and hands a bad one to onerror as the
// parser's error: a SyntaxError (not JSON) or a ZodError (not JSON-RPC). Counted like stdio's.
export function sseFrameError(error: Error): McpFrameError | undefined {
  const why =
    error instanceof SyntaxError ? "not JSON" : error.name === "ZodError" ? "not a JSON-RPC 2.0 message" : undefined;
  return why === undefined
    ? undefined
    : new McpFrameError(
        "malformed",
        `sent a malformed message (${why}, in an event stream)`,
        0,
        `${why} (in an event stream)`,
      );
}

/** Why the bridge stopped a server: a diagnostic code and a phrase that completes "it …". */
export interface StopReason {
  code: DiagnosticCode;
  reason: string;
}

/** The transport of `config`: a child process for stdio, capped streamable HTTP otherwise. */
export function createTransport(
  config: DeclaredServer["config"],
  options: {
    env: Record<string, string> | undefined;
    graceMs: number | undefined;
    maxMessageBytes: number;
    onOversize: (error: McpFrameError) => void;
  },
): Transport {
  return config.type === "stdio"
    ? new ProcessTransport({
        command: config.command,
        args: config.args,
        cwd: config.cwd,
        env: { ...options.env, ...config.env },
        graceMs: options.graceMs,
        maxMessageBytes: options.maxMessageBytes,
      })
    : new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers ?? {} },
        fetch: cappedFetch({ maxBytes: options.maxMessageBytes, onOversize: options.onOversize }),
      });
}

/** The diagnostic code and message of a start that failed; `why` describes the error thrown. */
export function startFailure(failed: {
  name: string;
  transport: Transport;
  timeoutMs: number;
  timedOut: boolean;
  stopped: StopReason | undefined;
  why: () => string;
}): { code: DiagnosticCode; message: string } {
  const { name, transport, timeoutMs, timedOut, stopped } = failed;
  const stderr =
    transport instanceof ProcessTransport && transport.stderr !== "" ? `; stderr: ${transport.stderr}` : "";
  const exit = transport instanceof ProcessTransport ? transport.exit : undefined;
  const message =
    stopped !== undefined
      ? `MCP server "${name}" was stopped during startup: it ${stopped.reason}`
      : timedOut
        ? `MCP server "${name}" did not complete the MCP handshake and tool listing within ${timeoutMs} ms and was stopped${stderr}`
        : exit !== undefined && (exit.code !== null || exit.signal !== null)
          ? `MCP server "${name}" exited during startup with ${exitText(exit)}${stderr}`
          : `MCP server "${name}" failed to start: ${failed.why()}${stderr}`;
  return { code: stopped?.code ?? (timedOut ? "MCP_SERVER_START_TIMEOUT" : "MCP_SERVER_START_FAILED"), message };
}

/** How a process ended, as the messages say it. */
export function exitText(exit: { code: number | null; signal: string | null }): string {
  return exit.signal !== null ? `signal ${exit.signal}` : `code ${exit.code}`;
}
