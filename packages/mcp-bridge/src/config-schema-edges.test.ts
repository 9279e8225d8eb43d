// MCP server configuration: the edges its schema tests left open, each one a wrong program that passed them
// (mutation testing, issue 38): server-name checks and their messages, every known key of each transport, the
// HTTP aliases, `disabled`, the inferred transport, and the text and severity of each diagnostic.
import { describe, expect, it } from "vitest";
import { checkServerName, MAX_SERVER_NAME, parseServerConfig, serverConfigSchemas } from "./config-schema.js";

describe("checkServerName", () => {
  it("refuses an empty, a too long and an unsafe name, each with its reason", () => {
    expect(checkServerName("  ")).toBe('"  " is empty');
    expect(checkServerName("")).toBe('"" is empty');
    expect(checkServerName(" a ")).toBeUndefined();
    expect(checkServerName("a".repeat(MAX_SERVER_NAME))).toBeUndefined();
    expect(checkServerName("a".repeat(MAX_SERVER_NAME + 1))).toMatch(/ is longer than 128 characters$/u);
    expect(checkServerName("a\u202eb")).toBe('"a\u202eb" contains control or bidirectional characters');
    expect(checkServerName("a\nb")).toBe('"a\\nb" contains control or bidirectional characters');
  });
});

describe("parseServerConfig: keys and aliases", () => {
  it("knows every key of a stdio server, and warns (a warning) about any other", () => {
    const raw = {
      type: "stdio",
      command: "node",
      args: ["s.js"],
      env: { A: "1" },
      cwd: "sub",
      enabled: true,
      timeout: 5,
      extra: 1,
    };
    const parsed = parseServerConfig("s", raw, { path: "mcp.json" });
    expect(parsed.config).toMatchObject({ type: "stdio", command: "node", cwd: "sub", enabled: true, timeout: 5 });
    expect(parsed.diagnostics).toEqual([
      expect.objectContaining({
        code: "MCP_CONFIG_UNKNOWN_KEY",
        severity: "warning",
        message: 'MCP server "s": unknown key "extra" ignored',
        path: "mcp.json",
      }),
    ]);
    expect(parseServerConfig("s", { transport: "stdio", command: "n", disabled: false }).diagnostics).toEqual([]);
  });

  it("knows every key of an HTTP server; a stdio key there is unknown", () => {
    const raw = { type: "http", url: "https://x.test/mcp", headers: { A: "b" }, enabled: false, timeout: 9 };
    expect(parseServerConfig("h", raw).diagnostics).toEqual([]);
    expect(parseServerConfig("h", { transport: "http", url: "https://x.test", disabled: true }).diagnostics).toEqual(
      [],
    );
    expect(
      parseServerConfig("h", { url: "https://x.test", command: "n", type: "http" }).diagnostics.map((d) => d.message),
    ).toEqual(['MCP server "h": unknown key "command" ignored']);
  });

  it("reads the other clients' names of streamable HTTP as http", () => {
    for (const type of ["http", "streamable-http", "streamableHttp", "streamable_http"])
      expect(parseServerConfig("h", { type, url: "https://x.test" }).config?.type, type).toBe("http");
    expect(parseServerConfig("h", { type: "", url: "https://x.test" }).config).toBeUndefined();
  });

  it("infers http from a url without a command, stdio otherwise", () => {
    expect(parseServerConfig("h", { url: "https://x.test" }).config?.type).toBe("http");
    expect(parseServerConfig("s", { command: "node" }).config?.type).toBe("stdio");
    expect(parseServerConfig("s", { command: "node", url: "https://x.test" }).config?.type).toBe("stdio");
  });

  it("reads disabled as the opposite of enabled, and lets an explicit enabled win", () => {
    expect(parseServerConfig("s", { command: "n", disabled: true }).config?.enabled).toBe(false);
    expect(parseServerConfig("s", { command: "n", disabled: false }).config?.enabled).toBe(true);
    expect(parseServerConfig("s", { command: "n", disabled: true, enabled: true }).config?.enabled).toBe(true);
    expect(parseServerConfig("s", { command: "n" }).config?.enabled).toBeUndefined();
    expect(parseServerConfig("s", { command: "n", disabled: "yes" }).config).toBeUndefined();
  });
});

describe("parseServerConfig: refusals", () => {
  it("is an error naming each bad field by its path, joined with '; '", () => {
    const parsed = parseServerConfig("s", { command: "", cwd: "", args: [1] }, { path: "a.json" });
    expect(parsed.config).toBeUndefined();
    expect(parsed.diagnostics).toHaveLength(1);
    expect(parsed.diagnostics[0]).toMatchObject({ code: "MCP_CONFIG_INVALID", severity: "error", path: "a.json" });
    expect(parsed.diagnostics[0]!.message).toMatch(
      /^MCP server "s" is invalid: command: [^;]+; args\.0: [^;]+; cwd: [^;]+$/u,
    );
  });

  it("refuses a server that is not an object without a field path", () => {
    for (const raw of [null, [], "node", 3]) {
      const parsed = parseServerConfig("s", raw);
      expect(parsed.config).toBeUndefined();
      const issues = serverConfigSchemas().McpServerConfigSchema.safeParse(raw).error!.issues;
      expect(issues.every((issue) => issue.path.length === 0)).toBe(true);
      const detail = issues.map((issue) => issue.message).join("; ");
      expect(parsed.diagnostics[0]!.message).toBe(`MCP server "s" is invalid: ${detail}`);
    }
  });

  it("accepts http and https URLs only", () => {
    expect(parseServerConfig("h", { url: "http://x.test" }).config?.type).toBe("http");
    for (const url of ["ftp://x.test", "xhttps://x.test", "httpsx://x.test", "file:///etc/passwd"])
      expect(parseServerConfig("h", { type: "http", url }).config, url).toBeUndefined();
  });
});
