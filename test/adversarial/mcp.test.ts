// Hostile MCP servers against the bridge at full size and default caps, each run in a separate
// process (runIsolated): a crash of the host shows up as a failed child, and time and memory are
// measured there. Every test starts a well-behaved server beside the hostile one and checks that it
// still answers. Bounds are generous and stated in each test's name.
import { describe, expect, it } from "vitest";
import { fixtureServer, MISBEHAVING_HTTP_SERVER, misbehavingServer } from "../../packages/mcp-bridge/src/test-utils.js";
import type { DeclaredServer } from "../../packages/mcp-bridge/src/types.js";
import { runIsolated } from "./isolated.js";

const MiB = 1024 * 1024;

/** What the isolated script reports. */
interface Outcome {
  states: [string, string][];
  /** Each call's result: its first 400 characters, its length and its last line. */
  calls: { content: string; isError?: boolean; length: number; last: string }[];
  good: string;
  badTools: number;
  diagnostics: { code: string; severity: string; message: string }[];
}

// Starts `bad` and `good`, makes the calls listed (each to `bad`), asks `good` to echo, closes.
const SCRIPT = `
import { createMcpBridge } from "@skillctx/mcp-bridge";
export default async function run({ bad, good, calls, options }) {
  const bridge = await createMcpBridge([bad, good], { start: [bad.name, good.name], shutdownGraceMs: 500, ...options });
  try {
    const results = [];
    for (const [tool, args] of calls) results.push(await bridge.callTool("mcp__" + bad.name + "__" + tool, args));
    const good = (await bridge.callTool("mcp__good__echo", { text: "still here" })).content;
    return {
      states: bridge.servers().map((s) => [s.name, s.state]),
      calls: results.map((r) => ({ content: r.content.slice(0, 400), length: r.content.length, last: r.content.slice(r.content.lastIndexOf("\\n") + 1), ...(r.isError ? { isError: true } : {}) })),
      good,
      badTools: bridge.tools().filter((t) => t.server === bad.name).length,
      diagnostics: bridge.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message.slice(0, 400) })),
    };
  } finally {
    await bridge.close();
  }
}
`;

async function attack(
  bad: DeclaredServer,
  calls: [string, Record<string, unknown>][],
  bounds: { seconds: number; mb: number },
  options: Record<string, unknown> = {},
) {
  const run = await runIsolated<Outcome>(SCRIPT, {
    timeoutMs: bounds.seconds * 1000 + 10_000,
    input: { bad, good: fixtureServer("good"), calls, options },
  });
  // The host survived: the script returned, the process exited on its own, within the bounds.
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.failed, run.stderr).toBe(false);
  expect(run.exitCode).toBe(0);
  expect(run.wallMs).toBeLessThan(bounds.seconds * 1000);
  expect(run.maxRssMb).toBeLessThan(bounds.mb);
  const value = run.value!;
  expect(value.good).toBe("still here");
  expect(value.states.find(([name]) => name === "good")?.[1]).toBe("running");
  console.info(`${bad.name}: ${Math.round(run.wallMs)} ms, ${Math.round(run.maxRssMb)} MB`);
  return value;
}

describe("MCP servers that misbehave (separate process, default caps)", () => {
  it("a 64 MiB tools/list line fails that server's start with MCP_MESSAGE_TOO_LARGE, the host survives (< 20 s, < 400 MB; cap 16 MiB)", async () => {
    const out = await attack(
      misbehavingServer("hugelist", "huge-list", { bytes: 64 * MiB }),
      [["echo", { text: "x" }]],
      { seconds: 20, mb: 400 },
    );
    expect(out.states).toEqual([
      ["hugelist", "failed"],
      ["good", "running"],
    ]);
    expect(out.diagnostics).toEqual([
      {
        code: "MCP_MESSAGE_TOO_LARGE",
        severity: "error",
        message: 'MCP server "hugelist" was stopped during startup: it sent a message larger than the 16 MiB cap',
      },
    ]);
    expect(out.calls[0]).toMatchObject({ isError: true });
  });

  it("a 64 MiB tool result ends that call with an error result and a diagnostic, and the server restarts once (< 20 s, < 400 MB; cap 16 MiB)", async () => {
    const out = await attack(
      misbehavingServer("hugeresult", "huge-result", { bytes: 64 * MiB }),
      [
        ["boom", {}],
        ["echo", { text: "back" }],
      ],
      { seconds: 20, mb: 400 },
    );
    expect(out.calls.map(({ content, isError }) => ({ content, isError }))).toEqual([
      {
        content:
          'MCP server "hugeresult" was stopped because it sent a message larger than the 16 MiB cap during the call to "boom"; it will be restarted on the next call.',
        isError: true,
      },
      { content: "back", isError: undefined },
    ]);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["MCP_MESSAGE_TOO_LARGE"]);
  });

  it("a 12 MiB tool result (under the message cap) reaches the model cut to 100,000 characters with a note (< 20 s, < 400 MB)", async () => {
    const out = await attack(misbehavingServer("bigresult", "huge-result", { bytes: 12 * MiB }), [["boom", {}]], {
      seconds: 20,
      mb: 400,
    });
    const [result] = out.calls;
    expect(result!.isError).toBeUndefined();
    expect(result!.content).toBe("a".repeat(400));
    expect(result!.last).toMatch(/^\[… \d+ more characters cut: the result is longer than the 100000-character cap\]$/);
    expect(result!.length).toBeLessThan(100_200);
    expect(out.diagnostics).toEqual([]);
  });

  it("endless tools/list pages stop at 100 pages, whose tools are kept, with a diagnostic (< 20 s, < 300 MB)", async () => {
    const out = await attack(misbehavingServer("pages", "endless-pages"), [["t99", {}]], { seconds: 20, mb: 300 });
    expect(out.badTools).toBe(102);
    expect(out.calls.map((c) => c.content)).toEqual(["called t99"]);
    expect(out.diagnostics.map((d) => d.message)).toEqual([
      'MCP server "pages" had more than 100 pages of tools; the tools of the first 100 are kept',
    ]);
  });

  it("100,000 tools in one page: the first 1,000 are kept, with a diagnostic (< 20 s, < 400 MB)", async () => {
    const out = await attack(misbehavingServer("many", "many-tools", { count: 100_000 }), [["tool_997", {}]], {
      seconds: 20,
      mb: 400,
    });
    expect(out.badTools).toBe(1000);
    expect(out.calls.map((c) => c.content)).toEqual(["called tool_997"]);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["MCP_TOOLS_LIST_TRUNCATED"]);
  });

  it("a server that never answers initialize fails after the startup timeout, and is stopped (< 15 s; timeout 2 s)", async () => {
    const out = await attack(
      misbehavingServer("mute", "never-init"),
      [["echo", { text: "x" }]],
      { seconds: 15, mb: 300 },
      { startupTimeoutMs: 2000 },
    );
    expect(out.states).toEqual([
      ["mute", "failed"],
      ["good", "running"],
    ]);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["MCP_SERVER_START_TIMEOUT"]);
  });

  it("a server that crashes at start is reported with its exit code and stderr, and not retried by start (< 15 s, < 300 MB)", async () => {
    const out = await attack(fixtureServer("quitter", { script: "exit-server.mjs" }), [["echo", { text: "x" }]], {
      seconds: 15,
      mb: 300,
    });
    expect(out.states).toEqual([
      ["quitter", "failed"],
      ["good", "running"],
    ]);
    expect(out.diagnostics).toEqual([
      {
        code: "MCP_SERVER_START_FAILED",
        severity: "error",
        message:
          'MCP server "quitter" exited during startup with code 3; stderr: fixture: missing configuration, giving up',
      },
    ]);
    expect(out.calls[0]).toMatchObject({ isError: true });
  });

  it("a server that crashes mid-response gives an error result, restarts once, then stays down (< 20 s, < 300 MB)", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["boom", {}],
      ["echo", { text: "restarted" }],
      ["boom", {}],
      ["echo", { text: "x" }],
    ];
    const out = await attack(misbehavingServer("crashy", "crash-mid-call"), calls, { seconds: 20, mb: 300 });
    expect(out.calls.map((c) => c.content)).toEqual([
      'MCP server "crashy" exited with code 9 during the call to "boom"; it will be restarted on the next call.',
      "restarted",
      'MCP server "crashy" exited with code 9 during the call to "boom"; it will not be restarted again.',
      'Unknown MCP tool "mcp__crashy__echo": MCP server "crashy" is not running (exited).',
    ]);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["MCP_SERVER_EXITED", "MCP_SERVER_EXITED"]);
  });

  it("100,000 garbage lines stop the server after 100 malformed messages, with a warning then an error (< 20 s, < 300 MB)", async () => {
    const out = await attack(
      misbehavingServer("garbage", "garbage", { count: 100_000 }),
      [
        ["boom", {}],
        ["echo", { text: "clean" }],
      ],
      { seconds: 20, mb: 300 },
    );
    expect(out.calls[0]).toMatchObject({
      isError: true,
      content: expect.stringMatching(/^MCP server "garbage" was stopped because it sent 100 malformed messages/),
    });
    expect(out.calls[1]).toMatchObject({ content: "clean" });
    expect(out.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["MCP_MESSAGE_MALFORMED", "warning"],
      ["MCP_MESSAGE_MALFORMED", "error"],
    ]);
  });

  it("a result nested 1,000,000 levels deep is described, not a crash (< 20 s, < 400 MB)", async () => {
    const out = await attack(misbehavingServer("deep", "deep-result", { count: 1_000_000 }), [["boom", {}]], {
      seconds: 20,
      mb: 400,
    });
    expect(out.calls[0]!.content).not.toBe("");
  });

  it("an HTTP server answering with a 64 MiB JSON body and a 64 MiB event gets error results and diagnostics (< 30 s, < 400 MB; cap 16 MiB)", async () => {
    const run = await runIsolated<Outcome>(
      `
      import { spawn } from "node:child_process";
      import { createMcpBridge } from "@skillctx/mcp-bridge";
      export default async function run({ script, good }) {
        const child = spawn(process.execPath, [script, "--bytes", String(64 * 1024 * 1024)], { stdio: ["pipe", "pipe", "inherit"] });
        const url = await new Promise((resolve) => {
          let out = "";
          child.stdout.on("data", (c) => { out += c; const m = /LISTENING (\\S+)/.exec(out); if (m) resolve(m[1]); });
        });
        const bridge = await createMcpBridge([{ name: "web", config: { type: "http", url }, trusted: true }, good], { start: ["web", "good"], maxRestarts: 2 });
        try {
          const calls = [];
          for (const tool of ["json", "echo", "sse", "echo"]) calls.push(await bridge.callTool("mcp__web__" + tool, { text: "again" }));
          const goodText = (await bridge.callTool("mcp__good__echo", { text: "still here" })).content;
          return {
            states: bridge.servers().map((s) => [s.name, s.state]),
            calls: calls.map((r) => ({ content: r.content.slice(0, 400), ...(r.isError ? { isError: true } : {}) })),
            good: goodText,
            badTools: 0,
            diagnostics: bridge.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message })),
          };
        } finally {
          await bridge.close();
          child.stdin.end();
        }
      }`,
      { timeoutMs: 40_000, input: { script: MISBEHAVING_HTTP_SERVER, good: fixtureServer("good") } },
    );
    expect(run.failed, run.stderr).toBe(false);
    expect(run.exitCode).toBe(0);
    expect(run.wallMs).toBeLessThan(30_000);
    expect(run.maxRssMb).toBeLessThan(400);
    const out = run.value!;
    expect(out.good).toBe("still here");
    expect(out.calls).toEqual([
      {
        content:
          'MCP server "web" was stopped because it sent an HTTP response larger than the 16 MiB cap during the call to "json"; it will be restarted on the next call.',
        isError: true,
      },
      { content: "again" },
      {
        content:
          'MCP server "web" was stopped because it sent a server-sent event larger than the 16 MiB cap during the call to "sse"; it will be restarted on the next call.',
        isError: true,
      },
      { content: "again" },
    ]);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["MCP_MESSAGE_TOO_LARGE", "MCP_MESSAGE_TOO_LARGE"]);
    console.info(`http: ${Math.round(run.wallMs)} ms, ${Math.round(run.maxRssMb)} MB`);
  });
});
