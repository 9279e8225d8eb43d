/**
 * A small local HTTP server that answers like the OpenAI Chat Completions and Responses APIs and the
 * Anthropic Messages API, from a script, and records every raw request body. Tests point the official
 * clients at it (`new OpenAI({ baseURL: provider.openaiURL })`, `new Anthropic({ baseURL: provider.url })`),
 * so the real client serialises each request and parses each answer.
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A scripted model turn: some text, tool calls, or both. */
export interface ScriptedTurn {
  text?: string;
  /** Tool calls; `input` is sent as JSON text (OpenAI) or as the object (Anthropic); a string `arguments` is sent as it is. */
  calls?: Array<{ id?: string; name: string; input?: unknown; arguments?: string }>;
}

/** A reply given as it is: a status and a raw body (for malformed answers). */
export interface RawReply {
  status?: number;
  raw: string;
  contentType?: string;
}

/** One answer of the script: a turn rendered in the API's shape, a body to send as JSON, or raw bytes. */
export type ScriptEntry = ScriptedTurn | { body: unknown } | RawReply;

/** Which API a request went to. */
export type ProviderApi = "chat" | "responses" | "anthropic";

/** A request the server received. */
export interface RecordedRequest {
  api: ProviderApi;
  path: string;
  /** The body exactly as received. */
  raw: string;
  /** The body parsed as JSON. */
  body: Record<string, unknown>;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>`: the Anthropic client's `baseURL`. */
  readonly url: string;
  /** `<url>/v1`: the OpenAI client's `baseURL`. */
  readonly openaiURL: string;
  /** Every request, in order. */
  readonly requests: RecordedRequest[];
  /** Adds answers to the end of the script. */
  script(...entries: ScriptEntry[]): void;
  close(): Promise<void>;
}

/** Starts a fake provider on 127.0.0.1 and an ephemeral port. */
export async function startFakeProvider(entries: ScriptEntry[] = []): Promise<FakeProvider> {
  const queue = [...entries];
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) =>
      reply(response, 500, { error: { message: String(error) } }),
    );
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await readBody(request);
    const path = request.url ?? "";
    const api: ProviderApi | undefined = path.endsWith("/chat/completions")
      ? "chat"
      : path.endsWith("/responses")
        ? "responses"
        : path.endsWith("/messages")
          ? "anthropic"
          : undefined;
    if (api === undefined || request.method !== "POST")
      return reply(response, 404, { error: { message: `no route for ${request.method} ${path}` } });
    requests.push({ api, path, raw, body: JSON.parse(raw) as Record<string, unknown> });
    const entry = queue.shift();
    if (entry === undefined)
      return reply(response, 500, {
        error: { type: "script_ended", message: `the script has no answer for request ${requests.length}` },
      });
    if ("raw" in entry) {
      response.writeHead(entry.status ?? 200, { "content-type": entry.contentType ?? "application/json" });
      response.end(entry.raw);
      return;
    }
    if ("body" in entry) return reply(response, 200, entry.body);
    counter++;
    const model = String(requests.at(-1)!.body.model ?? "fake-model");
    reply(
      response,
      200,
      api === "chat"
        ? chatBody(entry, model, counter)
        : api === "responses"
          ? responsesBody(entry, model, counter)
          : anthropicBody(entry, model, counter),
    );
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    openaiURL: `${url}/v1`,
    requests,
    script: (...more) => void queue.push(...more),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------

function callId(turn: number, index: number, given: string | undefined, prefix: string): string {
  return given ?? `${prefix}${turn}_${index}`;
}

function argumentsOf(call: NonNullable<ScriptedTurn["calls"]>[number]): string {
  return call.arguments ?? JSON.stringify(call.input ?? {});
}

function chatBody(turn: ScriptedTurn, model: string, n: number): unknown {
  const calls = turn.calls ?? [];
  const message: Record<string, unknown> = { role: "assistant", content: turn.text ?? null, refusal: null };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call, i) => ({
      id: callId(n, i, call.id, "call_"),
      type: "function",
      function: { name: call.name, arguments: argumentsOf(call) },
    }));
  }
  return {
    id: `chatcmpl-${n}`,
    object: "chat.completion",
    created: 0,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length > 0 ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

function responsesBody(turn: ScriptedTurn, model: string, n: number): unknown {
  const output: unknown[] = [];
  if (turn.text !== undefined) {
    output.push({
      type: "message",
      id: `msg_${n}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: turn.text, annotations: [] }],
    });
  }
  (turn.calls ?? []).forEach((call, i) =>
    output.push({
      type: "function_call",
      id: `fc_${n}_${i}`,
      call_id: callId(n, i, call.id, "call_"),
      name: call.name,
      arguments: argumentsOf(call),
      status: "completed",
    }),
  );
  return {
    id: `resp_${n}`,
    object: "response",
    created_at: 0,
    status: "completed",
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

function anthropicBody(turn: ScriptedTurn, model: string, n: number): unknown {
  const content: unknown[] = [];
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text, citations: null });
  (turn.calls ?? []).forEach((call, i) =>
    content.push({
      type: "tool_use",
      id: callId(n, i, call.id, "toolu_"),
      name: call.name,
      input: call.arguments === undefined ? (call.input ?? {}) : call.arguments,
    }),
  );
  return {
    id: `msg_${n}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: (turn.calls ?? []).length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The turns of a scripted session (`{ call, input }` or `{ text }`, as test/helpers/agent-scenario.ts writes them) as script entries. */
export function scriptOf(turns: ReadonlyArray<{ call: string; input: unknown } | { text: string }>): ScriptedTurn[] {
  return turns.map((turn) =>
    "text" in turn ? { text: turn.text } : { calls: [{ name: turn.call, input: turn.input }] },
  );
}
