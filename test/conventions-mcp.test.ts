import { mkdir, symlink } from "node:fs/promises";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { serversFromProject } from "@skillctx/mcp-bridge";

const tempDir = useTempDirs("project-mcp");

describe("serversFromProject", () => {
  it("reads .mcp.json then .cursor/mcp.json at the root; the first of a name wins; trusted only with project trust", async () => {
    const root = await tempDir({
      ".mcp.json": JSON.stringify({
        mcpServers: {
          notes: { command: "node", args: ["notes.mjs"], cwd: "tools" },
          web: { url: "https://example.com/mcp" },
        },
      }),
      ".cursor/mcp.json": JSON.stringify({
        mcpServers: {
          notes: { command: "other" },
          tracker: { command: "${TRACKER_BIN}", env: { TOKEN: "${TOKEN:-none}" } },
        },
      }),
    });
    const untrusted = await serversFromProject(root, { vars: { TRACKER_BIN: "/bin/tracker" } });
    expect(untrusted.servers.map((s) => [s.name, s.trusted, s.skill, s.path])).toEqual([
      ["notes", false, undefined, path.join(root, ".mcp.json")],
      ["web", false, undefined, path.join(root, ".mcp.json")],
      ["tracker", false, undefined, path.join(root, ".cursor/mcp.json")],
    ]);
    expect(untrusted.diagnostics.map((d) => [d.code, d.message])).toEqual([
      [
        "MCP_SERVER_DUPLICATE",
        'MCP server "notes" is declared twice by the project with other settings; the first is kept',
      ],
    ]);
    const trusted = await serversFromProject(root, { trust: { project: true }, vars: { TRACKER_BIN: "/bin/tracker" } });
    expect(trusted.servers.every((s) => s.trusted)).toBe(true);
    expect(trusted.servers[0]?.config).toMatchObject({ type: "stdio", command: "node", cwd: path.join(root, "tools") });
    expect(trusted.servers[2]?.config).toMatchObject({ command: "/bin/tracker", env: { TOKEN: "none" } });
  });

  it("says nothing of a .cursor/mcp.json that repeats .mcp.json byte for byte (issue 37)", async () => {
    const config = JSON.stringify({ mcpServers: { notes: { command: "node", args: ["notes.mjs"] } } });
    const root = await tempDir({ ".mcp.json": config, ".cursor/mcp.json": config });
    const found = await serversFromProject(root);
    expect(found.servers.map((s) => [s.name, s.path])).toEqual([["notes", path.join(root, ".mcp.json")]]);
    expect(found.diagnostics).toEqual([]);
  });

  it("finds nothing in a project without configuration, silently", async () => {
    expect(await serversFromProject(await tempDir())).toEqual({ servers: [], diagnostics: [] });
  });

  it("refuses a configuration symlinked out of the project, a broken one and a too large one, naming the file", async () => {
    const parent = await tempDir({ "elsewhere.json": JSON.stringify({ mcpServers: { evil: { command: "sh" } } }) });
    const root = path.join(parent, "repo");
    await mkdir(path.join(root, ".cursor"), { recursive: true });
    await symlink(path.join(parent, "elsewhere.json"), path.join(root, ".mcp.json"));
    await put(root, ".cursor/mcp.json", "{ not json");
    const found = await serversFromProject(root, { trust: { project: true } });
    expect(found.servers).toEqual([]);
    expect(found.diagnostics.map((d) => [d.code, d.message, d.path])).toEqual([
      [
        "PATH_OUTSIDE_ROOT",
        "cannot read .mcp.json: it leads outside the project (symlink); not read",
        path.join(root, ".mcp.json"),
      ],
      [
        "MCP_CONFIG_INVALID",
        expect.stringMatching(/^mcp\.json is not valid JSON/),
        path.join(root, ".cursor/mcp.json"),
      ],
    ]);
    const big = await tempDir({ ".mcp.json": JSON.stringify({ mcpServers: {}, pad: "x".repeat(4_000) }) });
    const tooLarge = await serversFromProject(big, { maxConfigBytes: 1_024 });
    expect(tooLarge.diagnostics.map((d) => d.code)).toEqual(["MCP_CONFIG_TOO_LARGE"]);
  });
});
