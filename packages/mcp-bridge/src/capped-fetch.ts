import { formatBytes, McpFrameError } from "./frame-reader.js";

/** Options for {@link cappedFetch}. */
export interface CappedFetchOptions {
  /** Largest response body, or largest server-sent event of an event stream, in bytes. */
  maxBytes: number;
  /** Called once per response that went over the cap, before its body errors. */
  onOversize(error: McpFrameError): void;
  /** The fetch to wrap. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * A `fetch` for the SDK's streamable HTTP transport that bounds what a server can make the host hold:
 * the SDK reads a JSON response whole (`response.json()`) and buffers an SSE event until its blank line,
 * both without limit. Here a JSON (or error) body over `maxBytes`, or one event of a `text/event-stream`
 * over `maxBytes`, errors the body stream (the connection is dropped) and calls `onOversize`.
 * A long-lived event stream is fine as long as each event is within the cap.
 */
export function cappedFetch(options: CappedFetchOptions): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  return async (input, init) => {
    const response = await base(input, init);
    // Redirects are read by the SDK from their headers; leave them as they are.
    if (response.body === null || (response.status >= 300 && response.status < 400)) return response;
    const eventStream = (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
    const body = response.body.pipeThrough(eventStream ? eventCap(options) : totalCap(options));
    const capped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(capped, "url", { value: response.url });
    return capped;
  };
}

function totalCap(options: CappedFetchOptions): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      if (total > options.maxBytes)
        return fail(
          controller,
          options,
          `sent an HTTP response larger than the ${formatBytes(options.maxBytes)} cap`,
          total,
        );
      controller.enqueue(chunk);
    },
  });
}

// Counts the bytes of the current event: an event ends at a blank line (CRLF, LF or CR line endings).
function eventCap(options: CappedFetchOptions): TransformStream<Uint8Array, Uint8Array> {
  let event = 0;
  let lineEmpty = true;
  let afterCR = false;
  return new TransformStream({
    transform(chunk, controller) {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        if (byte === 0x0a && afterCR) {
          afterCR = false;
          continue;
        }
        afterCR = byte === 0x0d;
        if (byte === 0x0a || byte === 0x0d) {
          if (lineEmpty) event = 0;
          lineEmpty = true;
          continue;
        }
        lineEmpty = false;
        if (++event > options.maxBytes) {
          return fail(
            controller,
            options,
            `sent a server-sent event larger than the ${formatBytes(options.maxBytes)} cap`,
            event,
          );
        }
      }
      controller.enqueue(chunk);
    },
  });
}

function fail(
  controller: TransformStreamDefaultController<Uint8Array>,
  options: CappedFetchOptions,
  message: string,
  bytes: number,
): void {
  const error = new McpFrameError("oversize", message, bytes);
  try {
    options.onOversize(error);
  } finally {
    controller.error(error);
  }
}
