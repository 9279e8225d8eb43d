// Fuzz: tool-argument decoding (core tool-arguments.ts), the paths a tool call touches (tool-call-paths.ts),
// core's JSON owner, and the stdio frame reader of the MCP bridge.
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { safeParseJson } from "../../packages/core/src/json/parse-json.js";
import { decodeToolArguments } from "../../packages/core/src/tool-arguments.js";
import { toolCallPaths } from "../../packages/core/src/tool-call-paths.js";
import { parseMessage } from "../../packages/mcp-bridge/src/frame-reader.js";
import { fuzz, hostileJson, hostileText, report } from "./harness.js";

afterAll(() => console.info(report()));

const jsonText = fc.oneof(
  hostileText,
  hostileJson.map((v) => JSON.stringify(v) ?? "null"),
  fc.json(),
);

it("decodeToolArguments and safeParseJson never throw; toolCallPaths gives clean strings", async () => {
  await fuzz("tool-args", fc.oneof(jsonText, hostileJson), (raw) => {
    const decoded = decodeToolArguments(raw, { emptyAsObject: true });
    if (typeof raw === "string") safeParseJson(raw);
    const paths = toolCallPaths(decoded.ok ? decoded.value : raw);
    for (const p of paths) {
      expect(typeof p).toBe("string");
      expect(/[\0\n\r]/.test(p)).toBe(false);
    }
  });
});

it("the MCP frame reader's parseMessage: a message or a reason", async () => {
  await fuzz("mcp-frame", jsonText, (text) => {
    const parsed = parseMessage(text);
    expect(typeof parsed.ok).toBe("boolean");
  });
});
