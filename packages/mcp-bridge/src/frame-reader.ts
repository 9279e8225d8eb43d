import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { formatBytes } from "./format-bytes.js";
import { headUtf16, safeParseJson } from "@skillctx/core/internal";

/** What is wrong with a message a server sent. */
export type FrameProblem = "oversize" | "malformed";

/**
 * A message an MCP server sent that the bridge could not take: larger than the cap (`oversize`), or not
 * a JSON-RPC 2.0 message (`malformed`). Transports hand it to `onerror`; the connection decides what
 * happens to the server (see `ServerConnection`).
 */
export class McpFrameError extends Error {
  override readonly name = "McpFrameError";
  readonly problem: FrameProblem;
  /** Bytes of the message seen (for `oversize`, at least this many). */
  readonly bytes: number;
  /** For `malformed`: what is wrong and the start of the message, e.g. `not JSON: "hello"`. */
  readonly detail: string;

  constructor(problem: FrameProblem, message: string, bytes: number, detail = "") {
    super(message);
    this.problem = problem;
    this.bytes = bytes;
    this.detail = detail;
  }
}

/** Where {@link FrameReader} delivers what it reads. */
export interface FrameSink {
  message(message: JSONRPCMessage): void;
  problem(error: McpFrameError): void;
}

/**
 * Splits a stdio byte stream into newline-delimited JSON-RPC messages, holding at most `maxBytes` of
 * one unfinished line. Unlike the SDK's `ReadBuffer` it never throws and never copies the buffer on
 * every chunk: a line longer than `maxBytes` is dropped as it streams in (memory stays at the cap) and
 * reported once as `oversize`; a line that is not JSON or not JSON-RPC is reported as `malformed`;
 * blank lines are skipped. Reading goes on after either problem.
 */
export class FrameReader {
  readonly #maxBytes: number;
  readonly #sink: FrameSink;
  #parts: Buffer[] = [];
  #length = 0;
  /** Bytes of an over-size line dropped so far; -1 while the current line is within the cap. */
  #dropping = -1;

  constructor(options: { maxBytes: number }, sink: FrameSink) {
    this.#maxBytes = options.maxBytes;
    this.#sink = sink;
  }

  /** Feeds one chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk, start, end);
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  /** Forgets any unfinished line. */
  clear(): void {
    this.#parts = [];
    this.#length = 0;
    this.#dropping = -1;
  }

  #take(chunk: Buffer, start: number, end: number): void {
    const size = end - start;
    if (size === 0) return;
    if (this.#dropping >= 0) {
      this.#dropping += size;
      return;
    }
    if (this.#length + size > this.#maxBytes) {
      this.#dropping = this.#length + size;
      this.#parts = [];
      this.#length = 0;
      this.#sink.problem(
        new McpFrameError(
          "oversize",
          `sent a message larger than the ${formatBytes(this.#maxBytes)} cap`,
          this.#dropping,
        ),
      );
      return;
    }
    // subarray keeps a view on the chunk: no copy until the line is complete.
    this.#parts.push(chunk.subarray(start, end));
    this.#length += size;
  }

  #endLine(): void {
    if (this.#dropping >= 0) {
      this.#dropping = -1;
      return;
    }
    const parts = this.#parts;
    const length = this.#length;
    this.#parts = [];
    this.#length = 0;
    if (length === 0) return;
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
    let text = bytes.toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    const parsed = parseMessage(text);
    if (parsed.ok) this.#sink.message(parsed.message);
    else {
      const detail = `${parsed.why}: ${excerpt(text)}`;
      this.#sink.problem(new McpFrameError("malformed", `sent a malformed message (${detail})`, length, detail));
    }
  }
}

/** Parses one JSON-RPC message; never throws (a nesting too deep for the validator is "malformed" too). */
export function parseMessage(text: string): { ok: true; message: JSONRPCMessage } | { ok: false; why: string } {
  const parsed = safeParseJson(text);
  if (!parsed.ok) return { ok: false, why: "not JSON" };
  const value = parsed.value;
  try {
    const result = JSONRPCMessageSchema.safeParse(value);
    return result.success ? { ok: true, message: result.data } : { ok: false, why: "not a JSON-RPC 2.0 message" };
  } catch {
    return { ok: false, why: "not a JSON-RPC 2.0 message" };
  }
}

// Kept here for the modules that import it from this one.
export { formatBytes };

// The start of a bad message, for a diagnostic: short, one line, control characters shown as escapes.
function excerpt(text: string, max = 80): string {
  const head = JSON.stringify(headUtf16(text, max));
  return text.length > max ? `${head}…` : head;
}
