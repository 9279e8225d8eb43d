/**
 * Streamable HTTP for a {@link SkillServer}: the MCP SDK's transport on `node:http`, bound to 127.0.0.1
 * by default, stateless unless sessions are asked for (any replica answers any request). In order, a
 * request meets: the drain (503 once closing), `GET /healthz` (no checks, no skill content), the
 * `Host` / `Origin` policy (DNS rebinding, see http-hosts.ts), the bearer-token check (401 with a
 * `WWW-Authenticate` challenge, see http-auth.ts), then the MCP handler. Request heads and bodies are
 * capped, and each request is one line of the log (method, path, status, milliseconds; nothing else).
 */
import { DEFAULT_DRAIN_MS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "./limits.js";
import { MAX_HTTP_HEADER_BYTES, MAX_LOGGED_PATH_CHARS } from "./limits.js";
import { errorText, headUtf16 } from "@skillctx/core/internal";
import { checkWholeNumber } from "./option-checks.js";
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { bearerCheck } from "./http-auth.js";
import type { HttpAuthOptions } from "./http-auth.js";
import { hostAllowed, hostPolicy, originAllowed } from "./http-hosts.js";
import { replyRpc, sessionHandler, statelessHandler } from "./http-sessions.js";
import { stagedClientError } from "./http-teardown.js";
import type { SkillServer } from "./server.js";

/** The path the endpoint answers on. */
export const MCP_HTTP_PATH = "/mcp";
/** The health endpoint: 200 while serving, 503 while draining; unauthenticated, no skill content. */
export const HEALTH_HTTP_PATH = "/healthz";

export interface ServeHttpOptions {
  /** 0 picks a free port. */
  port: number;
  /** @default "127.0.0.1" */
  host?: string | undefined;
  /**
   * Keep MCP sessions in this process (`Mcp-Session-Id`). Off by default: the server needs nothing from a
   * session, so each request stands alone and replicas behind a load balancer need no stickiness.
   * @default false
   */
  sessions?: boolean | undefined;
  /** With `sessions`. @default 1,000 */
  maxSessions?: number | undefined;
  /** With `sessions`. @default 10 minutes */
  sessionIdleMs?: number | undefined;
  /**
   * More names the `Host` and `Origin` headers may carry (a load balancer's or proxy's name). On a
   * loopback address the bound address and `localhost` are always allowed; elsewhere the headers are
   * checked only when names are given.
   */
  allowedHosts?: readonly string[] | undefined;
  /** Bearer tokens and/or a host's verify function; unset: no authentication. */
  auth?: HttpAuthOptions | undefined;
  /** How long `close()` lets requests in flight finish. @default 5,000 */
  drainMs?: number | undefined;
  /** Receives one line per request (`POST /mcp 200 1.4ms`); unset: no log. */
  log?: ((line: string) => void) | undefined;
}

/** A listening HTTP endpoint. */
export interface SkillHttpServer {
  /** `http://<host>:<port>/mcp`. */
  url: string;
  port: number;
  /** Open sessions (0 when stateless). */
  readonly sessions: number;
  /** Requests being answered. */
  readonly inFlight: number;
  /**
   * Graceful stop: new requests (and `/healthz`) get 503 with `Connection: close`, requests in flight
   * finish for up to `drainMs`, then every connection is closed. Idempotent.
   */
  close(): Promise<void>;
}

/** Serves `skills` over Streamable HTTP at `http://<host>:<port>/mcp`. */
export async function serveSkillsHttp(skills: SkillServer, options: ServeHttpOptions): Promise<SkillHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const drainMs = checkWholeNumber("drainMs", options.drainMs, DEFAULT_DRAIN_MS, 0);
  const policy = hostPolicy(host, options.allowedHosts ?? []);
  const auth = bearerCheck(options.auth);
  const mcp =
    options.sessions === true
      ? sessionHandler(
          skills,
          checkWholeNumber("maxSessions", options.maxSessions, DEFAULT_MAX_SESSIONS, 1),
          checkWholeNumber("sessionIdleMs", options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS, 1),
        )
      : statelessHandler(skills);
  const log = options.log;
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  let idle: (() => void) | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    if (draining) {
      res.setHeader("connection", "close");
      res.setHeader("retry-after", "1");
      if (pathname === HEALTH_HTTP_PATH) return reply(res, 503, JSON.stringify({ status: "draining" }));
      return replyRpc(res, 503, "shutting down: retry on another replica");
    }
    if (pathname === HEALTH_HTTP_PATH && (req.method === "GET" || req.method === "HEAD")) {
      const index = skills.index;
      return reply(
        res,
        200,
        JSON.stringify({ status: "ok", skills: index.skills.length, generation: index.generation }),
      );
    }
    if (!hostAllowed(policy, req.headers.host)) return reply(res, 403, "forbidden host");
    if (!originAllowed(policy, req.headers.origin)) return reply(res, 403, "forbidden origin");
    if (auth?.metadata !== undefined && pathname === auth.metadata.path && req.method === "GET")
      return reply(res, 200, auth.metadata.body);
    if (pathname !== MCP_HTTP_PATH) return reply(res, 404, "not found: the MCP endpoint is /mcp");
    if (auth !== undefined) {
      const verdict = await auth.admits(req);
      if (verdict !== "ok") {
        res.setHeader("www-authenticate", auth.challenge(verdict));
        return replyRpc(res, 401, verdict === "missing" ? "authorization required" : "invalid token");
      }
    }
    await mcp.handle(req, res);
  };

  const server = createServer({ maxHeaderSize: MAX_HTTP_HEADER_BYTES }, (req, res) => {
    const started = performance.now();
    const pathname = pathOf(req.url);
    inFlight.add(res);
    // Done when the answer is handed to the socket ("finish"), or when the connection went first ("close"):
    // then the answer was cut (the drain's deadline, a client gone), and the log says so, not its status.
    const done = () => {
      if (!inFlight.delete(res)) return;
      const status = res.writableFinished ? String(res.statusCode) : "cut";
      log?.(`${req.method ?? "-"} ${pathname} ${status} ${(performance.now() - started).toFixed(1)}ms`);
      if (inFlight.size === 0) idle?.();
    };
    res.once("finish", done);
    res.once("close", done);
    handle(req, res, pathname).catch((error: unknown) => {
      if (!res.headersSent) replyRpc(res, 500, headUtf16(errorText(error), 200), -32603);
      else res.destroy();
    });
  });
  // A refused head (431, 400) is answered with a staged close, so the client reads the refusal.
  server.on(
    "clientError",
    stagedClientError((socket) => [...inFlight].some((r) => r.socket === socket && r.headersSent)),
  );
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${MCP_HTTP_PATH}`,
    port,
    get sessions() {
      return mcp.sessions;
    },
    get inFlight() {
      return inFlight.size;
    },
    close() {
      closing ??= (async () => {
        draining = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle keep-alive connections would hold new requests: close them; busy ones get `Connection: close`.
        server.closeIdleConnections();
        for (const res of inFlight) res.shouldKeepAlive = false;
        if (inFlight.size > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, drainMs);
            timer.unref();
            idle = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        server.closeAllConnections();
        await mcp.close();
        await stopped;
      })();
      return closing;
    },
  };
}

// The request's path for routing and the log: no query (tokens never travel there, nor does anything
// else we log), printable ASCII only, capped.
function pathOf(url: string | undefined): string {
  let pathname: string;
  try {
    pathname = new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return "-";
  }
  return headUtf16(pathname.replace(/[^\x21-\x7e]/g, "?"), MAX_LOGGED_PATH_CHARS);
}

function reply(res: ServerResponse, status: number, text: string): void {
  const json = text.startsWith("{");
  res
    .writeHead(status, { "content-type": json ? "application/json" : "text/plain; charset=utf-8" })
    .end(json ? text : `${text}\n`);
}
