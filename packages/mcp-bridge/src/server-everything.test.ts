import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createMcpBridge } from "./bridge.js";
import { descendants, isProcessAlive } from "./test-utils.js";

// The published reference server, installed as a root dev dependency (never downloaded here).
const entry = createRequire(new URL("../../../package.json", import.meta.url)).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

describe("@modelcontextprotocol/server-everything from node_modules", () => {
  it("lists its tools, calls echo and describes its image", async () => {
    const bridge = await createMcpBridge(
      [
        {
          name: "everything",
          config: { type: "stdio", command: process.execPath, args: [entry, "stdio"] },
          trusted: true,
        },
      ],
      { start: ["everything"] },
    );
    try {
      expect(bridge.diagnostics).toEqual([]);
      const tools = bridge.tools();
      const echo = tools.find((t) => t.name === "mcp__everything__echo");
      expect(echo).toMatchObject({ tool: "echo", title: "Echo Tool", annotations: { readOnlyHint: true } });
      expect(echo!.inputSchema).toMatchObject({
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      });
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["mcp__everything__get-sum", "mcp__everything__get-tiny-image"]),
      );

      expect(await bridge.callTool("mcp__everything__echo", { message: "hi from skillctx" })).toEqual({
        content: "Echo: hi from skillctx",
      });
      expect(await bridge.callTool("mcp__everything__get-sum", { a: 2, b: 3 })).toMatchObject({
        content: expect.stringContaining("5"),
      });
      const image = await bridge.callTool("mcp__everything__get-tiny-image", {});
      expect(image.content).toMatch(/\[image: image\/png, \d+ bytes\]/);
    } finally {
      const pid = bridge.servers()[0]!.pid!;
      await bridge.close();
      expect(isProcessAlive(pid)).toBe(false);
      expect(descendants()).toEqual([]);
    }
  });
});
