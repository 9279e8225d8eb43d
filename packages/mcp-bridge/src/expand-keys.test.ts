/**
 * `${VAR}` in object keys and several variables in one string, expanded from the allowed variables only.
 * Translated from OpenHands: OpenHands/software-agent-sdk `expand_mcp_variables` (the configuration is
 * expanded as one JSON text, so keys and every reference in a string are expanded) and its test
 * `test_expand_mcp_variables` (tests/sdk/context/skill/test_mcp_json.py, Issue #1476). Where we differ:
 * server names (the keys of `mcpServers`) are never expanded (docs/decisions.md), and only the allowlisted
 * environment and the host's `vars` are read, never the whole `os.environ`.
 */
import { describe, expect, it } from "vitest";
import { expandVars } from "./expand-vars.js";
import { declareBlock } from "./servers-from-skill.js";
import type { DeclareContext } from "./servers-from-skill.js";

function declare(raw: unknown, env: Record<string, string>) {
  const ctx: DeclareContext = {
    skill: "s",
    trusted: true,
    env,
    fixed: { SKILL_ROOT: "/skills/s" },
    baseDir: "/skills/s",
    maxBytes: 1 << 20,
    servers: [],
    diagnostics: [],
  };
  declareBlock({ raw, path: "/skills/s/.mcp.json" }, ctx);
  return ctx;
}

describe("MCP configuration: ${VAR} in keys and several variables in one string", () => {
  it("expands a key of env and headers, and two references in one string", () => {
    const { servers, diagnostics } = declare(
      {
        mcpServers: {
          tracker: {
            command: "${SKILL_ROOT}/bin/${TOOL}",
            args: ["--url=${HOST}:${PORT}/api", "${A}${B}"],
            env: { "${KEY_NAME}": "${TOKEN}-${REGION}" },
          },
        },
      },
      {
        TOOL: "tracker",
        HOST: "localhost",
        PORT: "8080",
        A: "x",
        B: "y",
        KEY_NAME: "API_TOKEN",
        TOKEN: "t",
        REGION: "eu",
      },
    );
    expect(diagnostics).toEqual([]);
    expect(servers[0]?.config).toMatchObject({
      command: "/skills/s/bin/tracker",
      args: ["--url=localhost:8080/api", "xy"],
      env: { API_TOKEN: "t-eu" },
    });
  });

  it("never expands a server name: the name is what the user approves and what tool names carry", () => {
    const { servers } = declare({ mcpServers: { "${NAME}": { command: "x" } } }, { NAME: "other" });
    expect(servers.map((s) => s.name)).toEqual(["${NAME}"]);
  });

  it("a key that expands onto one already set is dropped, with a warning: the first written wins", () => {
    const { servers, diagnostics } = declare(
      { mcpServers: { t: { command: "x", env: { PATH: "/safe", "${WHICH}": "/evil" } } } },
      { WHICH: "PATH" },
    );
    expect(servers[0]?.config).toMatchObject({ env: { PATH: "/safe" } });
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([["MCP_CONFIG_KEY_COLLISION", "warning"]]);
    expect(expandVars({ a: 1, "${A}": 2 }, { env: { A: "a" } }).collisions).toEqual(["${A}"]);
  });
});
