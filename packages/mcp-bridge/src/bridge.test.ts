import { compareCodePoints, SkillctxError } from "@skillctx/core";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpBridge, type McpBridge } from "./bridge.js";
import { commandLine, descendants, fixture, fixtureServer, isProcessAlive, waitFor } from "./test-utils.js";

const open: McpBridge[] = [];
async function bridgeOf(...args: Parameters<typeof createMcpBridge>): Promise<McpBridge> {
  const bridge = await createMcpBridge(...args);
  open.push(bridge);
  return bridge;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

const pidOf = async (bridge: McpBridge, server: string): Promise<number> =>
  Number((await bridge.callTool(`mcp__${server}__pid`, {})).content);

describe("createMcpBridge", () => {
  it("starts the named servers, lists their tools and calls them", async () => {
    const bridge = await bridgeOf([fixtureServer("alpha"), fixtureServer("beta")], { start: ["alpha", "beta"] });
    const names = bridge.tools().map((t) => t.name);
    expect(names).toContain("mcp__alpha__echo");
    expect(names).toContain("mcp__beta__add");
    expect(names).toEqual([...names].sort(compareCodePoints));
    const echo = bridge.tools().find((t) => t.name === "mcp__alpha__echo")!;
    expect(echo).toMatchObject({ server: "alpha", tool: "echo", description: "Returns its text." });

    expect(await bridge.callTool("mcp__alpha__echo", { text: "hello" })).toEqual({ content: "hello" });
    expect(await bridge.callTool("mcp__beta__add", { a: 2, b: 40 })).toEqual({ content: "42" });
    expect(bridge.diagnostics).toEqual([]);
    expect(bridge.servers().map((s) => [s.name, s.state])).toEqual([
      ["alpha", "running"],
      ["beta", "running"],
    ]);
    const skilled = await bridgeOf([fixtureServer("gamma", { skill: "gamma-skill" })], { start: ["gamma"] });
    expect(new Set(skilled.tools().map((t) => t.skill))).toEqual(new Set(["gamma-skill"]));
  });

  it("starts lazily: nothing runs until start(), and start() is idempotent", async () => {
    let changes = 0;
    const bridge = await bridgeOf([fixtureServer("lazy")], { onToolsChanged: () => changes++ });
    expect(bridge.tools()).toEqual([]);
    expect(bridge.servers()[0]).toMatchObject({ state: "idle", tools: 0 });
    expect(await bridge.callTool("mcp__lazy__echo", { text: "x" })).toMatchObject({ isError: true });

    const [first, second] = await Promise.all([bridge.start(["lazy"]), bridge.start(["lazy"])]);
    expect(first).toEqual([]);
    expect(second).toEqual([]);
    const pid = bridge.servers()[0]!.pid!;
    expect(isProcessAlive(pid)).toBe(true);
    expect(changes).toBe(1);
    expect(await bridge.start(["lazy"])).toEqual([]);
    expect(bridge.servers()[0]!.pid).toBe(pid);
    expect(await bridge.callTool("mcp__lazy__echo", { text: "x" })).toEqual({ content: "x" });
  });

  it("passes input schemas through unchanged and names tools within 64 characters", async () => {
    const bridge = await bridgeOf([fixtureServer("names")], { start: ["names"] });
    const tools = bridge.tools();
    const schema = tools.find((t) => t.tool === "schema")!;
    const { UNUSUAL_SCHEMA } = (await import(fixture("tools.mjs"))) as { UNUSUAL_SCHEMA: unknown };
    expect(schema.inputSchema).toEqual(UNUSUAL_SCHEMA);

    for (const tool of tools) expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    const dotted = tools.find((t) => t.tool === "read.file/v2")!;
    expect(dotted.name).toBe("mcp__names__read_file_v2");
    const long = tools.find((t) => t.tool.startsWith("a_tool_whose_name"))!;
    expect(long.name).toHaveLength(64);
    expect(long.name).toMatch(/^mcp__names__a_tool_whose_name_is_far_too_long_[a-z_]*_[0-9a-f]{8}$/);
    expect(await bridge.callTool(dotted.name, {})).toEqual({ content: "called read.file/v2" });
    expect(await bridge.callTool(long.name, {})).toEqual({ content: `called ${long.tool}` });
  });

  it("describes non-text content instead of dropping it", async () => {
    const bridge = await bridgeOf([fixtureServer("media")], { start: ["media"] });
    const { PNG_BASE64 } = (await import(fixture("tools.mjs"))) as { PNG_BASE64: string };
    const result = await bridge.callTool("mcp__media__media", {});
    expect(result.content.split("\n")).toEqual([
      "four parts follow",
      `[image: image/png, ${Buffer.from(PNG_BASE64, "base64").length} bytes]`,
      `[audio: audio/wav, ${"RIFF0000WAVE".length} bytes]`,
      "[resource: file:///notes.txt (text/plain)]",
      "note body",
      "[resource: file:///blob.bin, application/octet-stream, 3 bytes]",
      "[resource link: file:///big.log (big.log) - the full log]",
    ]);
    expect(await bridge.callTool("mcp__media__structured", {})).toEqual({ content: '{"answer":42}' });
    expect(await bridge.callTool("mcp__media__fail", {})).toEqual({ content: "it went wrong", isError: true });
  });

  it("accepts arguments as a JSON string and refuses non-objects", async () => {
    const bridge = await bridgeOf([fixtureServer("args")], { start: ["args"] });
    expect(await bridge.callTool("mcp__args__add", '{"a":1,"b":2}')).toEqual({ content: "3" });
    expect(await bridge.callTool("mcp__args__add", [1, 2])).toMatchObject({
      isError: true,
      content: expect.stringContaining("JSON object"),
    });
    expect(await bridge.callTool("mcp__args__nope", {})).toEqual({
      content: 'Unknown MCP tool "mcp__args__nope".',
      isError: true,
    });
  });

  it("refreshes the tool list on tools/list_changed", async () => {
    let changed!: () => void;
    const refreshed = new Promise<void>((resolve) => (changed = resolve));
    let started = false;
    const bridge = await bridgeOf([fixtureServer("dyn")], {
      start: ["dyn"],
      onToolsChanged: () => (started ? changed() : (started = true)),
    });
    expect(bridge.tools().some((t) => t.tool === "late")).toBe(false);
    expect(await bridge.callTool("mcp__dyn__add_tool", { name: "late" })).toEqual({ content: "added late" });
    await refreshed;
    expect(bridge.tools().some((t) => t.name === "mcp__dyn__late")).toBe(true);
    expect(await bridge.callTool("mcp__dyn__late", {})).toEqual({ content: "called late" });
  });

  it("applies per-call timeouts and honours an abort signal", async () => {
    const bridge = await bridgeOf([fixtureServer("slow")], { start: ["slow"], callTimeoutMs: 5000 });
    const timedOut = await bridge.callTool("mcp__slow__slow", { ms: 3000 }, { timeoutMs: 100 });
    expect(timedOut).toEqual({ content: 'MCP tool "slow" on server "slow" timed out after 100 ms.', isError: true });

    const controller = new AbortController();
    const call = bridge.callTool("mcp__slow__slow", { ms: 3000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("user gave up")), 50);
    await expect(call).rejects.toThrow("user gave up");
    // The server is still fine afterwards.
    expect(await bridge.callTool("mcp__slow__slow", { ms: 1 })).toEqual({ content: "done after 1 ms" });
  });

  it("uses a server's own timeout when the call gives none", async () => {
    const bridge = await bridgeOf([fixtureServer("own", { config: { timeout: 80 } })], { start: ["own"] });
    expect(await bridge.callTool("mcp__own__slow", { ms: 3000 })).toMatchObject({
      isError: true,
      content: expect.stringContaining("timed out after 80 ms"),
    });
  });

  it("answers a crash mid-call with an error naming the server, then restarts it once", async () => {
    const bridge = await bridgeOf([fixtureServer("crashy")], { start: ["crashy"] });
    const firstPid = await pidOf(bridge, "crashy");

    const crashed = await bridge.callTool("mcp__crashy__crash", { code: 7 });
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toBe(
      'MCP server "crashy" exited with code 7 during the call to "crash"; it will be restarted on the next call.',
    );
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_SERVER_EXITED",
        message: expect.stringContaining("fixture: crashing on purpose"),
      }),
    ]);
    expect(isProcessAlive(firstPid)).toBe(false);
    expect(bridge.tools().length).toBeGreaterThan(0); // still callable, so the next call can restart it

    const secondPid = await pidOf(bridge, "crashy");
    expect(secondPid).not.toBe(firstPid);
    expect(isProcessAlive(secondPid)).toBe(true);

    const again = await bridge.callTool("mcp__crashy__crash", { code: 8 });
    expect(again.content).toBe(
      'MCP server "crashy" exited with code 8 during the call to "crash"; it will not be restarted again.',
    );
    expect(bridge.tools()).toEqual([]);
    expect(bridge.diagnostics.map((d) => d.code)).toEqual(["MCP_SERVER_EXITED", "MCP_SERVER_EXITED"]);
    expect(await bridge.callTool("mcp__crashy__echo", { text: "x" })).toMatchObject({ isError: true });
    expect(bridge.servers()[0]!.state).toBe("exited");
  });

  it("restarts a server that died between calls on the next call", async () => {
    let changes = 0;
    const bridge = await bridgeOf([fixtureServer("idle")], { start: ["idle"], onToolsChanged: () => changes++ });
    const pid = bridge.servers()[0]!.pid!;
    process.kill(pid, "SIGKILL");
    await waitFor(() => bridge.servers()[0]!.state === "exited");
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({ code: "MCP_SERVER_EXITED", message: 'MCP server "idle" exited with signal SIGKILL' }),
    ]);
    expect(await bridge.callTool("mcp__idle__echo", { text: "back" })).toEqual({ content: "back" });
    expect(bridge.servers()[0]!.pid).not.toBe(pid);
    expect(changes).toBe(2); // started, restarted
  });

  it("reports a server that never answers the handshake after the startup timeout, and stops it", async () => {
    // How long this takes is checked in test/adversarial/mcp.test.ts, in a separate process with a generous bound.
    const bridge = await bridgeOf([fixtureServer("hang", { script: "hang-server.mjs" }), fixtureServer("ok")], {
      start: ["hang", "ok"],
      // Long enough for the good server on a busy 2-core box.
      startupTimeoutMs: 2500,
      shutdownGraceMs: 300,
    });
    expect(bridge.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_SERVER_START_TIMEOUT",
        severity: "error",
        message: expect.stringContaining('"hang" did not complete the MCP handshake and tool listing within 2500 ms'),
      }),
    ]);
    expect(bridge.servers().map((s) => s.state)).toEqual(["failed", "running"]);
    expect(
      descendants()
        .map(commandLine)
        .filter((c) => c?.includes("hang-server.mjs")),
    ).toEqual([]);
    // The other server carries on; a failed server is not retried by start().
    expect(await bridge.callTool("mcp__ok__echo", { text: "fine" })).toEqual({ content: "fine" });
    expect(await bridge.start(["hang"])).toEqual([expect.objectContaining({ code: "MCP_SERVER_START_TIMEOUT" })]);
    expect(bridge.diagnostics).toHaveLength(1);
  });

  it("reports a server that exits at once with its exit code and stderr", async () => {
    const bridge = await bridgeOf([fixtureServer("quitter", { script: "exit-server.mjs" })]);
    const diagnostics = await bridge.start(["quitter"]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_SERVER_START_FAILED",
        message:
          'MCP server "quitter" exited during startup with code 3; stderr: fixture: missing configuration, giving up',
      }),
    ]);
    expect(bridge.tools()).toEqual([]);
  });

  it("reports a command that does not exist", async () => {
    const bridge = await bridgeOf([
      { name: "ghost", config: { type: "stdio", command: "skillctx-no-such-command" }, trusted: true },
    ]);
    const [d] = await bridge.start(["ghost"]);
    expect(d).toMatchObject({ code: "MCP_SERVER_START_FAILED", message: expect.stringContaining("ENOENT") });
    const lost = await bridgeOf([fixtureServer("lost", { config: { cwd: "/nonexistent/skillctx-dir" } })]);
    expect((await lost.start(["lost"]))[0]!.message).toBe(
      'MCP server "lost" failed to start: working directory /nonexistent/skillctx-dir does not exist',
    );
  });

  it("never starts untrusted or disabled servers, and reports unknown names", async () => {
    const bridge = await bridgeOf([
      fixtureServer("repo", { trusted: false, skill: "repo-skill" }),
      fixtureServer("off", { config: { enabled: false } }),
    ]);
    const diagnostics = await bridge.start(["repo", "off", "missing"]);
    expect(diagnostics.map((d) => d.code)).toEqual([
      "MCP_SERVER_UNTRUSTED",
      "MCP_SERVER_DISABLED",
      "MCP_SERVER_UNKNOWN",
    ]);
    expect(bridge.servers().map((s) => s.state)).toEqual(["untrusted", "disabled"]);
    expect(bridge.tools()).toEqual([]);
    expect(
      descendants()
        .map(commandLine)
        .filter((c) => c?.includes("--name repo")),
    ).toEqual([]);
    expect(await bridge.callTool("mcp__repo__echo", { text: "x" })).toMatchObject({ isError: true });
  });

  it("gives servers an allowlisted environment, never the parent's secrets", async () => {
    process.env.SKILLCTX_TEST_SECRET = "hunter2";
    process.env.LC_SKILLCTX_TEST = "kept";
    try {
      const bridge = await bridgeOf(
        [fixtureServer("envy", { config: { env: { FROM_SERVER: "server", SHARED: "server wins" } } })],
        { start: ["envy"], env: { FROM_CALLER: "caller", SHARED: "caller", PATH: "/caller/bin" } },
      );
      const env = async (name: string) => (await bridge.callTool("mcp__envy__env", { name })).content;
      expect(await env("SKILLCTX_TEST_SECRET")).toBe("(unset)");
      expect(await env("LC_SKILLCTX_TEST")).toBe("kept");
      expect(await env("HOME")).toBe(process.env.HOME);
      expect(await env("FROM_CALLER")).toBe("caller");
      expect(await env("FROM_SERVER")).toBe("server");
      expect(await env("SHARED")).toBe("server wins");
      expect(await env("PATH")).toBe("/caller/bin");
    } finally {
      delete process.env.SKILLCTX_TEST_SECRET;
      delete process.env.LC_SKILLCTX_TEST;
    }
  });

  it("keeps the first declaration of a name and ignores an identical re-declaration", async () => {
    const bridge = await bridgeOf([fixtureServer("dup")]);
    bridge.add([fixtureServer("dup")]);
    expect(bridge.diagnostics).toEqual([]);
    bridge.add([fixtureServer("dup", { args: ["--stubborn"] })]);
    expect(bridge.diagnostics).toEqual([expect.objectContaining({ code: "MCP_SERVER_DUPLICATE" })]);
    expect(bridge.servers()).toHaveLength(1);
  });

  it("close() stops every server and every process they started, and is idempotent", async () => {
    // c1 keeps running after stdin ends (its child holds the event loop), so it takes the SIGTERM stage.
    const bridge = await createMcpBridge([fixtureServer("c1"), fixtureServer("c2")], {
      start: ["c1", "c2"],
      shutdownGraceMs: 300,
    });
    const pids = bridge.servers().map((s) => s.pid!);
    const grandchild = Number((await bridge.callTool("mcp__c1__spawn_child", {})).content);
    expect([...pids, grandchild].every(isProcessAlive)).toBe(true);
    expect(descendants()).toEqual(expect.arrayContaining([...pids, grandchild]));

    await Promise.all([bridge.close(), bridge.close()]);
    await bridge.close();
    expect([...pids, grandchild].filter(isProcessAlive)).toEqual([]);
    expect(descendants()).toEqual([]);
    expect(bridge.tools()).toEqual([]);
    expect(bridge.servers().map((s) => s.state)).toEqual(["closed", "closed"]);
    await expect(bridge.start(["c1"])).rejects.toSatisfy(
      (e) => SkillctxError.isInstance(e) && e.code === "MCP_BRIDGE_CLOSED",
    );
  });

  it("escalates to SIGKILL for a server that ignores stdin's end and SIGTERM", async () => {
    const bridge = await createMcpBridge([fixtureServer("stubborn", { args: ["--stubborn"] })], {
      start: ["stubborn"],
      shutdownGraceMs: 200,
    });
    const pid = bridge.servers()[0]!.pid!;
    await bridge.close();
    // Neither stdin's end nor SIGTERM stops it (process-transport.test.ts shows the stages); only SIGKILL did.
    expect(isProcessAlive(pid)).toBe(false);
    expect(descendants()).toEqual([]);
  });

  it("closes through await using and through its abort signal", async () => {
    let pid = 0;
    {
      await using bridge = await createMcpBridge([fixtureServer("scoped")], { start: ["scoped"] });
      pid = bridge.servers()[0]!.pid!;
      expect(isProcessAlive(pid)).toBe(true);
    }
    expect(isProcessAlive(pid)).toBe(false);

    const controller = new AbortController();
    const bridge = await createMcpBridge([fixtureServer("aborted")], { start: ["aborted"], signal: controller.signal });
    const abortedPid = bridge.servers()[0]!.pid!;
    controller.abort();
    await waitFor(() => !isProcessAlive(abortedPid));
    expect(bridge.servers()[0]!.state).toBe("closed");
  });

  it("stops servers it was starting when start() is aborted", async () => {
    const bridge = await bridgeOf([fixtureServer("hang2", { script: "hang-server.mjs" })], { shutdownGraceMs: 300 });
    const controller = new AbortController();
    const starting = bridge.start(["hang2"], { signal: controller.signal });
    await waitFor(() => bridge.servers()[0]!.pid !== undefined);
    const pid = bridge.servers()[0]!.pid!;
    controller.abort(new Error("stop"));
    await expect(starting).rejects.toThrow("stop");
    expect(isProcessAlive(pid)).toBe(false);
    expect(bridge.servers()[0]!.state).toBe("idle");
    expect(bridge.diagnostics).toEqual([]);
  });
});
