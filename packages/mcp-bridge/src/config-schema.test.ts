import { describe, expect, it } from "vitest";
import { parseServerConfig } from "./config-schema.js";
import { McpServerConfigSchema } from "./schemas.js";

describe("McpServerConfigSchema", () => {
  it("infers the transport from command or url", () => {
    expect(McpServerConfigSchema.parse({ command: "npx", args: ["-y", "pkg"] })).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "pkg"],
    });
    expect(McpServerConfigSchema.parse({ url: "https://example.com/mcp", headers: { A: "b" } })).toEqual({
      type: "http",
      url: "https://example.com/mcp",
      headers: { A: "b" },
    });
  });

  it("reads the type and transport spellings of other clients", () => {
    for (const type of ["http", "streamable-http", "streamableHttp"]) {
      expect(McpServerConfigSchema.parse({ type, url: "http://127.0.0.1:1/mcp" }).type).toBe("http");
    }
    expect(McpServerConfigSchema.parse({ transport: "http", url: "http://127.0.0.1:1/mcp" }).type).toBe("http");
    expect(McpServerConfigSchema.parse({ type: "stdio", command: "x" }).type).toBe("stdio");
  });

  it("reads Cline's disabled as the opposite of enabled", () => {
    expect(McpServerConfigSchema.parse({ command: "x", disabled: true }).enabled).toBe(false);
    expect(McpServerConfigSchema.parse({ command: "x", disabled: false }).enabled).toBe(true);
    expect(McpServerConfigSchema.parse({ command: "x", enabled: true, disabled: true }).enabled).toBe(true);
  });

  it("rejects broken entries", () => {
    for (const bad of [
      {},
      { command: "" },
      { command: "x", args: "not-a-list" },
      { command: "x", env: { A: 1 } },
      { command: "x", timeout: -5 },
      { url: "not a url" },
      { url: "ftp://example.com" },
      { type: "sse", url: "http://127.0.0.1/sse" },
      "npx server",
      null,
    ]) {
      expect(McpServerConfigSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("parseServerConfig", () => {
  it("warns about unknown keys and keeps the server", () => {
    const result = parseServerConfig(
      "s",
      { command: "x", autoApprove: [], description: "d" },
      { path: "/skill/.mcp.json" },
    );
    expect(result.config).toEqual({ type: "stdio", command: "x" });
    expect(result.diagnostics).toEqual([
      {
        code: "MCP_CONFIG_UNKNOWN_KEY",
        severity: "warning",
        message: 'MCP server "s": unknown key "autoApprove" ignored',
        path: "/skill/.mcp.json",
      },
      {
        code: "MCP_CONFIG_UNKNOWN_KEY",
        severity: "warning",
        message: 'MCP server "s": unknown key "description" ignored',
        path: "/skill/.mcp.json",
      },
    ]);
  });

  it("treats keys of the other transport as unknown", () => {
    const result = parseServerConfig("s", { url: "http://127.0.0.1:9/mcp", args: ["a"] });
    expect(result.config?.type).toBe("http");
    expect(result.diagnostics.map((d) => d.message)).toEqual(['MCP server "s": unknown key "args" ignored']);
  });

  it("turns a broken entry into one error naming the server and the field", () => {
    const result = parseServerConfig("broken", { command: "x", args: [1] });
    expect(result.config).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ code: "MCP_CONFIG_INVALID", severity: "error" });
    expect(result.diagnostics[0]!.message).toMatch(/^MCP server "broken" is invalid: args\.0: /);
  });
});
