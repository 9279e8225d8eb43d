// Issue 37: a missing MCP SDK is an error only when a server would start. A repository whose .mcp.json
// servers are not trusted (the default) lists, builds and prints its catalog with exit 0 on an install
// without the optional peer; with --trust the same servers would start, so it is an error whose hint
// names both ways out. The SDK is made unresolvable in the child by a module hook (Node's own error).
import path from "node:path";
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, cliJson, ROOT, runCli } from "./helpers/cli.js";

const tempDir = useTempDirs("cli-no-sdk");
beforeAll(assertBuilt);
const NO_SDK = ["--import", path.join(ROOT, "test/helpers/no-mcp-sdk.mjs")];

const skillMd = "---\nname: deploy\ndescription: Deploy the app to staging or production.\n---\nRun the deploy.\n";
const mcpJson = JSON.stringify({ mcpServers: { playwright: { command: "npx", args: ["@playwright/mcp"] } } });

async function repo(): Promise<string> {
  const dir = await tempDir({
    ".agents/skills/deploy/SKILL.md": skillMd,
    ".mcp.json": mcpJson,
    // Cursor's copy of the same servers, byte for byte: says nothing (no MCP_SERVER_DUPLICATE).
    ".cursor/mcp.json": mcpJson,
  });
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

describe("MCP SDK missing (built CLI)", () => {
  it("list, build and catalog exit 0 on untrusted .mcp.json servers; nothing is an error", async () => {
    const cwd = await repo();
    for (const command of ["list", "build", "catalog"]) {
      const run = await runCli([command, "--cwd", cwd, "--json"], {
        home: path.join(cwd, ".no-home"),
        nodeArgs: NO_SDK,
      });
      expect(run.code, `${command}: ${run.stderr}`).toBe(0);
      const codes = (cliJson(run.stdout) as { diagnostics: Array<{ code: string; severity: string }> }).diagnostics;
      expect(
        codes.filter((d) => d.severity === "error"),
        command,
      ).toEqual([]);
      expect(
        codes.map((d) => d.code),
        command,
      ).not.toContain("MCP_SDK_MISSING");
      expect(
        codes.map((d) => d.code),
        command,
      ).not.toContain("MCP_SERVER_DUPLICATE");
    }
  });

  it("with --trust the servers would start: MCP_SDK_MISSING, exit 1, the hint names the install and --trust", async () => {
    const cwd = await repo();
    const run = await runCli(["list", "--cwd", cwd, "--trust"], { home: path.join(cwd, ".no-home"), nodeArgs: NO_SDK });
    expect(run.code).toBe(1);
    const line = run.stderr.split("\n").find((l) => l.includes("MCP_SDK_MISSING"));
    expect(line).toContain("error MCP_SDK_MISSING MCP servers not started (playwright)");
    expect(line).toContain("npm install @modelcontextprotocol/sdk");
    expect(line).toContain("leave out --trust");
    expect(run.stderr).toContain("skillctx list: 1 error, 0 warnings, 0 info");
  });
});
