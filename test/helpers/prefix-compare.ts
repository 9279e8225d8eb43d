/**
 * Comparing the requests a provider received, one after another: each must begin with the previous one
 * (`system` and `tools` the same bytes, the message list element for element), and the share of bytes
 * each request repeats. Used by the prefix-stability tests.
 */
import { expect } from "vitest";
import type { RecordedRequest } from "./fake-provider.js";
import { withoutCacheControl } from "./adapter-requests.js";

export interface Comparable {
  /** The serialised parts that must stay the same bytes (system, tools). */
  fixed: string;
  /** The message list, each element serialised (breakpoints taken out for Anthropic). */
  messages: string[];
}

/** Checks the prefix property on every pair and returns the share of bytes each request repeats. */
export function expectPrefixes(requests: Comparable[]): { share: number; perRequest: number[] } {
  let repeated = 0;
  let total = 0;
  const perRequest: number[] = [];
  for (let k = 1; k < requests.length; k++) {
    const before = requests[k - 1]!;
    const after = requests[k]!;
    expect(after.fixed, `system and tools of request ${k + 1}`).toBe(before.fixed);
    expect(after.messages.slice(0, before.messages.length), `request ${k + 1} begins with request ${k}`).toEqual(
      before.messages,
    );
    expect(after.messages.length).toBeGreaterThan(before.messages.length);
    const size = (c: Comparable, count = c.messages.length) =>
      Buffer.byteLength(c.fixed) + c.messages.slice(0, count).reduce((n, m) => n + Buffer.byteLength(m), 0);
    const same = size(before);
    const all = size(after);
    repeated += same;
    total += all;
    perRequest.push(same / all);
  }
  return { share: repeated / total, perRequest };
}

export function report(
  api: string,
  requests: RecordedRequest[],
  result: { share: number; perRequest: number[] },
  raw: number,
): void {
  const bytes = requests.reduce((n, r) => n + Buffer.byteLength(r.raw), 0);
  const low = Math.min(...result.perRequest);
  console.log(
    `[prefix-stability] ${api}: ${requests.length} requests, ${bytes} bytes sent; requests 2-${requests.length} repeat ${(100 * result.share).toFixed(1)}% ` +
      `of their bytes as the previous request's prefix (lowest ${(100 * low).toFixed(1)}%); raw JSON common prefix ${(100 * raw).toFixed(1)}%`,
  );
}

/** The share of raw body bytes each request has in common, from the start, with the previous one. */
export function rawPrefixShare(requests: RecordedRequest[]): number {
  let same = 0;
  let total = 0;
  for (let k = 1; k < requests.length; k++) {
    const a = requests[k - 1]!.raw;
    const b = requests[k]!.raw;
    let i = 0;
    while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    same += Buffer.byteLength(b.slice(0, i));
    total += Buffer.byteLength(b);
  }
  return same / total;
}

export const serialise = (list: unknown[]) => list.map((element) => JSON.stringify(element));

/**
 * A recorded request as the prefix check reads it, by API: the system (Chat Completions' first message,
 * the Responses `instructions`, Anthropic's `system`) and the tools as the fixed part, the rest of the
 * message list element by element (Anthropic's breakpoints taken out: they move by design).
 */
export function comparableOf(request: RecordedRequest): Comparable {
  const body = request.body;
  switch (request.api) {
    case "chat": {
      const [system, ...messages] = body.messages as unknown[];
      expect(system).toMatchObject({ role: "system" });
      return { fixed: JSON.stringify([system, body.tools]), messages: serialise(messages) };
    }
    case "responses":
      return { fixed: JSON.stringify([body.instructions, body.tools]), messages: serialise(body.input as unknown[]) };
    case "anthropic": {
      const messages = withoutCacheControl(body.messages as Parameters<typeof withoutCacheControl>[0]);
      return { fixed: JSON.stringify([body.system, body.tools]), messages: serialise(messages) };
    }
  }
}

/** Checks that each of `requests` begins with the previous one and prints the shares as `label`. */
export function checkPrefixes(label: string, requests: RecordedRequest[]): { share: number; perRequest: number[] } {
  const result = expectPrefixes(requests.map(comparableOf));
  report(label, requests, result, rawPrefixShare(requests));
  return result;
}
