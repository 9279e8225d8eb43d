// `skillctx serve --http` as a child process, and a raw HTTP client (node:http) that sets any header,
// `Host` included (fetch cannot), and a raw TCP connection (what a client sends after a refusal): for the
// auth, DNS-rebinding, drain and hostile-client tests.
import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import type { Socket } from "node:net";
import path from "node:path";
import { startCli } from "./cli.js";
import type { CliChild } from "./cli.js";

/** A running `skillctx serve --http` child and its endpoint URL. */
export interface ServeChild {
  cli: CliChild;
  url: string;
}

/** Writes `count` skills (`s0`, `s1`, ...) under `<dir>/.agents/skills`; returns `dir`. */
export function writeSkills(dir: string, count: number, body = "Body."): string {
  for (let i = 0; i < count; i++) {
    const folder = path.join(dir, ".agents/skills", `s${i}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "SKILL.md"), `---\nname: s${i}\ndescription: Skill ${i}.\n---\n${body}\n`);
  }
  return dir;
}

/** Starts `skillctx serve --cwd <cwd> --no-user --http 0 <args>` and waits for its URL on stderr. */
export async function startServe(
  cwd: string,
  args: string[],
  options: { home: string; env?: Record<string, string> },
): Promise<ServeChild> {
  const cli = startCli(["serve", "--cwd", cwd, "--no-user", "--http", "0", ...args], options);
  for (let i = 0; i < 600; i++) {
    const match = /listening on (http:\/\/\S+)/.exec(cli.stderr());
    if (match !== null) return { cli, url: match[1]! };
    if (cli.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  cli.child.kill("SIGKILL");
  throw new Error(`the server did not start: ${cli.stderr()}`);
}

/** A raw HTTP answer. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A JSON-RPC request body. */
export function rpc(method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
}

/** The MCP POST headers every request needs. */
export const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/**
 * One request through node:http with exactly these headers (a fresh connection, no agent). `path`
 * replaces the URL's path; `body` is sent whole unless `hold` is given, which writes it in two parts
 * and waits for `hold()` between them (a request in flight).
 */
export function rawRequest(
  url: string,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    hold?: () => Promise<void>;
  } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname.replace(/^\[|\]$/g, ""),
        port: target.port,
        path: options.path ?? target.pathname,
        method: options.method ?? "POST",
        headers: {
          host: target.host,
          ...(options.body !== undefined && { "content-length": String(Buffer.byteLength(options.body)) }),
          ...options.headers,
        },
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    const body = options.body;
    if (body === undefined) return void req.end();
    if (options.hold === undefined) return void req.end(body);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    options.hold().then(
      () => req.end(body.slice(half)),
      (error: unknown) => req.destroy(error as Error),
    );
  });
}

/** A raw TCP connection to the server: what came back so far, and how the connection ended. */
export interface RawConnection {
  socket: Socket;
  /** Everything received so far, as latin1 text. */
  received(): string;
  /** Resolves once `received()` holds a whole answer head (up to the blank line). */
  head(): Promise<string>;
  /** How the connection ended: `error` is the code of the error that ended it, if any. */
  closed: Promise<{ error?: string }>;
}

/** Opens a TCP connection to the server of `url`, half-open allowed (the test decides when to hang up). */
export function rawConnection(url: string): Promise<RawConnection> {
  const target = new URL(url);
  const socket = connect({
    host: target.hostname.replace(/^\[|\]$/g, ""),
    port: Number(target.port),
    allowHalfOpen: true,
  });
  let text = "";
  const waiting = new Set<() => void>();
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("latin1");
    for (const wake of waiting) wake();
  });
  const closed = new Promise<{ error?: string }>((resolve) => {
    let error: string | undefined;
    socket.on("error", (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on("close", () => resolve(error === undefined ? {} : { error }));
  });
  const head = () =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const end = text.indexOf("\r\n\r\n");
        if (end >= 0) {
          waiting.delete(check);
          resolve(text.slice(0, end));
        }
      };
      waiting.add(check);
      check();
      void closed.then(() => reject(new Error(`closed before an answer: ${JSON.stringify(text.slice(0, 200))}`)));
    });
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve({ socket, received: () => text, head, closed });
    });
  });
}
