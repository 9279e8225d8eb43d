/**
 * Hostile HTTP clients against `skillctx serve --http` (the BUILT CLI in a child process), through
 * node:http so that every header is the attacker's choice: wrong and malformed bearer tokens, the
 * constant-time comparison (by construction: every configured token compared, as fixed-size digests),
 * oversized heads and bodies, Host and Origin tricks against the loopback guard, and a crowd of
 * requests while the server drains on SIGTERM, and clients that keep sending after a refusal (the staged
 * close of RFC 9112 section 9.6, https://www.rfc-editor.org/rfc/rfc9112#section-9.6: without it the
 * server's reset can erase the refusal from the client's buffers, ECONNRESET in place of 431 or 413).
 * Bearer syntax: RFC 6750 section 2.1 (b64token, scheme case-insensitive per RFC 9110 section 11.1);
 * MCP authorization 2025-06-18 (tokens only in the Authorization header):
 * https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification/2025-06-18/basic/authorization.mdx
 */
import * as crypto from "node:crypto";
import { writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { useTempDirs } from "../../packages/core/src/testing/temp-dir.js";
import { bearerCheck } from "../../packages/skills-mcp/src/http-auth.js";
import { assertBuilt } from "../helpers/cli.js";
import { LINGER_MS, MAX_DISCARDED_BODY_BYTES, MAX_HTTP_BODY_BYTES } from "../../packages/skills-mcp/src/limits.js";
import { MCP_HEADERS, rawConnection, rawRequest, rpc, startServe, writeSkills } from "../helpers/serve-http.js";

vi.mock("node:crypto", async (original) => {
  const actual = await original<typeof import("node:crypto")>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const tempDir = useTempDirs("adv-serve-http");
beforeAll(assertBuilt);

const TOKEN = "s3cret-Token_value.42";
const LIST = rpc("skills/list");

async function tokenServer(extra: string[] = []) {
  const home = await tempDir();
  const repo = writeSkills(await tempDir(), 2);
  const file = path.join(home, "tokens");
  writeFileSync(file, `${TOKEN}\n`);
  return startServe(repo, ["--token-file", file, ...extra], { home });
}

describe("skillctx serve --http against hostile clients", () => {
  it("wrong, partial, padded, misplaced and malformed tokens are 401; the scheme's case is not; none reaches the log", async () => {
    const { cli, url } = await tokenServer();
    try {
      const status = async (authorization: string | undefined, pathname?: string) =>
        (
          await rawRequest(url, {
            headers: { ...MCP_HEADERS, ...(authorization !== undefined && { authorization }) },
            body: LIST,
            ...(pathname !== undefined && { path: pathname }),
          })
        ).status;
      const wrong = [
        "",
        "Bearer",
        "Bearer ",
        `Bearer ${TOKEN.slice(0, -1)}`,
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.toUpperCase()}`,
        `Bearer  ${TOKEN}x `,
        `Basic ${Buffer.from(`user:${TOKEN}`).toString("base64")}`,
        `Bearer ${TOKEN}, Bearer ${TOKEN}`,
        `Bearer ${TOKEN}\u00e9`,
        `Token ${TOKEN}`,
        `Bearer ${"A".repeat(8_000)}`,
      ];
      for (const header of wrong) expect(await status(header), JSON.stringify(header.slice(0, 40))).toBe(401);
      expect(await status(undefined, `/mcp?access_token=${TOKEN}`)).toBe(401);
      expect(await status(`Bearer ${TOKEN}`)).toBe(200);
      expect(await status(`bearer ${TOKEN}`)).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
    }
    await cli.exited;
    expect(cli.stderr()).not.toContain(TOKEN.slice(0, 8));
    expect(cli.stderr().match(/POST \/mcp 401 /g), cli.stderr()).toHaveLength(13);
  });

  it("the token comparison is constant-time by construction: every configured token, fixed-size digests, whatever is presented", async () => {
    const safeEqual = vi.mocked(crypto.timingSafeEqual);
    const tokens = ["first-token", "second-token-longer", "third"];
    const check = bearerCheck({ tokens })!;
    const ask = (token: string) =>
      check.admits({ headers: { authorization: `Bearer ${token}` } } as unknown as IncomingMessage);
    for (const [presented, verdict] of [
      ["first-token", "ok"],
      ["third", "ok"],
      ["f", "invalid"],
      ["first-tokeN", "invalid"],
      ["x".repeat(10_000), "invalid"],
    ] as const) {
      safeEqual.mockClear();
      expect(await ask(presented)).toBe(verdict);
      // No early exit on a match, none on a length difference: three comparisons of 32-byte digests.
      expect(safeEqual).toHaveBeenCalledTimes(tokens.length);
      for (const [a, b] of safeEqual.mock.calls) {
        expect((a as Buffer).length).toBe(32);
        expect((b as Buffer).length).toBe(32);
      }
    }
    expect(() => bearerCheck({ tokens: ["has space"] })).toThrow(/b64token/);
    expect(() => bearerCheck({ tokens: [] })).toThrow(/at least one token/);
  });

  it("an oversized head is 431, an oversized body 413; the server still answers afterwards", async () => {
    const { cli, url } = await tokenServer();
    try {
      const auth = { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}` };
      const bigHeader = await rawRequest(url, { headers: { ...auth, "x-pad": "p".repeat(20_000) }, body: LIST }).catch(
        (error: NodeJS.ErrnoException) => ({ status: error.code }),
      );
      expect(bigHeader.status).toBe(431);
      const manyHeaders: Record<string, string> = { ...auth };
      for (let i = 0; i < 2_000; i++) manyHeaders[`x-h${i}`] = "v".repeat(16);
      expect((await rawRequest(url, { headers: manyHeaders, body: LIST })).status).toBe(431);
      expect((await rawRequest(url, { headers: auth, body: "x".repeat(2 * 1024 * 1024) })).status).toBe(413);
      expect((await rawRequest(url, { headers: auth, body: LIST })).status).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
    }
    await cli.exited;
  });

  it("after a 431 the server reads on until the client hangs up (a staged close): the client's late bytes get no reset", async () => {
    const home = await tempDir();
    const { cli, url } = await startServe(writeSkills(await tempDir(), 1), [], { home });
    try {
      const { host } = new URL(url);
      const conn = await rawConnection(url);
      conn.socket.write(`POST /mcp HTTP/1.1\r\nHost: ${host}\r\nx-pad: ${"p".repeat(20_000)}\r\n`);
      expect(await conn.head()).toMatch(/^HTTP\/1\.1 431 .*\r\nConnection: close/is);
      // The client had more to send: the rest of its head and a body. An immediate close answers them
      // with a reset; a staged one reads them and closes once the client does.
      // (Two writes apart: a reset answers the first, and the second is where the client meets it.)
      conn.socket.write(`x-more: ${"m".repeat(200_000)}\r\ncontent-length: 300000\r\n\r\n`);
      await new Promise((r) => setTimeout(r, 200));
      conn.socket.write("b".repeat(300_000));
      await new Promise((r) => setTimeout(r, 200));
      conn.socket.end();
      expect(await conn.closed).toEqual({});
      expect((await rawRequest(url, { headers: MCP_HEADERS, body: LIST })).status).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
    }
    expect((await cli.exited).code).toBe(143);
  });

  it(`a client that never hangs up after a 431 is cut off after LINGER_MS (${LINGER_MS} ms)`, async () => {
    const home = await tempDir();
    const { cli, url } = await startServe(writeSkills(await tempDir(), 1), [], { home });
    try {
      const conn = await rawConnection(url);
      conn.socket.write(`GET /mcp HTTP/1.1\r\nx-pad: ${"p".repeat(20_000)}\r\n`);
      expect(await conn.head()).toMatch(/^HTTP\/1\.1 431 /);
      const answered = performance.now();
      // Keep talking and never half-close: the server must end it, not wait forever.
      const drip = setInterval(() => conn.socket.writable && conn.socket.write("x"), 50);
      const outcome = await conn.closed;
      clearInterval(drip);
      const waited = performance.now() - answered;
      expect(outcome.error, "the server closed with the client's bytes unread: a reset").toMatch(/ECONNRESET|EPIPE/);
      expect(waited).toBeGreaterThanOrEqual(LINGER_MS / 2);
      expect(waited).toBeLessThan(LINGER_MS + 10_000);
    } finally {
      cli.child.kill("SIGTERM");
    }
    expect((await cli.exited).code).toBe(143);
  });

  it("an oversized body, declared or chunked, is read to its end and answered 413, not reset; one declared past the discard cap is refused unread; a stalled one is answered after LINGER_MS", async () => {
    const home = await tempDir();
    const { cli, url } = await startServe(writeSkills(await tempDir(), 1), [], { home });
    try {
      const { host } = new URL(url);
      const head = (length: number) =>
        `POST /mcp HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\n` +
        `accept: application/json, text/event-stream\r\nconnection: close\r\ncontent-length: ${length}\r\n\r\n`;
      // Well past what the loopback buffers hold, within what the server reads and drops.
      const size = MAX_HTTP_BODY_BYTES + MAX_DISCARDED_BODY_BYTES - 1024;
      for (let i = 0; i < 3; i++) {
        const conn = await rawConnection(url);
        conn.socket.write(head(size));
        conn.socket.end(Buffer.alloc(size, 0x78));
        const answer = await conn.head().catch((error: Error) => error.message);
        expect({ answer: answer.slice(0, 12), end: await conn.closed }).toEqual({ answer: "HTTP/1.1 413", end: {} });
        expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      }
      // No length declared (chunked): the cap is met while reading, and the rest is still read and dropped.
      const chunked = await rawConnection(url);
      chunked.socket.write(head(0).replace("content-length: 0", "transfer-encoding: chunked"));
      const piece = Buffer.alloc(256 * 1024, 0x78);
      for (let sent = 0; sent < 3 * MAX_HTTP_BODY_BYTES; sent += piece.length)
        chunked.socket.write(`${piece.length.toString(16)}\r\n${piece.toString("latin1")}\r\n`);
      chunked.socket.end("0\r\n\r\n");
      const chunkedAnswer = await chunked.head().catch((error: Error) => error.message);
      expect({ answer: chunkedAnswer.slice(0, 12), end: await chunked.closed }).toEqual({
        answer: "HTTP/1.1 413",
        end: {},
      });
      // Declared past both caps: answered at once, before a byte of the body is sent.
      const huge = await rawConnection(url);
      huge.socket.write(head(MAX_HTTP_BODY_BYTES + MAX_DISCARDED_BODY_BYTES + 1));
      expect(await huge.head()).toMatch(/^HTTP\/1\.1 413 /);
      huge.socket.destroy();
      // Declared too large, then half of it and silence: the answer comes after the linger, not never.
      const stalled = await rawConnection(url);
      stalled.socket.write(head(4 * MAX_HTTP_BODY_BYTES));
      stalled.socket.write(Buffer.alloc(2 * MAX_HTTP_BODY_BYTES, 0x78));
      const sent = performance.now();
      expect(await stalled.head()).toMatch(/^HTTP\/1\.1 413 /);
      expect(performance.now() - sent).toBeGreaterThanOrEqual(LINGER_MS / 2);
      stalled.socket.destroy();
      expect((await rawRequest(url, { headers: MCP_HEADERS, body: LIST })).status).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
    }
    expect((await cli.exited).code).toBe(143);
  });

  it("Host and Origin tricks against the loopback guard are 403; other spellings of the bound address pass", async () => {
    const home = await tempDir();
    const { cli, url } = await startServe(writeSkills(await tempDir(), 1), [], { home });
    try {
      const port = new URL(url).port;
      const status = async (headers: Record<string, string>) =>
        (await rawRequest(url, { headers: { ...MCP_HEADERS, ...headers }, body: LIST })).status;
      for (const host of [
        "127.0.0.1@evil.example",
        "evil.example#@127.0.0.1",
        "localhost.evil.example",
        "127.0.0.1.evil.example",
        "evil.example/127.0.0.1",
        "[::1]",
        "0.0.0.0",
        "127.0.0.2",
      ])
        expect(await status({ host }), JSON.stringify(host)).toBe(403);
      // The bound address however it is spelled (the URL parser's canonical host), and localhost.
      for (const host of [
        `127.0.0.1:${port}`,
        "127.1",
        "2130706433",
        "0x7f.0.0.1",
        "LOCALHOST",
        "localhost.",
        "127.0.0.1",
      ])
        expect(await status({ host }), host).toBe(200);
      for (const origin of [
        "http://localhost.evil.example",
        "http://evil.example",
        "javascript:alert(1)",
        "http://[::2]",
      ])
        expect(await status({ origin }), origin).toBe(403);
      expect(await status({ origin: "https://127.0.0.1" })).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
    }
    await cli.exited;
  });

  // The break of issue 25: only three literal host strings were checked, so these binds checked nothing.
  it.each(["127.0.0.2", "127.255.255.254", "::ffff:127.0.0.1"])(
    "DNS rebinding through another loopback name (--host %s): foreign Host and Origin headers are 403",
    async (bound) => {
      const home = await tempDir();
      const { cli, url } = await startServe(writeSkills(await tempDir(), 1), ["--host", bound], { home });
      try {
        const port = new URL(url).port;
        const status = async (headers: Record<string, string>) =>
          (await rawRequest(url, { headers: { ...MCP_HEADERS, ...headers }, body: LIST })).status;
        expect(await status({ host: `rebind.evil.example:${port}` })).toBe(403);
        expect(await status({ origin: `http://rebind.evil.example:${port}` })).toBe(403);
        expect(await status({ host: `127.0.0.1:${port}` })).toBe(bound === "127.0.0.1" ? 200 : 403);
        expect(await status({})).toBe(200);
      } finally {
        cli.child.kill("SIGTERM");
      }
      await cli.exited;
    },
  );

  it("100 requests at once while SIGTERM drains: each is a whole 200, a 503, or a refused or reset connection; never a cut answer", async () => {
    const { cli, url } = await tokenServer();
    const auth = { ...MCP_HEADERS, authorization: `Bearer ${TOKEN}` };
    const outcomes = Array.from({ length: 100 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 3));
      try {
        const answer = await rawRequest(url, { headers: auth, body: LIST });
        if (answer.status === 200) return JSON.parse(answer.body).result.skills.length === 2 ? "200" : "cut";
        return String(answer.status);
      } catch (error) {
        return (error as NodeJS.ErrnoException).code ?? "error";
      }
    });
    setTimeout(() => cli.child.kill("SIGTERM"), 100);
    const seen = new Set(await Promise.all(outcomes));
    for (const outcome of seen) expect(["200", "503", "ECONNREFUSED", "ECONNRESET"]).toContain(outcome);
    expect(seen.has("200")).toBe(true);
    expect((await cli.exited).code).toBe(143);
  });
});
