import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpBridge } from "./bridge.js";
import { cappedFetch } from "./capped-fetch.js";
import type { McpFrameError } from "./frame-reader.js";
import { fixtureServer, MISBEHAVING_HTTP_SERVER, startHttpFixture } from "./test-utils.js";

const CAP = 64 * 1024;
const big = "a".repeat(300_000);

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const send = (status: number, type: string, body: string) =>
      res.writeHead(status, { "content-type": type }).end(body);
    switch (req.url) {
      case "/json-ok":
        return send(200, "application/json", JSON.stringify({ small: true }));
      case "/json-big":
        return send(200, "application/json", JSON.stringify({ big }));
      case "/error-big":
        return send(500, "text/plain", big);
      case "/sse-big-event":
        // One event made of many short data lines: each line is small, the event is not.
        return send(
          200,
          "text/event-stream",
          `${Array.from({ length: 300 }, () => `data: ${"b".repeat(1000)}`).join("\n")}\n\n`,
        );
      case "/sse-many-events":
        return send(
          200,
          "text/event-stream; charset=utf-8",
          Array.from({ length: 300 }, (_, i) => `id: ${i}\r\ndata: ${"c".repeat(1000)}\r\n\r\n`).join(""),
        );
      default:
        return send(404, "text/plain", "no");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function capped() {
  const oversize: McpFrameError[] = [];
  return { fetch: cappedFetch({ maxBytes: CAP, onOversize: (e) => oversize.push(e) }), oversize };
}

describe("cappedFetch", () => {
  it("passes bodies within the cap unchanged, with status and headers", async () => {
    const { fetch, oversize } = capped();
    const response = await fetch(`${base}/json-ok`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.url).toBe(`${base}/json-ok`);
    expect(await response.json()).toEqual({ small: true });
    expect(oversize).toEqual([]);
  });

  it("errors a JSON body, or an error body, over the cap and reports it", async () => {
    for (const path of ["/json-big", "/error-big"]) {
      const { fetch, oversize } = capped();
      const response = await fetch(`${base}${path}`);
      await expect(response.text()).rejects.toThrow();
      expect(oversize.map((e) => e.message)).toEqual(["sent an HTTP response larger than the 64 KiB cap"]);
    }
  });

  it("caps each server-sent event, not the stream: many small events pass, one big event does not", async () => {
    const many = capped();
    const text = await (await many.fetch(`${base}/sse-many-events`)).text();
    expect(text.length).toBeGreaterThan(CAP * 4);
    expect(many.oversize).toEqual([]);

    const one = capped();
    await expect((await one.fetch(`${base}/sse-big-event`)).text()).rejects.toThrow();
    expect(one.oversize.map((e) => e.message)).toEqual(["sent a server-sent event larger than the 64 KiB cap"]);
  });
});

describe("an HTTP MCP server that sends malformed events", () => {
  it("gets one warning and keeps answering", async () => {
    const http = await startHttpFixture(MISBEHAVING_HTTP_SERVER);
    try {
      await using bridge = await createMcpBridge(
        [{ name: "web", config: { type: "http", url: http.url }, trusted: true }],
        { start: ["web"] },
      );
      expect(await bridge.callTool("mcp__web__badsse", {})).toEqual({ content: "after bad events" });
      expect(await bridge.callTool("mcp__web__badsse", {})).toEqual({ content: "after bad events" });
      expect(bridge.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
        [
          "MCP_MESSAGE_MALFORMED",
          "warning",
          'MCP server "web" sent a malformed message (not JSON, in an event stream); it is stopped after 100',
        ],
      ]);
    } finally {
      await http.stop();
    }
  });
});

describe("an HTTP MCP server that answers with an over-size body", () => {
  it("gets an error result and a diagnostic, for a JSON body and for an event stream, and the other server answers", async () => {
    const http = await startHttpFixture(MISBEHAVING_HTTP_SERVER, ["--bytes", String(300_000)]);
    try {
      await using bridge = await createMcpBridge(
        [{ name: "web", config: { type: "http", url: http.url }, trusted: true }, fixtureServer("good")],
        {
          start: ["web", "good"],
          maxMessageBytes: CAP,
          maxRestarts: 2,
        },
      );
      expect(await bridge.callTool("mcp__web__echo", { text: "fine" })).toEqual({ content: "fine" });
      for (const [tool, what] of [
        ["json", "an HTTP response"],
        ["sse", "a server-sent event"],
      ] as const) {
        expect(await bridge.callTool(`mcp__web__${tool}`, {})).toEqual({
          content: `MCP server "web" was stopped because it sent ${what} larger than the 64 KiB cap during the call to "${tool}"; it will be restarted on the next call.`,
          isError: true,
        });
        expect(await bridge.callTool("mcp__good__echo", { text: "ok" })).toEqual({ content: "ok" });
        // Restarted (reconnected) on the next call.
        expect(await bridge.callTool("mcp__web__echo", { text: "again" })).toEqual({ content: "again" });
      }
      expect(bridge.diagnostics.map((d) => [d.code, d.message])).toEqual([
        [
          "MCP_MESSAGE_TOO_LARGE",
          'MCP server "web" sent an HTTP response larger than the 64 KiB cap; it was stopped and it will be restarted on the next call',
        ],
        [
          "MCP_MESSAGE_TOO_LARGE",
          'MCP server "web" sent a server-sent event larger than the 64 KiB cap; it was stopped and it will be restarted on the next call',
        ],
      ]);
    } finally {
      await http.stop();
    }
  });
});
