// Issue 25 (known, now fixed): the MCP SDK's streamable HTTP client passes one long-lived AbortSignal to
// every request, and Node's fetch leaves an abort listener on it until the request is garbage collected,
// so a busy transport crossed undici's 1,500-listener mark (MaxListenersExceededWarning). skillctx's
// cappedFetch (the transport's fetch) gives each request its own signal and lets go when the response is
// done. A real HTTP server on 127.0.0.1 and a real MCP SDK client; listeners counted with node:events.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { getEventListeners } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { cappedFetch } from "../../packages/mcp-bridge/src/capped-fetch.js";

const HTTP_SERVER = fileURLToPath(new URL("../../fixtures/mcp/http-server.mjs", import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

describe("abort listeners of one HTTP transport", () => {
  it("cappedFetch: 400 requests sharing one signal leave no listener on it, and an abort still reaches one in flight", async () => {
    let hold: (() => void) | undefined;
    const server = createServer((req, res) => {
      if (req.url === "/hold") {
        hold = () => res.end("late");
        return;
      }
      res.end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const fetchCapped = cappedFetch({ maxBytes: 1 << 20, onOversize: () => {} });
      const outer = new AbortController();
      for (let i = 0; i < 400; i++) {
        const response = await fetchCapped(`${base}/x`, { signal: outer.signal });
        await response.json();
      }
      expect(getEventListeners(outer.signal, "abort")).toHaveLength(0);
      const pending = fetchCapped(`${base}/hold`, { signal: outer.signal });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(getEventListeners(outer.signal, "abort")).toHaveLength(1);
      outer.abort(new Error("stop"));
      await expect(pending).rejects.toThrow();
      hold?.();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("the MCP SDK client over cappedFetch: 300 requests on one transport keep its signal's listeners bounded", async () => {
    const child = spawn(process.execPath, [HTTP_SERVER], { stdio: ["pipe", "pipe", "inherit"] });
    children.push(child);
    const url = await new Promise<string>((resolve) =>
      child.stdout!.on("data", (d: Buffer) => {
        const m = /LISTENING (\S+)/.exec(String(d));
        if (m) resolve(m[1]!);
      }),
    );
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: cappedFetch({ maxBytes: 1 << 24, onOversize: () => {} }),
    });
    const client = new Client({ name: "listeners", version: "1" });
    await client.connect(transport);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      for (let i = 0; i < 300; i++) await client.listTools();
      // The SDK's own signal (private in 1.x): what the warning was about.
      const signal = (transport as unknown as { _abortController?: AbortController })._abortController?.signal;
      expect(signal).toBeDefined();
      expect(getEventListeners(signal!, "abort").length).toBeLessThanOrEqual(2);
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
      await client.close();
    }
  }, 60_000);
});
