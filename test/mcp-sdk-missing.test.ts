/**
 * The MCP SDK is an optional peer: mcp-bridge's loader turns Node's "Cannot find package" for it into
 * MCP_SDK_MISSING (packages/mcp-bridge/src/mcp-sdk.ts) and lets every other failure through.
 */
import { spawnSync } from "node:child_process";
import { SkillctxError } from "@skillctx/core";
import { describe, expect, it } from "vitest";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { loadWithMcpSdk } from "../packages/mcp-bridge/src/mcp-sdk.js";

const tempDir = useTempDirs("mcp-sdk");

describe("loadWithMcpSdk", () => {
  it("turns a missing @modelcontextprotocol/sdk into MCP_SDK_MISSING, saying what needed it and how to add it", async () => {
    // Node's own error for a module outside any node_modules that imports the SDK (a child process: the
    // test runner's resolver would find the workspace's copy).
    const dir = await tempDir();
    const module = await put(
      dir,
      "uses-sdk.mjs",
      `export { Client } from "@modelcontextprotocol/sdk/client/index.js";\n`,
    );
    const child = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", `await import(${JSON.stringify(module)})`],
      {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "" },
      },
    );
    const nodeMessage = /Cannot find package '@modelcontextprotocol\/sdk' imported from [^\n]+/.exec(child.stderr)?.[0];
    expect(nodeMessage).toBeDefined();
    const missing = Object.assign(new Error(nodeMessage), { code: "ERR_MODULE_NOT_FOUND" });
    const failed = await loadWithMcpSdk(() => Promise.reject(missing), 'the MCP server "team"').catch(
      (e: unknown) => e,
    );
    expect(SkillctxError.isInstance(failed)).toBe(true);
    expect((failed as SkillctxError).code).toBe("MCP_SDK_MISSING");
    expect((failed as SkillctxError).message).toBe(
      'the MCP server "team" needs the optional peer dependency @modelcontextprotocol/sdk, which is not installed; add it beside skillctx (npm install @modelcontextprotocol/sdk)',
    );
  });

  it("passes every other failure through, another missing package included", async () => {
    const dir = await tempDir();
    const module = await put(dir, "uses-other.mjs", `export { x } from "some-package-that-is-not-there";\n`);
    const failed = await loadWithMcpSdk(() => import(module), "x").catch((error: unknown) => error);
    expect((failed as { code?: unknown }).code).toBe("ERR_MODULE_NOT_FOUND");
    const boom = new Error("boom");
    await expect(loadWithMcpSdk(() => Promise.reject(boom), "x")).rejects.toBe(boom);
  });

  it("returns what the load gives when the SDK is there", async () => {
    const { Client } = await loadWithMcpSdk(() => import("@modelcontextprotocol/sdk/client/index.js"), "x");
    expect(typeof Client).toBe("function");
  });
});
