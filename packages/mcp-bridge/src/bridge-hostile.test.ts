// Misbehaving servers against the bridge's caps, with small caps so each test stays quick. The same
// attacks at full size (64 MiB lines, default caps) run in separate processes in test/adversarial/mcp.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { createMcpBridge, type McpBridge, type McpBridgeOptions } from "./bridge.js";
import type { DeclaredServer } from "./types.js";
import { descendants, fixtureServer, misbehavingServer } from "./test-utils.js";

const open: McpBridge[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
  expect(descendants()).toEqual([]);
});

// The hostile server `bad` beside the well-behaved fixture server `good`, both started.
async function withGood(bad: DeclaredServer, options: McpBridgeOptions = {}): Promise<McpBridge> {
  const bridge = await createMcpBridge([bad, fixtureServer("good")], {
    start: [bad.name, "good"],
    shutdownGraceMs: 300,
    ...options,
  });
  open.push(bridge);
  return bridge;
}

const goodAnswers = async (bridge: McpBridge) =>
  expect(await bridge.callTool("mcp__good__echo", { text: "still here" })).toEqual({ content: "still here" });
const codes = (bridge: McpBridge) => bridge.diagnostics.map((d) => d.code);

describe("a server that sends a message over maxMessageBytes", () => {
  it("is stopped: the call gets an error result, a diagnostic names the cap, it restarts once, the other server answers", async () => {
    const bridge = await withGood(misbehavingServer("bad", "huge-result", { bytes: 300_000 }), {
      maxMessageBytes: 64 * 1024,
    });
    const first = await bridge.callTool("mcp__bad__boom", {});
    expect(first).toEqual({
      content:
        'MCP server "bad" was stopped because it sent a message larger than the 64 KiB cap during the call to "boom"; it will be restarted on the next call.',
      isError: true,
    });
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_MESSAGE_TOO_LARGE",
        severity: "error",
        message:
          'MCP server "bad" sent a message larger than the 64 KiB cap; it was stopped and it will be restarted on the next call',
      }),
    ]);
    await goodAnswers(bridge);
    expect(await bridge.callTool("mcp__bad__echo", { text: "restarted" })).toEqual({ content: "restarted" });
    const second = await bridge.callTool("mcp__bad__boom", {});
    expect(second).toMatchObject({ isError: true, content: expect.stringContaining("it will not be restarted again") });
    expect(bridge.servers().map((s) => [s.name, s.state])).toEqual([
      ["bad", "exited"],
      ["good", "running"],
    ]);
    await goodAnswers(bridge);
  });

  it("fails its start when the over-size message is the tools/list answer", async () => {
    const bridge = await withGood(misbehavingServer("bad", "huge-list", { bytes: 300_000 }), {
      maxMessageBytes: 64 * 1024,
    });
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_MESSAGE_TOO_LARGE",
        message: 'MCP server "bad" was stopped during startup: it sent a message larger than the 64 KiB cap',
      }),
    ]);
    expect(bridge.servers().map((s) => s.state)).toEqual(["failed", "running"]);
    expect(bridge.tools().every((t) => t.server === "good")).toBe(true);
    await goodAnswers(bridge);
  });
});

describe("tools/list caps", () => {
  it("reads at most maxToolPages pages of a server that always returns a nextCursor, and keeps their tools", async () => {
    const bridge = await withGood(misbehavingServer("bad", "endless-pages"), { maxToolPages: 5 });
    const tools = bridge
      .tools()
      .filter((t) => t.server === "bad")
      .map((t) => t.tool);
    expect(tools).toEqual(["boom", "echo", "t0", "t1", "t2", "t3", "t4"]);
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_TOOLS_LIST_TRUNCATED",
        severity: "warning",
        message: 'MCP server "bad" had more than 5 pages of tools; the tools of the first 5 are kept',
      }),
    ]);
    expect(await bridge.callTool("mcp__bad__t4", {})).toEqual({ content: "called t4" });
    await goodAnswers(bridge);
  });

  it("keeps at most maxToolsPerServer tools and maxToolListBytes of definitions", async () => {
    const many = await withGood(misbehavingServer("bad", "many-tools", { count: 50 }), { maxToolsPerServer: 30 });
    expect(many.tools().filter((t) => t.server === "bad")).toHaveLength(30);
    expect(many.diagnostics.map((d) => d.message)).toEqual([
      'MCP server "bad" listed more than 30 tools; the first 30 are kept',
    ]);

    const heavy = await withGood(misbehavingServer("bad", "many-tools", { count: 50 }), { maxToolListBytes: 2048 });
    const kept = heavy.tools().filter((t) => t.server === "bad");
    expect(kept.length).toBeGreaterThan(2);
    expect(kept.length).toBeLessThan(52);
    const size = kept.reduce(
      (sum, t) => sum + JSON.stringify({ name: t.tool, description: t.description, inputSchema: t.inputSchema }).length,
      0,
    );
    expect(size).toBeLessThanOrEqual(2048);
    // (The fixture server `good` may hit this small cap too; only bad's note matters here.)
    expect(heavy.diagnostics.map((d) => d.message).filter((m) => m.startsWith('MCP server "bad"'))).toEqual([
      `MCP server "bad" listed more than 2 KiB of tool definitions; the first ${kept.length} tools are kept`,
    ]);
    await goodAnswers(heavy);
  });

  it("leaves out invalid and repeated tools with a diagnostic, and keeps the valid ones", async () => {
    const bridge = await withGood(misbehavingServer("bad", "bad-tools"));
    expect(
      bridge
        .tools()
        .filter((t) => t.server === "bad")
        .map((t) => t.tool),
    ).toEqual(["boom", "echo"]);
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_TOOL_INVALID",
        message: 'MCP server "bad" listed 3 invalid tools ("no_schema", unnamed, "array_schema"), left out',
      }),
      expect.objectContaining({
        code: "MCP_TOOL_INVALID",
        message: 'MCP server "bad" listed "echo" more than once; the first is kept',
      }),
    ]);
    expect(await bridge.callTool("mcp__bad__echo", { text: "valid" })).toEqual({ content: "valid" });
  });
});

describe("malformed messages", () => {
  it("warns once about a server that writes stray lines, and keeps using it", async () => {
    const bridge = await withGood(misbehavingServer("bad", "garbage-once"));
    for (const text of ["a", "b", "c"])
      expect(await bridge.callTool("mcp__bad__echo", { text })).toEqual({ content: text });
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_MESSAGE_MALFORMED",
        severity: "warning",
        message:
          'MCP server "bad" sent a malformed message (not JSON: "this is a log line, not JSON-RPC"); it is stopped after 100',
      }),
    ]);
  });

  it("stops a server after maxMalformedMessages (not JSON, not JSON-RPC, binary), with an error result and a diagnostic", async () => {
    const bridge = await withGood(misbehavingServer("bad", "garbage", { count: 50 }), { maxMalformedMessages: 10 });
    const result = await bridge.callTool("mcp__bad__boom", {});
    expect(result).toMatchObject({
      isError: true,
      content: expect.stringMatching(
        /^MCP server "bad" was stopped because it sent 10 malformed messages \(the cap is 10\)/,
      ),
    });
    expect(codes(bridge)).toEqual(["MCP_MESSAGE_MALFORMED", "MCP_MESSAGE_MALFORMED"]);
    expect(bridge.diagnostics.map((d) => d.severity)).toEqual(["warning", "error"]);
    // Each kind of garbage counts: a JSON array, an object that is not JSON-RPC 2.0, control characters.
    expect(bridge.diagnostics[1]!.message).toMatch(/the last one (not JSON|not a JSON-RPC 2\.0 message): /);
    await goodAnswers(bridge);
    expect(await bridge.callTool("mcp__bad__echo", { text: "after restart" })).toEqual({ content: "after restart" });
  });
});

describe("tool results", () => {
  it("cuts a result longer than maxResultChars, with a note on the last line", async () => {
    const bridge = await withGood(misbehavingServer("bad", "huge-result", { bytes: 5000 }), { maxResultChars: 1000 });
    const result = await bridge.callTool("mcp__bad__boom", {});
    const [text, note] = result.content.split("\n");
    expect(text).toBe("a".repeat(1000));
    expect(note).toMatch(/^\[… \d+ more characters cut: the result is longer than the 1000-character cap\]$/);
    expect(result.isError).toBeUndefined();
  });

  it("describes structured content nested too deeply to show, instead of failing", async () => {
    const bridge = await withGood(misbehavingServer("bad", "deep-result", { count: 200_000 }));
    expect(await bridge.callTool("mcp__bad__boom", {})).toEqual({
      content: "[structured content that cannot be shown: nested too deeply]",
    });
    await goodAnswers(bridge);
  });

  it("answers a crash in the middle of a response with an error result naming the exit", async () => {
    const bridge = await withGood(misbehavingServer("bad", "crash-mid-call"));
    expect(await bridge.callTool("mcp__bad__boom", {})).toEqual({
      content: 'MCP server "bad" exited with code 9 during the call to "boom"; it will be restarted on the next call.',
      isError: true,
    });
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_SERVER_EXITED",
        message: 'MCP server "bad" exited with code 9; stderr: misbehaving: crashing mid-call',
      }),
    ]);
    await goodAnswers(bridge);
  });
});
