import fc from "fast-check";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { formatBytes, FrameReader, McpFrameError, parseMessage } from "./frame-reader.js";

function reader(maxBytes = 1024) {
  const messages: JSONRPCMessage[] = [];
  const problems: McpFrameError[] = [];
  const frames = new FrameReader({ maxBytes }, { message: (m) => messages.push(m), problem: (p) => problems.push(p) });
  return {
    frames,
    messages,
    problems,
    push: (text: string | Buffer) => frames.push(Buffer.isBuffer(text) ? text : Buffer.from(text)),
  };
}

const ping = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "ping" });
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

describe("FrameReader", () => {
  it("reads newline-delimited messages, with CRLF, blank lines and a message split across chunks", () => {
    const r = reader();
    r.push(`${line(ping(1))}\n\r\n${JSON.stringify(ping(2))}\r\n{"jsonrpc":"2.0",`);
    expect(r.messages).toEqual([ping(1), ping(2)]);
    r.push(`"id":3,"method":"ping"}\n`);
    expect(r.messages).toEqual([ping(1), ping(2), ping(3)]);
    expect(r.problems).toEqual([]);
  });

  it("decodes UTF-8 split between chunks", () => {
    const r = reader();
    const bytes = Buffer.from(line({ jsonrpc: "2.0", method: "note", params: { text: "é😀" } }));
    const cut = bytes.indexOf(0xf0) + 2; // inside the 4-byte emoji
    r.push(bytes.subarray(0, cut));
    r.push(bytes.subarray(cut));
    expect(r.messages).toEqual([{ jsonrpc: "2.0", method: "note", params: { text: "é😀" } }]);
  });

  it("drops a line over the cap as it streams in, reports it once, and reads the next line", () => {
    const r = reader(100);
    r.push(`{"jsonrpc":"2.0","id":1,"result":{"text":"${"a".repeat(60)}`);
    r.push("a".repeat(60));
    r.push("a".repeat(5000));
    expect(r.problems.map((p) => [p.problem, p.message])).toEqual([
      ["oversize", "sent a message larger than the 100 bytes cap"],
    ]);
    r.push(`"}}\n${line(ping(2))}`);
    expect(r.messages).toEqual([ping(2)]);
    expect(r.problems).toHaveLength(1);
  });

  it("accepts a line of exactly the cap", () => {
    const text = JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "" } });
    const exact = JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "p".repeat(200 - text.length) } });
    expect(Buffer.byteLength(exact)).toBe(200);
    const r = reader(200);
    r.push(`${exact}\n`);
    expect(r.messages).toHaveLength(1);
    r.push(`${exact.slice(0, -1)}pp\n`);
    expect(r.problems.map((p) => p.problem)).toEqual(["oversize"]);
  });

  it("reports malformed lines with what is wrong and their start, and carries on", () => {
    const r = reader();
    r.push(`not json\n{"hello":1}\n[1,2]\n${"x".repeat(300)}\n\u0000\u0007\n${line(ping(9))}`);
    expect(r.messages).toEqual([ping(9)]);
    expect(r.problems.map((p) => p.detail)).toEqual([
      'not JSON: "not json"',
      'not a JSON-RPC 2.0 message: "{\\"hello\\":1}"',
      'not a JSON-RPC 2.0 message: "[1,2]"',
      `not JSON: "${"x".repeat(80)}"…`,
      'not JSON: "\\u0000\\u0007"',
    ]);
    expect(r.problems.every((p) => p.problem === "malformed" && p instanceof McpFrameError)).toBe(true);
  });

  it("never throws, whatever bytes arrive, and finds every message between them (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constant(line(ping(1))),
            fc.uint8Array({ maxLength: 50 }).map((b) => Buffer.from(b).toString("latin1")),
            fc.constant("\n"),
          ),
        ),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }),
        (pieces, sizes) => {
          const bytes = Buffer.from(pieces.join(""), "latin1");
          const r = reader(64);
          let at = 0;
          for (let i = 0; at < bytes.length; i++) {
            const size = sizes[i % sizes.length]!;
            r.push(bytes.subarray(at, at + size));
            at += size;
          }
          // Same messages as reading the whole stream at once.
          const whole = reader(64);
          whole.push(bytes);
          expect(r.messages).toEqual(whole.messages);
          expect(r.problems.map((p) => p.problem)).toEqual(whole.problems.map((p) => p.problem));
        },
      ),
    );
  });
});

describe("parseMessage", () => {
  it("refuses values nested too deeply for the validator without throwing", () => {
    const deep = `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":${"[".repeat(200_000)}${"]".repeat(200_000)}}}`;
    expect(() => parseMessage(deep)).not.toThrow();
  });
});

describe("formatBytes", () => {
  it("names sizes the way the caps are written", () => {
    expect([16 * 1024 * 1024, 64 * 1024, 1536, 100, 1.5 * 1024 * 1024].map(formatBytes)).toEqual([
      "16 MiB",
      "64 KiB",
      "1.5 KiB",
      "100 bytes",
      "1.5 MiB",
    ]);
  });
});
