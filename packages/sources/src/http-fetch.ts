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
 * The one HTTP reader of remote skill sources: Node's fetch, redirects followed by hand (at most
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
        if (hop >= options.maxRedirects)
          return {
            ok: false,
            code: "HTTP_REDIRECT",
            message: `more than ${options.maxRedirects} redirects from ${url}`,
            network: false,
          };
        const next = new URL(response.headers.get("location")!, current);
        if (next.protocol !== "https:" && next.protocol !== "http:")
          return {
            ok: false,
            code: "HTTP_REDIRECT",
            message: `${current} redirects to a ${next.protocol} URL`,
            network: false,
          };
        if (new URL(current).protocol === "https:" && next.protocol === "http:")
          return {
            ok: false,
            code: "HTTP_REDIRECT",
            message: `${current} redirects from https to http`,
            network: false,
          };
        current = next.href;
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
      const declared = Number(response.headers.get("content-length") ?? Number.NaN);
      if (declared > options.maxBytes) {
        await response.body?.cancel();
        return {
          ok: false,
          code: "HTTP_TOO_LARGE",
          message: `${current} is ${declared} bytes, over the ${options.maxBytes}-byte cap`,
          network: false,
        };
      }
      const bytes = await readCapped(response, options.maxBytes);
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

async function readCapped(response: Response, maxBytes: number): Promise<Buffer | undefined> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
