// `skillctx serve --http` for a fleet, end to end on the BUILT CLI in a child process, through real HTTP
// clients (node:http, which can set any Host header, and the MCP SDK's Streamable HTTP client):
// bearer tokens (401 with the challenge the MCP authorization spec asks for, rotation, env and file),
// the health endpoint, DNS rebinding on other loopback names, stateless requests, live updates of a
// watched folder, and the SIGTERM drain.
// MCP authorization (2025-06-18): https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification/2025-06-18/basic/authorization.mdx
// RFC 9728 section 5.1 (WWW-Authenticate resource_metadata), RFC 6750 section 3 (Bearer challenge, invalid_token).
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SkillsGetResultSchema, SkillsListResultSchema } from "skillctx/serve";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt } from "./helpers/cli.js";
import { MCP_HEADERS, rawRequest, rpc, startServe, writeSkills } from "./helpers/serve-http.js";

const tempDir = useTempDirs("skills-serve-http");
beforeAll(assertBuilt);

const INIT = rpc("initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "t", version: "1" },
});

async function sdkClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "test", version: "1.0.0" });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

describe("skillctx serve --http for a fleet (built CLI)", () => {
  it("tokens from a file (two, for rotation) and an environment variable; 401 names the resource metadata; /healthz needs none; the log has no token", async () => {
    const home = await tempDir();
    const repo = writeSkills(await tempDir(), 2);
    const tokenFile = path.join(home, "tokens");
    writeFileSync(tokenFile, "# rotated on 2026-11-27\nold-token-AAAA\n\nnew-token-BBBB\n");
    const { cli, url } = await startServe(
      repo,
      [
        "--token-file",
        tokenFile,
        "--token-env",
        "SKILLS_TOKENS",
        "--public-url",
        "https://skills.example.com/mcp",
        "--authorization-server",
        "https://auth.example.com",
      ],
      { home, env: { SKILLS_TOKENS: "env-token-CCCC" } },
    );
    try {
      const none = await rawRequest(url, { headers: MCP_HEADERS, body: INIT });
      expect(none.status).toBe(401);
      expect(none.headers["www-authenticate"]).toBe(
        'Bearer realm="skillctx", resource_metadata="https://skills.example.com/.well-known/oauth-protected-resource/mcp"',
      );
      const wrong = await rawRequest(url, { headers: { ...MCP_HEADERS, authorization: "Bearer nope" }, body: INIT });
      expect(wrong.status).toBe(401);
      expect(wrong.headers["www-authenticate"]).toMatch(/error="invalid_token"$/);
      // Tokens never travel in the query string (the spec forbids it): one there is no token at all.
      const query = await rawRequest(url, {
        path: "/mcp?access_token=new-token-BBBB",
        headers: MCP_HEADERS,
        body: INIT,
      });
      expect(query.status).toBe(401);

      const metadata = await rawRequest(url, { method: "GET", path: "/.well-known/oauth-protected-resource/mcp" });
      expect(metadata.status).toBe(200);
      expect(JSON.parse(metadata.body)).toEqual({
        resource: "https://skills.example.com/mcp",
        authorization_servers: ["https://auth.example.com"],
        bearer_methods_supported: ["header"],
      });
      const health = await rawRequest(url, { method: "GET", path: "/healthz" });
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body)).toMatchObject({ status: "ok", skills: 2 });

      for (const token of ["old-token-AAAA", "new-token-BBBB", "env-token-CCCC"]) {
        const client = await sdkClient(url, token);
        const listed = await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema);
        expect(listed.skills.map((s) => s.uri)).toEqual(["skill://s0/SKILL.md", "skill://s1/SKILL.md"]);
        await client.close();
      }
      // The SDK client without a token is refused.
      await expect(sdkClient(url)).rejects.toMatchObject({ code: 401 });
    } finally {
      cli.child.kill("SIGTERM");
    }
    await cli.exited;
    const log = cli.stderr();
    expect(log).toMatch(/skillctx serve: POST \/mcp 401 \d+\.\dms/);
    expect(log).toMatch(/skillctx serve: POST \/mcp 200 \d+\.\dms/);
    expect(log).toMatch(/skillctx serve: GET \/healthz 200 /);
    for (const secret of ["old-token-AAAA", "new-token-BBBB", "env-token-CCCC", "access_token", "Body."])
      expect(log).not.toContain(secret);
  });

  it.each(["127.0.0.2", "::ffff:127.0.0.1"])(
    "--host %s: a foreign Host or Origin is refused (DNS rebinding), the bound address, localhost and loopback origins are served",
    async (host) => {
      const home = await tempDir();
      const repo = writeSkills(await tempDir(), 1);
      const { cli, url } = await startServe(repo, ["--host", host], { home });
      try {
        const port = new URL(url).port;
        const status = async (headers: Record<string, string>) =>
          (await rawRequest(url, { headers: { ...MCP_HEADERS, ...headers }, body: INIT })).status;
        expect(await status({})).toBe(200);
        expect(await status({ host: `localhost:${port}` })).toBe(200);
        expect(await status({ origin: `http://localhost:${port}` })).toBe(200);
        for (const foreign of [
          "evil.example",
          `evil.example:${port}`,
          `${host.replace(/:/g, "-")}.evil.example`,
          "127.0.0.1.nip.io",
        ])
          expect(await status({ host: foreign }), foreign).toBe(403);
        for (const origin of [
          "http://evil.example",
          `http://evil.example:${port}`,
          "null",
          "file://",
          "http://127.0.0.1.evil.example",
        ])
          expect(await status({ origin }), origin).toBe(403);
        // The SDK's client reaches it by the printed URL.
        const client = await sdkClient(url);
        expect(
          (await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema)).skills,
        ).toHaveLength(1);
        await client.close();
      } finally {
        cli.child.kill("SIGTERM");
      }
      expect((await cli.exited).code).toBe(143);
    },
  );

  it("stateless: no initialize and no session needed, GET is 405; a change on disk reaches skills/list and skills/get with its new digest", async () => {
    const home = await tempDir();
    const repo = writeSkills(await tempDir(), 2);
    const { cli, url } = await startServe(repo, [], { home });
    try {
      const direct = await rawRequest(url, {
        headers: MCP_HEADERS,
        body: rpc("skills/get", { uri: "skill://s0/SKILL.md" }),
      });
      expect(direct.status).toBe(200);
      expect(direct.headers["mcp-session-id"]).toBeUndefined();
      expect((await rawRequest(url, { method: "GET", headers: { accept: "text/event-stream" } })).status).toBe(405);

      const client = await sdkClient(url);
      const changed = "---\nname: s0\ndescription: Skill 0, changed.\n---\nNew body.\n";
      writeFileSync(path.join(repo, ".agents/skills/s0/SKILL.md"), changed);
      const expected = `sha256:${createHash("sha256").update(changed).digest("hex")}`;
      let digest: string | undefined;
      for (let i = 0; i < 200 && digest !== expected; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const got = await client.request(
          { method: "skills/get", params: { uri: "skill://s0/SKILL.md" } },
          SkillsGetResultSchema,
        );
        digest = got.skill.resources?.[0]?.digest;
      }
      expect(digest).toBe(expected);
      const listed = await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema);
      expect(listed.skills.find((s) => s.uri === "skill://s0/SKILL.md")?.frontmatter["description"]).toBe(
        "Skill 0, changed.",
      );
      await client.close();
    } finally {
      cli.child.kill("SIGTERM");
    }
    await cli.exited;
  });

  it("SIGTERM drains: a request in flight finishes, one arriving after is refused (503, Connection: close), /healthz says draining, a stuck one is cut at the bound, exit 143", async () => {
    const home = await tempDir();
    const repo = writeSkills(await tempDir(), 1);
    const { cli, url } = await startServe(repo, [], { home });
    const target = new URL(url);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const inFlight = rawRequest(url, { headers: MCP_HEADERS, body: rpc("skills/list"), hold: () => released });
    const stuck = rawRequest(url, {
      headers: MCP_HEADERS,
      body: rpc("skills/list"),
      hold: () => new Promise(() => {}),
    }).catch((error: NodeJS.ErrnoException) => error.code);
    // A connection whose request head is only half sent when the signal comes: its request arrives during the drain.
    const late = connect(Number(target.port), target.hostname);
    await new Promise<void>((resolve) => late.once("connect", () => resolve()));
    late.write(`POST /mcp HTTP/1.1\r\nHost: ${target.host}\r\n`);
    const health = connect(Number(target.port), target.hostname);
    await new Promise<void>((resolve) => health.once("connect", () => resolve()));
    // As HAProxy's `option httpchk GET /healthz` asks: HTTP/1.0, no Host.
    health.write("GET /healthz HTTP/1.0\r\n");
    await new Promise((r) => setTimeout(r, 300));
    const killedAt = performance.now();
    cli.child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    let lateAnswer = "";
    late.on("data", (chunk: Buffer) => (lateAnswer += chunk.toString()));
    const lateClosed = new Promise<void>((resolve) => late.once("close", () => resolve()));
    const body = rpc("skills/list");
    late.write(
      `content-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    await lateClosed;
    let healthAnswer = "";
    health.on("data", (chunk: Buffer) => (healthAnswer += chunk.toString()));
    const healthClosed = new Promise<void>((resolve) => health.once("close", () => resolve()));
    health.write("\r\n");
    await healthClosed;
    // The balancer's check sees the drain and takes the replica out.
    expect(healthAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(healthAnswer).toContain('{"status":"draining"}');
    expect(lateAnswer).toMatch(/^HTTP\/1\.1 503 /);
    expect(lateAnswer.toLowerCase()).toContain("connection: close");
    // New connections are not accepted any more.
    await expect(rawRequest(url, { headers: MCP_HEADERS, body })).rejects.toMatchObject({ code: "ECONNREFUSED" });
    release();
    const finished = await inFlight;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).result.skills).toHaveLength(1);
    const exit = await cli.exited;
    expect(exit.code).toBe(143);
    // Bounded by the drain (5 s) and the CLI's grace period (8 s), whichever comes first: well under 8 s.
    expect(performance.now() - killedAt).toBeLessThan(8_000);
    expect(await stuck).toBe("ECONNRESET");
  });
});
