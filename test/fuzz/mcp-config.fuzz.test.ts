// Fuzz: MCP server configuration (mcp-bridge config-schema.ts) and `${VAR}` expansion (expand-vars.ts).
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { checkServerName, parseServerConfig } from "../../packages/mcp-bridge/src/config-schema.js";
import { expandString, expandVars } from "../../packages/mcp-bridge/src/expand-vars.js";
import { fuzz, hostileJson, hostileName, hostileText, report } from "./harness.js";

afterAll(() => console.info(report()));

const serverEntry = fc.oneof(
  hostileJson,
  fc.record(
    {
      command: hostileText,
      args: fc.array(hostileText, { maxLength: 4 }),
      env: fc.dictionary(hostileName, hostileText),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      type: fc.constantFrom("http", "sse", "stdio", "ws"),
      url: hostileText,
      headers: fc.dictionary(hostileName, hostileJson),
    },
    { requiredKeys: [] },
  ),
);

it("parseServerConfig and checkServerName: a config or diagnostics, never a throw", async () => {
  await fuzz("mcp-config", fc.tuple(hostileName, serverEntry), ([name, raw]) => {
    checkServerName(name);
    const parsed = parseServerConfig(name, raw, { path: ".mcp.json" });
    expect(Array.isArray(parsed.diagnostics)).toBe(true);
  });
});

const env = fc.dictionary(fc.constantFrom("A", "B", "HOME", "SKILL_ROOT", "X_1"), hostileText, { maxKeys: 5 });

it("expandString / expandVars: within maxChars or marked overflow", async () => {
  await fuzz(
    "expand-vars",
    fc.tuple(hostileText, hostileJson, env, fc.integer({ min: 0, max: 4096 })),
    ([text, value, vars, maxChars]) => {
      const one = expandString(text, { env: vars, maxChars });
      if (!one.overflow) expect(one.value.length).toBeLessThanOrEqual(maxChars);
      expandVars(value, { env: vars, fixed: { SKILL_ROOT: "/r" }, maxChars });
    },
  );
});
