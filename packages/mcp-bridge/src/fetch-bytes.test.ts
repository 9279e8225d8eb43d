import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredLength, fetchBytes, readCapped, redirectTarget } from "./capped-fetch.js";

// Tests of the whole-body half of capped-fetch.ts: fetchBytes (remote skill sources), readCapped (also
// the skills-mcp server's request bodies) and the one redirect policy.
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/ok") return res.writeHead(200, { "content-type": "text/plain" }).end("hello");
    if (url === "/empty") return res.writeHead(200).end();
    if (url === "/declared-big") return res.writeHead(200, { "content-length": "5000" }).end("x".repeat(5000));
    if (url === "/streamed-big") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("x".repeat(600));
      return res.end("y".repeat(600));
    }
    if (url === "/missing") return res.writeHead(404).end("no");
    if (url === "/broken") return res.writeHead(503).end("later");
    if (url.startsWith("/hop/")) {
      const left = Number(url.slice(5));
      return res.writeHead(302, { location: left === 0 ? "/ok" : `/hop/${left - 1}` }).end();
    }
    if (url === "/to-file") return res.writeHead(301, { location: "file:///etc/passwd" }).end();
    if (url === "/slow") {
      res.writeHead(200);
      res.write("a");
      return; // never ends
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const options = { maxBytes: 1000, timeoutMs: 5000, maxRedirects: 3 };

describe("fetchBytes", () => {
  it("reads a 200 body whole, with its final URL and content type", async () => {
    const fetched = await fetchBytes(`${base}/ok`, options);
    expect(fetched).toMatchObject({ ok: true, url: `${base}/ok`, contentType: "text/plain" });
    expect(fetched.ok && fetched.bytes.toString()).toBe("hello");
    const empty = await fetchBytes(`${base}/empty`, options);
    expect(empty.ok && empty.bytes.length).toBe(0);
  });

  it("refuses a body over the cap, by its declared length or as it streams", async () => {
    expect(await fetchBytes(`${base}/declared-big`, options)).toEqual({
      ok: false,
      code: "HTTP_TOO_LARGE",
      message: `${base}/declared-big is 5000 bytes, over the 1000-byte cap`,
      network: false,
    });
    expect(await fetchBytes(`${base}/streamed-big`, options)).toEqual({
      ok: false,
      code: "HTTP_TOO_LARGE",
      message: `${base}/streamed-big sent more than the 1000-byte cap`,
      network: false,
    });
  });

  it("treats any other status as a failure, a 5xx as a network one", async () => {
    expect(await fetchBytes(`${base}/missing`, options)).toMatchObject({ code: "HTTP_STATUS", network: false });
    expect(await fetchBytes(`${base}/broken`, options)).toMatchObject({
      code: "HTTP_STATUS",
      message: `${base}/broken answered 503`,
      network: true,
    });
  });

  it("follows at most maxRedirects redirects, and only to http or https", async () => {
    const followed = await fetchBytes(`${base}/hop/2`, options);
    expect(followed).toMatchObject({ ok: true, url: `${base}/ok` });
    expect(await fetchBytes(`${base}/hop/3`, options)).toEqual({
      ok: false,
      code: "HTTP_REDIRECT",
      message: `more than 3 redirects from ${base}/hop/3`,
      network: false,
    });
    expect(await fetchBytes(`${base}/to-file`, options)).toMatchObject({
      code: "HTTP_REDIRECT",
      message: `${base}/to-file redirects to a file: URL`,
    });
  });

  it("cuts off a server that trickles past the deadline, and rejects when the caller aborts", async () => {
    expect(await fetchBytes(`${base}/slow`, { ...options, timeoutMs: 200 })).toEqual({
      ok: false,
      code: "HTTP_TIMEOUT",
      message: `${base}/slow did not answer in full within 200 ms`,
      network: true,
    });
    const controller = new AbortController();
    const pending = fetchBytes(`${base}/slow`, { ...options, signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(pending).rejects.toThrow("stop");
  });

  it("reports a connection failure as a network failure", async () => {
    const fetched = await fetchBytes("http://127.0.0.1:1/", options);
    expect(fetched).toMatchObject({ ok: false, code: "HTTP_FAILED", network: true });
  });
});

describe("redirectTarget", () => {
  it("resolves the location against the current URL", () => {
    expect(redirectTarget("http://a/x", "http://a/x", "../y?q", 0, 1)).toEqual({ ok: true, url: "http://a/y?q" });
    expect(redirectTarget("http://a/", "http://a/", "https://b/", 0, 1)).toEqual({ ok: true, url: "https://b/" });
  });

  it("refuses going from https down to http, other protocols and one hop too many", () => {
    expect(redirectTarget("https://a/", "https://a/", "http://a/", 0, 5)).toEqual({
      ok: false,
      message: "https://a/ redirects from https to http",
    });
    expect(redirectTarget("http://a/", "http://a/", "ftp://a/", 0, 5)).toEqual({
      ok: false,
      message: "http://a/ redirects to a ftp: URL",
    });
    expect(redirectTarget("http://s/", "http://a/", "/b", 2, 2)).toEqual({
      ok: false,
      message: "more than 2 redirects from http://s/",
    });
    expect(redirectTarget("http://a/", "http://a/", "/b", 0, 0).ok).toBe(false);
  });
});

describe("declaredLength", () => {
  it("is the header's number, NaN when absent, empty, repeated or not a number", () => {
    expect(declaredLength("12")).toBe(12);
    for (const header of [null, undefined, "", " ", ["1", "2"], "abc"]) expect(declaredLength(header)).toBeNaN();
    expect(declaredLength("abc") > 10).toBe(false);
  });
});

describe("readCapped", () => {
  async function* chunks(sizes: number[], seen: { returned: boolean; read: number }) {
    try {
      for (const size of sizes) {
        seen.read++;
        yield new Uint8Array(size).fill(0x61);
      }
    } finally {
      seen.returned = true;
    }
  }

  it("joins the chunks up to and including exactly the cap", async () => {
    const seen = { returned: false, read: 0 };
    expect((await readCapped(chunks([3, 4, 3], seen), 10))?.toString()).toBe("a".repeat(10));
    expect((await readCapped(chunks([], seen), 0))?.length).toBe(0);
  });

  it("stops at the first chunk past the cap, reads no further and closes the source", async () => {
    const seen = { returned: false, read: 0 };
    expect(await readCapped(chunks([3, 4, 4, 100], seen), 10)).toBeUndefined();
    expect(seen).toEqual({ returned: true, read: 3 });
  });

  it("rejects when the source errors", async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield new Uint8Array(1);
      throw new Error("reset");
    }
    await expect(readCapped(failing(), 10)).rejects.toThrow("reset");
  });
});
