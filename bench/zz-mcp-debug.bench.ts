import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMcpBridge, type McpBridge } from "@skillctx/mcp-bridge";
import { ProcessTransport } from "../packages/mcp-bridge/src/process-transport.js";
import { bench, describe } from "vitest";
const server = fileURLToPath(new URL("../fixtures/mcp/server.mjs", import.meta.url));
const sdk = realpathSync(fileURLToPath(new URL("../packages/mcp-bridge/node_modules/@modelcontextprotocol/sdk", import.meta.url)));
const load = (path: string) => import(pathToFileURL(join(sdk, "dist/esm", path)).href);
const opts = (open: () => Promise<void>, close: () => Promise<void>) => ({ time: 3000, warmupTime: 500, setup: open, teardown: async (_t: unknown, mode: string) => { if (mode === "run") await close(); } });
describe("rt", () => {
  let bridge: McpBridge | undefined;
  bench("bridge.callTool", async () => { await bridge!.callTool("mcp__echo__echo", { text: "ping" }); },
    opts(async () => { bridge ??= await createMcpBridge([{ name: "echo", trusted: true, config: { type: "stdio", command: process.execPath, args: [server] } }], { start: ["echo"] }); }, async () => { await bridge?.close(); bridge = undefined; }));
  let pt: any;
  bench("Client over ProcessTransport", async () => { await pt.callTool({ name: "echo", arguments: { text: "ping" } }); },
    opts(async () => { if (pt) return; const { Client } = await load("client/index.js"); pt = new Client({ name: "b", version: "0" }); await pt.connect(new ProcessTransport({ command: process.execPath, args: [server], env: { PATH: process.env.PATH! } })); }, async () => { await pt?.close(); pt = undefined; }));
  let bare: any;
  bench("bare", async () => { await bare.callTool({ name: "echo", arguments: { text: "ping" } }); },
    opts(async () => { if (bare) return; const [{ Client }, { StdioClientTransport }] = await Promise.all([load("client/index.js"), load("client/stdio.js")]); bare = new Client({ name: "b", version: "0" }); await bare.connect(new StdioClientTransport({ command: process.execPath, args: [server], stderr: "ignore" })); }, async () => { await bare?.close(); bare = undefined; }));
});
