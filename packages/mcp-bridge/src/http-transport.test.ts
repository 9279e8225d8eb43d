import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpBridge } from "./bridge.js";
import { startHttpFixture } from "./test-utils.js";

describe("streamable HTTP servers", () => {
  let http: Awaited<ReturnType<typeof startHttpFixture>>;
  beforeAll(async () => {
    http = await startHttpFixture();
  });
  afterAll(async () => {
    await http.stop();
  });

  it("lists and calls tools, sending the declared headers", async () => {
    await using bridge = await createMcpBridge(
      [{ name: "remote", config: { type: "http", url: http.url, headers: { "X-Api-Key": "k-123" } }, trusted: true }],
      { start: ["remote"] },
    );
    expect(bridge.diagnostics).toEqual([]);
    expect(bridge.tools().map((t) => t.name)).toContain("mcp__remote__echo");
    expect(bridge.servers()[0]).toMatchObject({ state: "running" });
    expect(bridge.servers()[0]!.pid).toBeUndefined();
    expect(await bridge.callTool("mcp__remote__echo", { text: "over http" })).toEqual({ content: "over http" });
    expect(await bridge.callTool("mcp__remote__header", { name: "X-Api-Key" })).toEqual({ content: "k-123" });
    // The server runs in its own process: the bridge does not own it.
    expect(Number((await bridge.callTool("mcp__remote__pid", {})).content)).toBe(http.pid);
  });

  it("refreshes the list when the server announces a change over HTTP", async () => {
    let changes = 0;
    let notify!: () => void;
    const changed = new Promise<void>((resolve) => (notify = resolve));
    await using bridge = await createMcpBridge(
      [{ name: "remote", config: { type: "http", url: http.url }, trusted: true }],
      {
        start: ["remote"],
        onToolsChanged: () => ++changes > 1 && notify(),
      },
    );
    expect(bridge.tools().some((t) => t.tool === "via_http")).toBe(false);
    await bridge.callTool("mcp__remote__add_tool", { name: "via_http" });
    await changed;
    expect(bridge.tools().some((t) => t.name === "mcp__remote__via_http")).toBe(true);
    expect(bridge.diagnostics).toEqual([]);
    expect(await bridge.callTool("mcp__remote__via_http", {})).toEqual({ content: "called via_http" });
  });

  it("reports a server that cannot be reached and keeps the others", async () => {
    await using bridge = await createMcpBridge(
      [
        { name: "nowhere", config: { type: "http", url: "http://127.0.0.1:9/mcp" }, trusted: true },
        { name: "remote", config: { type: "http", url: http.url }, trusted: true },
      ],
      { start: ["nowhere", "remote"], startupTimeoutMs: 5000 },
    );
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_SERVER_START_FAILED",
        message: expect.stringContaining('"nowhere" failed to start'),
      }),
    ]);
    expect(bridge.servers().map((s) => s.state)).toEqual(["failed", "running"]);
  });
});
