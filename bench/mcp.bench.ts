// MCP bridge benchmarks. Run: pnpm vitest bench --run bench/mcp.bench.ts
//  1. starting 5 stdio servers in parallel vs one after another (each iteration also
//     closes them, in parallel, in both variants);
//  2. the round-trip of one tool call through bridge.callTool and ctx.callTool vs a bare SDK
//     Client.callTool (SDK stdio transport), each to its own process of the same fixture
//     server; a third bench runs the SDK Client over the bridge's ProcessTransport.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMcpBridge, type DeclaredServer, type McpBridge } from "@skillctx/mcp-bridge";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { AgentContext } from "skillctx";
import { bench, describe } from "vitest";
import { ProcessTransport } from "../packages/mcp-bridge/src/process-transport.js";

const server = fileURLToPath(new URL("../fixtures/mcp/server.mjs", import.meta.url));
const declare = (name: string): DeclaredServer => ({
  name,
  config: { type: "stdio", command: process.execPath, args: [server, "--name", name] },
  trusted: true,
});
const five = ["s1", "s2", "s3", "s4", "s5"];

describe("start 5 stdio servers", () => {
  bench(
    "in parallel",
    async () => {
      const bridge = await createMcpBridge(five.map(declare), { start: five });
      if (bridge.tools().length === 0) throw new Error("no tools");
      await bridge.close();
    },
    { iterations: 6, warmupIterations: 1, time: 0, warmupTime: 0 },
  );
  bench(
    "one after another",
    async () => {
      const bridge = await createMcpBridge(five.map(declare));
      for (const name of five) await bridge.start([name]);
      if (bridge.tools().length === 0) throw new Error("no tools");
      await bridge.close();
    },
    { iterations: 6, warmupIterations: 1, time: 0, warmupTime: 0 },
  );
});

// The SDK as @skillctx/mcp-bridge resolves it (ESM build), for the bare-client baseline.
const sdk = realpathSync(
  fileURLToPath(new URL("../packages/mcp-bridge/node_modules/@modelcontextprotocol/sdk", import.meta.url)),
);
const load = (path: string) => import(pathToFileURL(join(sdk, "dist/esm", path)).href);

// Suite hooks (beforeAll/afterAll) do not run under `vitest bench`; each bench opens its
// connection in tinybench's `setup` and closes it in `teardown` after the measured run.
describe("tool call round-trip", () => {
  const options = (open: () => Promise<void>, close: () => Promise<void>) => ({
    time: 4000,
    warmupTime: 1000,
    setup: open,
    teardown: async (_task: unknown, mode: "run" | "warmup") => {
      if (mode === "run") await close();
    },
  });

  let client: { callTool(params: unknown): Promise<unknown>; close(): Promise<void> } | undefined;
  bench(
    "bare SDK Client.callTool",
    async () => {
      await client!.callTool({ name: "echo", arguments: { text: "ping" } });
    },
    options(
      async () => {
        if (client !== undefined) return;
        const [{ Client }, { StdioClientTransport }] = await Promise.all([
          load("client/index.js"),
          load("client/stdio.js"),
        ]);
        const bare = new Client({ name: "bench", version: "0" });
        await bare.connect(
          new StdioClientTransport({ command: process.execPath, args: [server, "--name", "bare"], stderr: "ignore" }),
        );
        client = bare;
      },
      async () => {
        await client?.close();
        client = undefined;
      },
    ),
  );

  // The bridge's own stdio transport, without the bridge: separates the cost of running the
  // server in its own process group and session (setsid) from the cost of the bridge's code.
  let grouped: typeof client;
  bench(
    "SDK Client.callTool over the bridge's ProcessTransport",
    async () => {
      await grouped!.callTool({ name: "echo", arguments: { text: "ping" } });
    },
    options(
      async () => {
        if (grouped !== undefined) return;
        const { Client } = await load("client/index.js");
        const bare = new Client({ name: "bench", version: "0" });
        await bare.connect(new ProcessTransport({ command: process.execPath, args: [server, "--name", "grouped"] }));
        grouped = bare;
      },
      async () => {
        await grouped?.close();
        grouped = undefined;
      },
    ),
  );

  let bridge: McpBridge | undefined;
  bench(
    "bridge.callTool",
    async () => {
      const result = await bridge!.callTool("mcp__echo__echo", { text: "ping" });
      if (result.content !== "ping") throw new Error(result.content);
    },
    options(
      async () => {
        bridge ??= await createMcpBridge([declare("echo")], { start: ["echo"] });
      },
      async () => {
        await bridge?.close();
        bridge = undefined;
      },
    ),
  );

  // The whole engine path: AgentContext routes mcp__ names through the allowed-tools check to the bridge.
  let ctx: AgentContext | undefined;
  bench(
    "ctx.callTool (AgentContext)",
    async () => {
      const result = await ctx!.callTool("mcp__echo__echo", { text: "ping" });
      if (result.content !== "ping") throw new Error(result.content);
    },
    options(
      async () => {
        ctx ??= await AgentContext.create({
          cwd: mkdtempSync(join(tmpdir(), "skillctx-mcp-bench-")),
          guidance: false,
          skills: [
            {
              name: "echo-tools",
              content: "Tools for echoing.",
              source: { kind: "inline", format: "inline", scope: "programmatic" },
              trigger: { type: "always" },
              mcpServers: { echo: { command: process.execPath, args: [server, "--name", "echo"] } },
            },
          ],
        });
      },
      async () => {
        await ctx?.close();
        ctx = undefined;
      },
    ),
  );
});
