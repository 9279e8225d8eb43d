import type { DiagnosticSink } from "@skillctx/core";
import type { McpServerConfig } from "./config-schema.js";

/** A server some skill (or the host) declared, with the trust decision already made. */
export interface DeclaredServer {
  /** Unique within a bridge; the `<server>` part of `mcp__<server>__<tool>`. */
  name: string;
  config: McpServerConfig;
  /** Name of the skill that declared it. */
  skill?: string;
  /** Untrusted servers are never started. */
  trusted: boolean;
  /** File the server was declared in, used in diagnostics. */
  path?: string;
}

/** A tool of a started server, as the model sees it. */
export interface McpTool {
  /** `mcp__<server>__<tool>`, reduced to `[A-Za-z0-9_-]`, at most 64 characters. */
  name: string;
  description?: string;
  /** The server's JSON Schema, unchanged. */
  inputSchema: Record<string, unknown>;
  /** Server name, as declared. */
  server: string;
  /** Tool name, as the server reported it. */
  tool: string;
  /** The skill that declared the server, if any (for filtering by active skill). */
  skill?: string;
  /** The server's display title, when it gave one. */
  title?: string;
  /** The server's hints (`readOnlyHint`, `destructiveHint`, …), when it gave any. */
  annotations?: Record<string, unknown>;
}

/** The answer to a tool call, flattened to text. */
export interface McpCallResult {
  content: string;
  isError?: boolean;
}

/** Where one declared server stands. */
export type McpServerState =
  | "idle"
  | "starting"
  | "running"
  | "exited"
  | "failed"
  | "untrusted"
  | "disabled"
  | "closed";

/** Status of one declared server, from {@link McpBridge.servers}. */
export interface McpServerStatus {
  name: string;
  skill?: string;
  trusted: boolean;
  state: McpServerState;
  /** Number of tools it currently exposes. */
  tools: number;
  /** Child process id of a running stdio server. */
  pid?: number;
}

/** Caps on what one server may send; defaults in `@skillctx/core` limits (MCP section). */
export interface ConnectionLimits {
  maxMessageBytes: number;
  maxToolPages: number;
  maxToolsPerServer: number;
  maxToolListBytes: number;
  maxMalformedMessages: number;
  maxResultChars: number;
}

/** What a {@link ServerConnection} needs from its bridge. */
export interface ConnectionContext {
  startupTimeoutMs: number;
  callTimeoutMs: number | undefined;
  graceMs: number;
  maxRestarts: number;
  env: Record<string, string> | undefined;
  limits: ConnectionLimits;
  /** The server's tool list changed (started, refreshed, gone). */
  toolsChanged(): void;
  /** Records a diagnostic on the bridge. */
  report: DiagnosticSink;
}
