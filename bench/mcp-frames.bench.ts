// Reading MCP stdio frames: the bridge's bounded FrameReader against the SDK's ReadBuffer (the baseline,
// measured in the same run). Run: pnpm vitest bench --run bench/mcp-frames.bench.ts
//  1. 10,000 small messages (a typical session, compressed), fed in 64 KiB chunks;
//  2. one 8 MiB message fed in 64 KiB chunks (a big but legal tool result): the SDK copies its whole
//     buffer on every chunk, FrameReader keeps views and copies once.
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bench, describe } from "vitest";
import { FrameReader } from "../packages/mcp-bridge/src/frame-reader.js";

// The SDK as @skillctx/mcp-bridge resolves it (the root has no dependency on it).
const sdk = realpathSync(
  fileURLToPath(new URL("../packages/mcp-bridge/node_modules/@modelcontextprotocol/sdk", import.meta.url)),
);
const { ReadBuffer } = (await import(pathToFileURL(join(sdk, "dist/esm/shared/stdio.js")).href)) as {
  ReadBuffer: new () => { append(chunk: Buffer): void; readMessage(): unknown };
};

const CHUNK = 64 * 1024;

function chunks(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) out.push(bytes.subarray(at, at + CHUNK));
  return out;
}

const small = chunks(
  Array.from(
    { length: 10_000 },
    (_, id) =>
      `${JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `answer ${id}` }] } })}\n`,
  ).join(""),
);
const large = chunks(
  `${JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: "a".repeat(8 * 1024 * 1024) }] },
  })}\n`,
);

function viaFrameReader(input: Buffer[]): number {
  let count = 0;
  const reader = new FrameReader(
    { maxBytes: 16 * 1024 * 1024 },
    {
      message: () => void count++,
      problem: (e) => {
        throw e;
      },
    },
  );
  for (const chunk of input) reader.push(chunk);
  return count;
}

function viaSdk(input: Buffer[]): number {
  let count = 0;
  const buffer = new ReadBuffer();
  for (const chunk of input) {
    buffer.append(chunk);
    while (buffer.readMessage() !== null) count++;
  }
  return count;
}

describe("10,000 small messages in 64 KiB chunks", () => {
  bench("SDK ReadBuffer (baseline)", () => {
    if (viaSdk(small) !== 10_000) throw new Error("lost messages");
  });
  bench("FrameReader", () => {
    if (viaFrameReader(small) !== 10_000) throw new Error("lost messages");
  });
});

describe("one 8 MiB message in 64 KiB chunks", () => {
  bench(
    "SDK ReadBuffer (baseline)",
    () => {
      if (viaSdk(large) !== 1) throw new Error("lost the message");
    },
    { iterations: 10, time: 0 },
  );
  bench(
    "FrameReader",
    () => {
      if (viaFrameReader(large) !== 1) throw new Error("lost the message");
    },
    { iterations: 10, time: 0 },
  );
});
