/**
 * Refusing a request without losing the refusal. A server that closes a connection while the client is
 * still sending makes its TCP stack answer the unread bytes with a reset, and the reset can erase the
 * answer from the client's buffers before the client reads it: the client sees ECONNRESET or EPIPE
 * instead of 413 or 431. RFC 9112 section 9.6 ("Tear-down") asks for a staged close instead: half-close,
 * read on until the client closes or has surely read the answer, then close.
 * https://www.rfc-editor.org/rfc/rfc9112#section-9.6
 *
 * Both halves are bounded: past {@link MAX_DISCARDED_BODY_BYTES} or {@link LINGER_MS} the connection is
 * closed as before (a client sending that much past a refusal is not one to wait for).
 */
import { declaredLength, readCapped } from "@skillctx/mcp-bridge/internal";
import { STATUS_CODES } from "node:http";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { LINGER_MS, MAX_DISCARDED_BODY_BYTES } from "./limits.js";

/**
 * The request's whole body (read with mcp-bridge's `readCapped`, the one whole-body cap), or undefined
 * when it is larger than `maxBytes`. Then the rest of the body has been read and dropped (up to
 * {@link MAX_DISCARDED_BODY_BYTES} more, for at most {@link LINGER_MS}) so that the 413 the caller sends
 * next reaches the client; a body declared larger than both together is not read at all. Rejects when
 * the client goes away mid-body.
 */
export async function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const declared = declaredLength(req.headers["content-length"]);
  if (declared > maxBytes + MAX_DISCARDED_BODY_BYTES) return undefined;
  const chunks: AsyncIterator<Buffer> = req[Symbol.asyncIterator]();
  if (declared <= maxBytes || Number.isNaN(declared)) {
    // Not cancelled at the cap (readCapped cancels what it reads): the rest is still to be read and dropped.
    const bytes = await readCapped({ [Symbol.asyncIterator]: () => ({ next: () => chunks.next() }) }, maxBytes);
    if (bytes !== undefined) return bytes;
  }
  await dropRest(chunks);
  return undefined;
}

// Reads and drops chunks until the body ends, MAX_DISCARDED_BODY_BYTES or LINGER_MS; whatever arrives
// later waits unread for the answer to close the connection.
async function dropRest(chunks: AsyncIterator<Buffer>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), LINGER_MS)));
  try {
    for (let dropped = 0; dropped <= MAX_DISCARDED_BODY_BYTES; ) {
      const next = chunks.next();
      next.catch(() => {}); // a client gone after the wait is the answer's problem, not this one's
      const chunk = await Promise.race([next, late]);
      if (chunk === "late" || chunk.done === true) return;
      dropped += chunk.value.byteLength;
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A `clientError` listener for a `node:http` server: the answer Node gives by default (431 for an
 * oversized head, 408 for a head too slow, 400 otherwise; nothing when an answer is already on its way or
 * the socket cannot be written), then a staged close instead of Node's immediate one. `answering` says
 * whether a response on this socket has already sent its head.
 */
export function stagedClientError(
  answering: (socket: Duplex) => boolean,
): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  const handled = new WeakSet<Duplex>();
  return (error, socket) => {
    // The parser reports its error again for every later chunk it is handed: answer once.
    if (handled.has(socket)) return;
    handled.add(socket);
    if (error.code === "ECONNRESET" || !socket.writable || answering(socket)) return void socket.destroy();
    const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
    // The client's half-close (it read the answer and hung up) ends the wait.
    socket.once("end", () => socket.destroy());
    socket.resume();
  };
}
