/**
 * HTTP with a byte cap, for every package: {@link fetchBytes} (a whole body by GET, with the one
 * redirect policy and one deadline), {@link readCapped} (the one whole-body cap, also for bodies a
 * server receives) and {@link cappedFetch} (the MCP SDK's transport, capped per body or per event).
 */
import { formatBytes, McpFrameError } from "./frame-reader.js";

/** Options of {@link fetchBytes}. */
export interface FetchBytesOptions {
  /** Largest body, in bytes: a larger one (by `content-length` or as it streams) is refused. */
  maxBytes: number;
  /** Time for the whole request, redirects and body included: a server that trickles bytes is cut off. */
  timeoutMs: number;
  /** Redirects followed (each to http or https only; https never to http). */
  maxRedirects: number;
  signal?: AbortSignal | undefined;
}

/** A body read whole within the caps, with the URL it finally came from. */
export type FetchedBytes =
  | { ok: true; bytes: Buffer; url: string; contentType: string }
  | {
      ok: false;
      code: "HTTP_FAILED" | "HTTP_TOO_LARGE" | "HTTP_TIMEOUT" | "HTTP_REDIRECT" | "HTTP_STATUS";
      message: string;
      network: boolean;
    };

/**
 * The one HTTP reader of remote skill sources (a GET of a whole body): Node's fetch, redirects followed by hand (at most
 * `maxRedirects`, http and https only, never from https down to http), one deadline for the whole
 * exchange, and a body read chunk by chunk that stops at `maxBytes`. Only a 200 is a success.
 * Never throws for what a server does; rejects only when `signal` is aborted.
 */
export async function fetchBytes(url: string, options: FetchBytesOptions): Promise<FetchedBytes> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const response = await fetch(current, {
        redirect: "manual",
        signal,
        headers: { accept: "application/json, text/markdown, text/plain, application/gzip, application/zip, */*" },
      });
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        await response.body?.cancel();
        const next = redirectTarget(url, current, response.headers.get("location")!, hop, options.maxRedirects);
        if (!next.ok) return { ok: false, code: "HTTP_REDIRECT", message: next.message, network: false };
        current = next.url;
        continue;
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        return {
          ok: false,
          code: "HTTP_STATUS",
          message: `${current} answered ${response.status}`,
          network: response.status >= 500,
        };
      }
      const declared = declaredLength(response.headers.get("content-length"));
      if (declared > options.maxBytes) {
        await response.body?.cancel();
        return {
          ok: false,
          code: "HTTP_TOO_LARGE",
          message: `${current} is ${declared} bytes, over the ${options.maxBytes}-byte cap`,
          network: false,
        };
      }
      const bytes = response.body === null ? Buffer.alloc(0) : await readCapped(response.body, options.maxBytes);
      if (bytes === undefined)
        return {
          ok: false,
          code: "HTTP_TOO_LARGE",
          message: `${current} sent more than the ${options.maxBytes}-byte cap`,
          network: false,
        };
      return { ok: true, bytes, url: current, contentType: response.headers.get("content-type") ?? "" };
    }
  } catch (error) {
    options.signal?.throwIfAborted();
    if (deadline.aborted)
      return {
        ok: false,
        code: "HTTP_TIMEOUT",
        message: `${current} did not answer in full within ${options.timeoutMs} ms`,
        network: true,
      };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      ok: false,
      code: "HTTP_FAILED",
      message: `${current}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      network: true,
    };
  }
}

/** Where a redirect may go, by the one redirect policy, or why it may not. */
export type RedirectTarget = { ok: true; url: string } | { ok: false; message: string };

/**
 * The redirect policy: at most `maxRedirects` hops from `start`, to http or https only, and never from
 * https down to http. `hop` counts the redirects already followed; `location` resolves against `current`.
 */
export function redirectTarget(
  start: string,
  current: string,
  location: string,
  hop: number,
  maxRedirects: number,
): RedirectTarget {
  if (hop >= maxRedirects) return { ok: false, message: `more than ${maxRedirects} redirects from ${start}` };
  const next = new URL(location, current);
  if (next.protocol !== "https:" && next.protocol !== "http:")
    return { ok: false, message: `${current} redirects to a ${next.protocol} URL` };
  if (new URL(current).protocol === "https:" && next.protocol === "http:")
    return { ok: false, message: `${current} redirects from https to http` };
  return { ok: true, url: next.href };
}

/**
 * A `content-length` header as a number: NaN when absent, repeated or not a number, so that
 * `declaredLength(h) > cap` refuses only a body declared larger than the cap.
 */
export function declaredLength(header: string | string[] | null | undefined): number {
  return typeof header === "string" && header.trim() !== "" ? Number(header) : Number.NaN;
}

/**
 * The one body cap for a body read whole: the chunks of `body` (a fetch body or a Node request) joined,
 * or undefined as soon as they pass `maxBytes` (the rest is not read; the stream is cancelled).
 * A body that errors rejects.
 */
export async function readCapped(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Buffer | undefined> {
  const iterator = body[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await iterator.return?.().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

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
    // The SDK passes one long-lived signal to every request, and Node's fetch leaves its listener on it
    // until the request is garbage collected (a MaxListenersExceededWarning past 1,500 requests): each
    // request gets its own signal that follows the SDK's, and lets go of it when the response is done.
    const follower = init?.signal == null ? undefined : followAbort(init.signal);
    let response: Response;
    try {
      response = await base(input, follower === undefined ? init : { ...init, signal: follower.signal });
    } catch (error) {
      follower?.release();
      throw error;
    }
    // Redirects are read by the SDK from their headers; leave them as they are.
    if (response.body === null || (response.status >= 300 && response.status < 400)) {
      follower?.release();
      return response;
    }
    const eventStream = (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
    const piped = response.body.pipeThrough(eventStream ? eventCap(options) : totalCap(options));
    const body = follower === undefined ? piped : releasing(piped, follower.release);
    const capped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(capped, "url", { value: response.url });
    return capped;
  };
}

// A signal of one request that aborts when `outer` does; `release` removes its listener from `outer`.
function followAbort(outer: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(outer.reason);
  if (outer.aborted) controller.abort(outer.reason);
  else outer.addEventListener("abort", onAbort, { once: true });
  let released = false;
  return {
    signal: controller.signal,
    release: () => {
      if (released) return;
      released = true;
      outer.removeEventListener("abort", onAbort);
    },
  };
}

// `body`, calling `release` once it ends, fails or is cancelled (the request is over then).
function releasing(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
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
