// `skillctx serve` end to end on the BUILT CLI, with the MCP SDK's own client: stdio (the client starts
// the server as its child) and Streamable HTTP on 127.0.0.1, the demo repository's skills listed and
// every file read back to its digest; Host checks; SIGTERM and Ctrl-C close the sessions and exit.
import { createHash } from "node:crypto";
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SKILLS_EXTENSION, SkillsListResultSchema } from "skillctx/serve";
import type { SkillEntry } from "skillctx/serve";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, CLI, DEMO, runCli, startCli } from "./helpers/cli.js";
import type { CliChild } from "./helpers/cli.js";

const tempDir = useTempDirs("skills-serve-cli");
beforeAll(assertBuilt);

const DEMO_SKILLS = [
  "skill://add-endpoint/SKILL.md",
  "skill://db-migrations/SKILL.md",
  "skill://release-notes/SKILL.md",
];

async function listAll(client: Client): Promise<SkillEntry[]> {
  const entries: SkillEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.request(
      { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
      SkillsListResultSchema,
    );
    entries.push(...page.skills);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return entries;
}

// Reads every file of every entry and checks it against its digest; returns how many.
async function verifyAll(client: Client, entries: SkillEntry[]): Promise<number> {
  let n = 0;
  for (const entry of entries) {
    for (const ref of entry.resources ?? []) {
      const item = (await client.readResource({ uri: ref.uri })).contents[0]!;
      const bytes =
        "text" in item && typeof item.text === "string"
          ? Buffer.from(item.text)
          : Buffer.from((item as { blob: string }).blob, "base64");
      expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`, ref.uri).toBe(ref.digest);
      n++;
    }
  }
  return n;
}

async function listening(cli: CliChild): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const match = /listening on (http:\/\/\S+)/.exec(cli.stderr());
    if (match !== null) return match[1]!;
    if (cli.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not start: ${cli.stderr()}`);
}

// A raw request with a chosen Host header (fetch cannot set one).
function statusWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    );
  });
}

describe("skillctx serve (built CLI)", () => {
  it("--stdio: the SDK client starts it, sees the extension, lists the demo repository's skill folders and reads every file to its digest", async () => {
    const home = await tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--cwd", DEMO, "--no-user"],
      env: { PATH: process.env.PATH ?? "", HOME: home },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
      const entries = await listAll(client);
      expect(entries.map((e) => e.uri)).toEqual(DEMO_SKILLS);
      expect(await verifyAll(client, entries)).toBeGreaterThan(DEMO_SKILLS.length);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(["load_skill", "read_skill_resource"]);
    } finally {
      await client.close();
    }
    // What is not served, and why, went to stderr (the single-file skills and AGENTS.md).
    expect(stderr).toMatch(/info SKILL_NOT_SERVED docker is not served: it is a legacy file/);
    expect(stderr).toMatch(/skillctx serve: 3 skills from /);
  });

  it("--http 0: listens on 127.0.0.1, serves the SDK's Streamable HTTP client, refuses a foreign Host, and exits on SIGTERM", async () => {
    const home = await tempDir();
    const cli = startCli(["serve", "--cwd", DEMO, "--no-user", "--http", "0"], { home });
    try {
      const url = await listening(cli);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const clients = await Promise.all(
        [1, 2, 3].map(async () => {
          const client = new Client({ name: "test", version: "1.0.0" });
          await client.connect(new StreamableHTTPClientTransport(new URL(url)));
          return client;
        }),
      );
      for (const client of clients) {
        const entries = await listAll(client);
        expect(entries.map((e) => e.uri)).toEqual(DEMO_SKILLS);
        expect(await verifyAll(client, entries)).toBeGreaterThan(3);
      }
      await Promise.all(clients.map((c) => c.close()));
      expect(await statusWithHost(url, "evil.example")).toBe(403);
      expect(await statusWithHost(url, new URL(url).host)).toBe(200);
    } finally {
      cli.child.kill("SIGTERM");
    }
    const exit = await cli.exited;
    expect(exit.code).toBe(143);
  });

  it("Ctrl-C (SIGINT) closes an HTTP server with an open session and exits 130", async () => {
    const home = await tempDir();
    const cli = startCli(["serve", "--cwd", DEMO, "--no-user", "--http", "0"], { home });
    const url = await listening(cli);
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await client.listTools();
    cli.child.kill("SIGINT");
    const exit = await cli.exited;
    expect(exit.code).toBe(130);
    await client.close().catch(() => {});
  });

  it("usage errors exit 2: --stdio with --http, a bad port, --host or a token flag without --http, an unset token variable, a missing token file", async () => {
    const home = await tempDir();
    for (const [args, message] of [
      [["--stdio", "--http", "0"], /--stdio and --http exclude each other/],
      [["--http", "99999"], /--http must be a port number/],
      [["--http", "-1"], /--http/],
      [["--host", "0.0.0.0"], /--host needs --http PORT/],
      [["--token-file", "tokens"], /--token-file needs --http PORT/],
      [
        ["--http", "0", "--token-env", "SKILLCTX_TEST_UNSET_VARIABLE"],
        /--token-env SKILLCTX_TEST_UNSET_VARIABLE: the variable is not set/,
      ],
      [["--http", "0", "--token-file", "/nonexistent/tokens"], /--token-file \/nonexistent\/tokens: NOT_FOUND/],
      [
        ["--http", "0", "--authorization-server", "https://auth.example.com"],
        /--authorization-server needs --public-url/,
      ],
      [["--http", "0", "--ttl-ms", "soon"], /--ttl-ms must be a whole number/],
    ] as const) {
      const run = await runCli(["serve", "--cwd", DEMO, ...args], { home });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    const help = await runCli(["serve", "--help"], { home });
    expect(help.stdout).toContain("usage: skillctx serve [--cwd DIR]");
    expect((await runCli(["--help"], { home })).stdout).toMatch(/\n {2}serve +serve the skills/);
  });
});
