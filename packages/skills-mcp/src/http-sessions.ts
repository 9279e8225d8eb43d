/**
 * The two ways the HTTP endpoint hands a `/mcp` request to the MCP SDK's Streamable HTTP transport:
 *
 * - stateless (the default): a fresh transport and SDK server per POST, `sessionIdGenerator` undefined,
 *   so no `Mcp-Session-Id` is issued and any replica answers any request. The skill server needs nothing
 *   from a session: it sends no notifications and asks the client nothing, every answer is a function of
 *   the snapshot, and its cursors name the snapshot by a content digest that every replica serving the
 *   same files computes alike. GET (a server-to-client stream) and DELETE have nothing to do: 405.
 * - sessions: one transport and SDK server per `Mcp-Session-Id`, kept in this process's memory (capped,
 *   idle ones closed), for a single process whose clients want a session.
 */
import { safeParseJson, randomUUID } from "@skillctx/core/internal";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { MAX_HTTP_BODY_BYTES } from "./limits.js";
import type { SkillServer } from "./server.js";
import { readRequestBody } from "./http-teardown.js";

/** Answers `/mcp` requests that passed the host, origin and token checks. */
export interface McpHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Open sessions (always 0 when stateless). */
  readonly sessions: number;
  close(): Promise<void>;
}

/** The stateless handler: any request, any replica. */
export function statelessHandler(skills: SkillServer): McpHandler {
  return {
    sessions: 0,
    async handle(req, res) {
      if (req.method !== "POST") {
        res.setHeader("allow", "POST");
        return replyRpc(res, 405, "method not allowed: this server is stateless, POST each request");
      }
      const body = await readJsonBody(req, res);
      if (body === undefined) return;
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = await skills.connect(transport);
      // An answer the SDK failed to send (it reports through onerror and never ends the response) is
      // answered here: an error while nothing was sent, else the connection closes. Never held open.
      server.onerror = () => failUnanswered(res);
      res.once("close", () => {
        void transport.close();
        void server.close();
      });
      await transport.handleRequest(req, res, body.value);
    },
    close: async () => {},
  };
}

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/** The session handler: one SDK server per session, `maxSessions` at most, idle ones closed after `idleMs`. */
export function sessionHandler(skills: SkillServer, maxSessions: number, idleMs: number): McpHandler {
  const sessions = new Map<string, Session>();
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
  return {
    get sessions() {
      return sessions.size;
    },
    async handle(req, res) {
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId === "string") {
        const session = sessions.get(sessionId);
        if (session === undefined) return replyRpc(res, 404, "session not found");
        session.lastSeen = Date.now();
        if (req.method !== "POST") return session.transport.handleRequest(req, res);
        const body = await readJsonBody(req, res);
        if (body === undefined) return;
        return session.transport.handleRequest(req, res, body.value);
      }
      if (req.method !== "POST") return replyRpc(res, 400, "no session: initialize with a POST first");
      const body = await readJsonBody(req, res);
      if (body === undefined) return;
      if (!isInitializeRequest(body.value))
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
      const server = await skills.connect(transport);
      server.onerror = () => failUnanswered(res);
      await transport.handleRequest(req, res, body.value);
    },
    async close() {
      clearInterval(sweep);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map((s) => s.transport.close()));
    },
  };
}

/** A JSON-RPC error as the body of an HTTP answer. */
export function replyRpc(res: ServerResponse, status: number, message: string, code = -32000): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

// The body parsed as one JSON-RPC message (an object), or undefined once an error (413, parse error, a
// batch) has been answered. Batches are refused: MCP removed JSON-RPC batching in its 2025-06-18 revision
// (changelog: https://modelcontextprotocol.io/specification/2025-06-18/changelog; transports: "The body
// of the POST request MUST be a single JSON-RPC request, notification, or response"), and a batch is
// work without a bound: 100 reads of one large file in a 9 KB request.
async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown } | undefined> {
  const bytes = await readRequestBody(req, MAX_HTTP_BODY_BYTES);
  if (bytes === undefined) {
    res.setHeader("connection", "close");
    return void replyRpc(res, 413, `request body larger than ${MAX_HTTP_BODY_BYTES} bytes`);
  }
  const parsed = safeParseJson(bytes.toString("utf8"));
  if (!parsed.ok) return void replyRpc(res, 400, "parse error", -32700);
  if (Array.isArray(parsed.value))
    return void replyRpc(res, 400, "invalid request: JSON-RPC batches are not supported (MCP 2025-06-18)", -32600);
  if (typeof parsed.value !== "object" || parsed.value === null)
    return void replyRpc(res, 400, "invalid request: the body must be one JSON-RPC message object", -32600);
  return { value: parsed.value };
}

// The SDK could not send an answer: say so while nothing was sent, else close the connection.
function failUnanswered(res: ServerResponse): void {
  if (res.writableEnded || res.destroyed) return;
  if (!res.headersSent) {
    res.setHeader("connection", "close");
    replyRpc(res, 500, "the answer could not be sent", -32603);
  } else res.destroy();
}
