// Fuzz: the HTTP head and body handling of the skill server: the Host check, Content-Length, the capped
// body reader (skills-mcp http-teardown.ts over mcp-bridge readCapped) and pagination cursors.
import { Buffer } from "node:buffer";
import type { IncomingMessage } from "node:http";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { declaredLength } from "../../packages/mcp-bridge/src/capped-fetch.js";
import { readCursor } from "../../packages/skills-mcp/src/cursor.js";
import { hostAllowed, hostPolicy } from "../../packages/skills-mcp/src/http-hosts.js";
import { readRequestBody } from "../../packages/skills-mcp/src/http-teardown.js";
import { fuzz, hostileText, report } from "./harness.js";

afterAll(() => console.info(report()));

const host = fc.oneof(
  hostileText,
  fc.constantFrom("127.0.0.1", "localhost", "[::1]", "0.0.0.0", "example.com", "LOCALHOST.", "127.0.0.1:80@evil.com"),
  fc
    .tuple(fc.constantFrom("127.0.0.1", "localhost", "[::1]", "evil"), fc.integer({ min: -1, max: 70_000 }))
    .map(([h, p]) => `${h}:${p}`),
);

it("hostPolicy / hostAllowed: a boolean for any Host header", async () => {
  await fuzz(
    "http-host",
    fc.tuple(
      fc.constantFrom("127.0.0.1", "::1", "0.0.0.0", "localhost"),
      host,
      fc.array(hostileText, { maxLength: 3 }),
    ),
    ([bound, header, extra]) => {
      expect(typeof hostAllowed(hostPolicy(bound, extra), header)).toBe("boolean");
      expect(typeof hostAllowed(hostPolicy(bound), undefined)).toBe("boolean");
    },
  );
});

it("readCursor: a position or undefined for any text", async () => {
  await fuzz(
    "http-cursor",
    fc.oneof(
      hostileText,
      hostileText.map((t) => Buffer.from(t).toString("base64url")),
    ),
    (cursor) => {
      const position = readCursor("resources", cursor);
      if (position !== undefined) expect(Number.isSafeInteger(position.offset)).toBe(true);
    },
  );
});

// A request whose Content-Length header and chunks are hostile: the body or undefined, never more than the cap.
const request = fc.record({
  length: fc.oneof(hostileText, fc.constantFrom("0", "-1", "1e3", "99999999999999999999", " 12 ", "12, 13")),
  chunks: fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 }),
  cap: fc.integer({ min: 0, max: 2000 }),
});

it("declaredLength and readRequestBody: within the cap or undefined", async () => {
  await fuzz("http-body", request, async ({ length, chunks, cap }) => {
    declaredLength(length);
    declaredLength([length, length]);
    const req = {
      headers: { "content-length": length },
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) yield Buffer.from(chunk);
      },
    } as unknown as IncomingMessage;
    const body = await readRequestBody(req, cap);
    if (body !== undefined) {
      expect(body.byteLength).toBeLessThanOrEqual(cap);
      expect(body.byteLength).toBe(chunks.reduce((sum, c) => sum + c.byteLength, 0));
    }
  });
});

// Finding (seed 1649928800): an allowed host "" threw a bare TypeError; now a SkillctxError INVALID_OPTIONS.
it("regression: hostPolicy refuses an empty or malformed allowed host with INVALID_OPTIONS", () => {
  for (const bad of ["", " ", "bad host/"]) {
    expect(() => hostPolicy("127.0.0.1", [bad])).toThrow(expect.objectContaining({ code: "INVALID_OPTIONS" }));
  }
});
