/**
 * Bounded work per request on `skillctx serve --http` (issue 35, item 2), against the BUILT CLI in a
 * child process whose memory the test reads from /proc. The break: one 9 KB POST holding a JSON-RPC
 * batch of 100 `resources/read` of a 6 MiB skill file was never answered and took the server from
 * 113 MB to 700 MB. MCP removed batching in its 2025-06-18 revision
 * (https://modelcontextprotocol.io/specification/2025-06-18/changelog, "Remove support for JSON-RPC
 * batching"; https://modelcontextprotocol.io/specification/2025-06-18/basic/transports: "The body of the
 * POST request MUST be a single JSON-RPC request, notification, or response"): a batch is refused with
 * JSON-RPC -32600 (https://www.jsonrpc.org/specification#error_object). Also: a request cut off by the
 * drain is logged as cut, not 200; params of the wrong type are -32602 with one line, not -32603 with a
 * zod dump.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../../packages/core/src/testing/temp-dir.js";
import { MAX_ANSWER_BYTES } from "../../packages/skills-mcp/src/limits.js";
import { assertBuilt } from "../helpers/cli.js";
import { MCP_HEADERS, rawRequest, rpc, startServe, writeSkills } from "../helpers/serve-http.js";

const tempDir = useTempDirs("adv-serve-bounded");
beforeAll(assertBuilt);

// Resident memory of a process now, and its peak so far (Linux /proc), in MiB.
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

describe("serve --http: bounded work per request", () => {
  it("a batch of 100 resources/read of a 6 MiB file is refused at once (-32600); the server stays within 2x its idle memory and answers on", async () => {
    const repo = writeSkills(await tempDir(), 1);
    // 6 MiB of text in one file of the skill: each read of it is a 6 MiB answer.
    writeFileSync(path.join(repo, ".agents/skills/s0/big.md"), `${"word ".repeat((6 * 1024 * 1024) / 5)}\n`);
    const { cli, url } = await startServe(repo, [], { home: await tempDir() });
    try {
      const pid = cli.child.pid!;
      const uri = "skill://s0/big.md";
      // One read alone is answered whole (6 MiB is under the per-answer cap).
      const single = await rawRequest(url, { headers: MCP_HEADERS, body: rpc("resources/read", { uri }) });
      expect(single.status).toBe(200);
      expect(JSON.parse(single.body).result.contents[0].text.length).toBeGreaterThan(6_000_000);
      await new Promise((r) => setTimeout(r, 300));
      const idle = memoryMb(pid).rss;
      const batch = JSON.stringify(
        Array.from({ length: 100 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "resources/read", params: { uri } })),
      );
      expect(batch.length).toBeLessThan(10_000);
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, memoryMb(pid).rss)), 20);
      const sent = performance.now();
      const answer = await Promise.race([
        rawRequest(url, { headers: MCP_HEADERS, body: batch }),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no answer in 10 s")), 10_000)),
      ]).finally(() => clearInterval(sampler));
      const waited = performance.now() - sent;
      peak = Math.max(peak, memoryMb(pid).rss);
      console.info(
        `batch refused in ${waited.toFixed(0)} ms; RSS idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB (${process.version})`,
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      expect(waited).toBeLessThan(5_000);
      expect(peak, `idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB`).toBeLessThan(2 * idle);
      // Other shapes that are not one message object: refused the same way, never handed on.
      for (const body of ["[]", "42", '"x"', "null", "[1]"]) {
        const refused = await rawRequest(url, { headers: MCP_HEADERS, body });
        expect({ body, status: refused.status, code: JSON.parse(refused.body).error.code }).toEqual({
          body,
          status: 400,
          code: -32600,
        });
      }
      expect((await rawRequest(url, { headers: MCP_HEADERS, body: rpc("skills/list") })).status).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
    }
    expect((await cli.exited).code).toBe(143);
  });

  it(`a file whose answer would be past MAX_ANSWER_BYTES (${MAX_ANSWER_BYTES}) is refused with -32602, one line, not built into an answer`, async () => {
    const repo = writeSkills(await tempDir(), 1);
    // Binary (served as base64, 4/3 of its size): 13 MiB of bytes are a 17.3 MiB answer, past the cap,
    // while the file is within what the index serves (MAX_SKILL_FILE_DIGEST_BYTES).
    const size = 13 * 1024 * 1024;
    writeFileSync(path.join(repo, ".agents/skills/s0/huge.bin"), Buffer.alloc(size, 0));
    expect(Math.ceil(size / 3) * 4).toBeGreaterThan(MAX_ANSWER_BYTES);
    const { cli, url } = await startServe(repo, [], { home: await tempDir() });
    try {
      const answer = await rawRequest(url, {
        headers: MCP_HEADERS,
        body: rpc("resources/read", { uri: "skill://s0/huge.bin" }),
      });
      const error = JSON.parse(answer.body).error;
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/too large to answer/);
      expect(answer.body.length).toBeLessThan(2_000);
    } finally {
      cli.child.kill("SIGTERM");
    }
    await cli.exited;
  });

  it("params of the wrong type are -32602 with a one-line message, on every method that takes them", async () => {
    const { cli, url } = await startServe(writeSkills(await tempDir(), 2), [], { home: await tempDir() });
    try {
      for (const [method, params] of [
        ["skills/list", { cursor: 42 }],
        ["skills/list", { cursor: { $gt: "" } }],
        ["resources/list", { cursor: ["a"] }],
        ["resources/directory/read", { uri: "skill://s0/", cursor: 7 }],
        ["resources/read", { uri: 5 }],
        ["skills/get", { uri: null }],
      ] as const) {
        const answer = await rawRequest(url, { headers: MCP_HEADERS, body: rpc(method, params) });
        const error = JSON.parse(answer.body).error;
        expect({ method, code: error?.code }).toEqual({ method, code: -32602 });
        expect(error.message, method).not.toContain("\n");
        expect(error.message.length, method).toBeLessThan(300);
      }
      // tools/call is checked by the SDK's own Server before any handler of ours: -32602 all the same.
      const call = await rawRequest(url, { headers: MCP_HEADERS, body: rpc("tools/call", { name: 5 }) });
      expect(JSON.parse(call.body).error.code).toBe(-32602);
    } finally {
      cli.child.kill("SIGTERM");
    }
    await cli.exited;
  });

  it("a request cut off by the drain is logged as cut, never as 200", async () => {
    const { cli, url } = await startServe(writeSkills(await tempDir(), 1), [], { home: await tempDir() });
    // Half a body, then silence: in flight when SIGTERM comes, cut when the drain's 5 s run out.
    const pending = rawRequest(url, {
      headers: MCP_HEADERS,
      body: rpc("skills/list"),
      hold: () => new Promise(() => {}),
    }).catch((error: NodeJS.ErrnoException) => error.code);
    await new Promise((r) => setTimeout(r, 300));
    cli.child.kill("SIGTERM");
    expect(await pending).toBe("ECONNRESET");
    expect((await cli.exited).code).toBe(143);
    expect(cli.stderr()).toMatch(/POST \/mcp cut \d/);
    expect(cli.stderr()).not.toMatch(/POST \/mcp 200 /);
  });
});
