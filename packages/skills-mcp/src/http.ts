/**
 * Streamable HTTP for a {@link SkillServer}: the MCP SDK's transport on `node:http`, one SDK server per
 * session, bound to 127.0.0.1 by default. On a loopback address the `Host` header must name that
 * address (DNS rebinding), and an `Origin` header, when sent, must be a loopback origin. Request bodies,
 * sessions and idle time are capped.
 */
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, MAX_HTTP_BODY_BYTES } from "./limits.js";
import { safeParseJson } from "@skillctx/core/internal";
import { randomUUID } from "@skillctx/core/internal";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { declaredLength, readCapped } from "@skillctx/mcp-bridge/internal";
import type { SkillServer } from "./server.js";

/** The path the endpoint answers on. */
export const MCP_HTTP_PATH = "/mcp";

export interface ServeHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** @default "127.0.0.1" */
  host?: string | undefined;
  /** @default 1,000 */
  maxSessions?: number | undefined;
  /** @default 10 minutes */
  sessionIdleMs?: number | undefined;
}

/** A listening HTTP endpoint. */
export interface SkillHttpServer {
  /** `http://<host>:<port>/mcp`. */
  url: string;
  port: number;
  /** Open sessions. */
  readonly sessions: number;
  /** Stops listening and closes every session. Idempotent. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Serves `skills` over Streamable HTTP at `http://<host>:<port>/mcp`. */
export async function serveSkillsHttp(skills: SkillServer, options: ServeHttpOptions): Promise<SkillHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const sessions = new Map<string, Session>();
  let port = options.port;
  const loopback = LOOPBACK.has(host);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== MCP_HTTP_PATH) return reply(res, 404, "not found: the MCP endpoint is /mcp");
    if (loopback && !hostAllowed(req.headers.host, port)) return reply(res, 403, "forbidden host");
    if (loopback && !originAllowed(req.headers.origin)) return reply(res, 403, "forbidden origin");
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (session === undefined) return replyRpc(res, 404, "session not found");
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== "POST") return replyRpc(res, 400, "no session: initialize with a POST first");
    const body = await readBody(req);
    if (body === undefined) return replyRpc(res, 413, `request body larger than ${MAX_HTTP_BODY_BYTES} bytes`);
    const parsed = safeParseJson(body);
    if (!parsed.ok) return replyRpc(res, 400, "parse error", -32700);
    if (!isInitializeRequest(parsed.value))
      return replyRpc(res, 400, "no session: the first request must be initialize");
    if (sessions.size >= maxSessions) return replyRpc(res, 503, "too many sessions");
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, { transport, lastSeen: Date.now() }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await skills.connect(transport);
    await transport.handleRequest(req, res, parsed.value);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) replyRpc(res, 500, error instanceof Error ? error.message : "internal error", -32603);
      else res.destroy();
    });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen > idleMs) {
          sessions.delete(id);
          void session.transport.close();
        }
      }
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  let closing: Promise<void> | undefined;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_HTTP_PATH}`,
    port,
    get sessions() {
      return sessions.size;
    },
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        const open = [...sessions.values()];
        sessions.clear();
        await Promise.allSettled(open.map((s) => s.transport.close()));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

function hostAllowed(header: string | undefined, port: number): boolean {
  if (header === undefined) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(header);
  if (match === null) return false;
  return LOOPBACK.has(match[1]!.toLowerCase()) && (match[2] === undefined || Number(match[2]) === port);
}

function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return LOOPBACK.has(new URL(origin).hostname.toLowerCase());
  } catch {
    return false;
  }
}

// The body as text, or undefined past MAX_HTTP_BODY_BYTES (the rest is not read).
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  if (declaredLength(req.headers["content-length"]) > MAX_HTTP_BODY_BYTES) return undefined;
  return (await readCapped(req, MAX_HTTP_BODY_BYTES))?.toString("utf8");
}

function reply(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
}

function replyRpc(res: ServerResponse, status: number, message: string, code = -32000): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
