/**
 * Hostile clients and hostile skill folders against the skill server (SEP-2640), each run in a fresh
 * process (runIsolated) with the MCP SDK's own client: `../` and percent-encoded traversal URIs, unknown
 * methods, huge cursors and URIs, 10,000 requests at once, a symlink to /etc/passwd and a FIFO in a
 * skill folder, oversized and session-less HTTP requests. Bounds are generous and named in each test.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { expectBounded, runIsolated } from "./isolated.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// The SDK's ESM build, by absolute URL: the isolated script lives in a temp folder.
const sdk = (module: string) =>
  pathToFileURL(
    createRequire(path.join(ROOT, "packages/skills-mcp/package.json"))
      .resolve(`@modelcontextprotocol/sdk/${module}`)
      .replace(`${path.sep}cjs${path.sep}`, `${path.sep}esm${path.sep}`),
  ).href;

const PRELUDE = `
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from ${JSON.stringify(sdk("client/index.js"))};
import { InMemoryTransport } from ${JSON.stringify(sdk("inMemory.js"))};
import { createSkillServer, serveSkillsHttp, SkillsListResultSchema, SkillsGetResultSchema, DirectoryReadResultSchema } from "skillctx/serve";
const base = realpathSync(mkdtempSync(path.join(tmpdir(), "skillctx-adv-serve-")));
function put(file, text) { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, text); return file; }
const skills = path.join(base, ".agents/skills");
put(path.join(skills, "alpha/SKILL.md"), "---\\nname: alpha\\ndescription: Alpha.\\n---\\nRead references/guide.md.\\n");
put(path.join(skills, "alpha/references/guide.md"), "guide\\n");
put(path.join(skills, "beta/SKILL.md"), "---\\nname: beta\\ndescription: Beta.\\n---\\nBeta.\\n");
// Hostile folder content: a symlink to /etc/passwd, a symlink to a folder outside, and a FIFO no one writes to.
symlinkSync("/etc/passwd", path.join(skills, "alpha/leak.txt"));
symlinkSync("/etc", path.join(skills, "alpha/etc"));
execFileSync("mkfifo", [path.join(skills, "alpha/pipe")]);
const leaks = (value) => JSON.stringify(value).includes("root:x:0:0");
const codeOf = (promise) => promise.then(() => "ok", (e) => e?.code ?? String(e));
async function connect(server) {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  const client = new Client({ name: "adv", version: "1" });
  await client.connect(a);
  return client;
}
`;

describe("skill server against hostile clients and folders", () => {
  it("traversal URIs, encoded traversal, a symlink to /etc/passwd and a FIFO: nothing outside the skills is served, nothing hangs (< 30 s, < 512 MB)", async () => {
    const run = await runIsolated<{
      files: string[];
      codes: Record<string, unknown>;
      leaked: boolean;
      diagnostics: string[];
    }>(
      `${PRELUDE}
export default async function run() {
  try {
    const server = await createSkillServer({ cwd: base, context: { sources: { userSkills: false, homeDir: path.join(base, ".no-home") } } });
    const client = await connect(server);
    const list = await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema);
    const files = list.skills.flatMap((s) => (s.resources ?? []).map((r) => r.uri));
    const uris = [
      "skill://alpha/../../../../etc/passwd", "skill://alpha/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "skill://alpha/..%2f..%2f..%2fetc%2fpasswd",
      "skill://alpha/leak.txt", "skill://alpha/etc/passwd", "skill://alpha/pipe", "file:///etc/passwd", "skill:///etc/passwd",
      "skill://alpha/references/../SKILL.md", "skill://alpha//SKILL.md", "skill://ALPHA/SKILL.md", "skill://alpha/SKILL.md%00", "",
    ];
    const codes = {};
    const results = [];
    for (const uri of uris) {
      codes["read " + uri] = await codeOf(client.readResource({ uri }).then((r) => { results.push(r); return r; }));
      codes["dir " + uri] = await codeOf(client.request({ method: "resources/directory/read", params: { uri } }, DirectoryReadResultSchema).then((r) => { results.push(r); return r; }));
      codes["tool " + uri] = await client.callTool({ name: "read_skill_resource", arguments: { name: "alpha", path: uri.replace("skill://alpha/", "") } }).then((r) => { results.push(r); return r.isError === true ? "isError" : "ok"; });
    }
    codes["dir skill://alpha/.."] = await codeOf(client.request({ method: "resources/directory/read", params: { uri: "skill://alpha/.." } }, DirectoryReadResultSchema));
    codes["get passwd"] = await codeOf(client.request({ method: "skills/get", params: { uri: "skill://../etc/passwd/SKILL.md" } }, SkillsGetResultSchema));
    const all = [list, ...results];
    await client.close();
    await server.close();
    return { files, codes, leaked: leaks(all), diagnostics: server.diagnostics.map((d) => d.code + " " + d.message) };
  } finally { rmSync(base, { recursive: true, force: true }); }
}`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(run, { ms: 30_000, mb: 512 }, "traversal");
    expect(value.leaked).toBe(false);
    // Only the regular files inside the folders are served: not the symlinks that leave, not the FIFO.
    expect(value.files).toEqual([
      "skill://alpha/SKILL.md",
      "skill://alpha/references/guide.md",
      "skill://beta/SKILL.md",
    ]);
    for (const [label, code] of Object.entries(value.codes)) {
      if (label.startsWith("tool ")) expect(code, label).toBe("isError");
      else expect(code, label).toBe(-32602);
    }
  });

  it("unknown methods, malformed params, 1 MB cursors and URIs are errors, and the server still answers (< 30 s, < 512 MB)", async () => {
    const run = await runIsolated<{ codes: Record<string, unknown>; after: number }>(
      `${PRELUDE}
export default async function run() {
  try {
    const server = await createSkillServer({ cwd: base, context: { sources: { userSkills: false, homeDir: path.join(base, ".no-home") } }, pageSize: 1 });
    const client = await connect(server);
    const huge = "A".repeat(1024 * 1024);
    const codes = {
      unknownMethod: await codeOf(client.request({ method: "skills/delete", params: {} }, SkillsListResultSchema)),
      unknownTool: await codeOf(client.callTool({ name: "run_script", arguments: {} })),
      hugeCursor: await codeOf(client.request({ method: "skills/list", params: { cursor: huge } }, SkillsListResultSchema)),
      hugeUri: await codeOf(client.request({ method: "skills/get", params: { uri: "skill://" + huge + "/SKILL.md" } }, SkillsGetResultSchema)),
      hugeRead: await codeOf(client.readResource({ uri: "skill://alpha/" + huge })),
      numberUri: await codeOf(client.request({ method: "skills/get", params: { uri: 42 } }, SkillsGetResultSchema)),
      noParams: await codeOf(client.request({ method: "skills/get" }, SkillsGetResultSchema)),
      forgedCursor: await codeOf(client.request({ method: "skills/list", params: { cursor: Buffer.from("1.ffff.999999999").toString("base64url") } }, SkillsListResultSchema)),
      toolHugeName: await client.callTool({ name: "load_skill", arguments: { name: huge } }).then((r) => r.isError === true ? "isError" : "ok"),
    };
    const after = (await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema)).skills.length;
    await client.close();
    await server.close();
    return { codes, after };
  } finally { rmSync(base, { recursive: true, force: true }); }
}`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(run, { ms: 30_000, mb: 512 }, "malformed");
    expect(value.codes).toMatchObject({
      unknownMethod: -32601,
      unknownTool: -32602,
      hugeCursor: -32602,
      hugeUri: -32602,
      hugeRead: -32602,
      forgedCursor: -32602,
      toolHugeName: "isError",
    });
    expect(value.codes["numberUri"]).not.toBe("ok");
    expect(value.codes["noParams"]).not.toBe("ok");
    expect(value.after).toBe(1);
  });

  it("10,000 requests at once from one client all get answers (< 60 s, < 1 GB)", async () => {
    const run = await runIsolated<{ ok: number; failed: number; digests: number }>(
      `${PRELUDE}
export default async function run() {
  try {
    const server = await createSkillServer({ cwd: base, context: { sources: { userSkills: false, homeDir: path.join(base, ".no-home") } } });
    const client = await connect(server);
    const calls = [];
    for (let i = 0; i < 10000; i++) {
      const kind = i % 4;
      calls.push(
        kind === 0 ? client.request({ method: "skills/list", params: {} }, SkillsListResultSchema)
        : kind === 1 ? client.request({ method: "skills/get", params: { uri: "skill://beta/SKILL.md" } }, SkillsGetResultSchema)
        : kind === 2 ? client.readResource({ uri: "skill://alpha/references/guide.md" })
        : client.readResource({ uri: "skill://alpha/../" + i }).catch((e) => ({ refused: e.code })),
      );
    }
    const settled = await Promise.allSettled(calls);
    const ok = settled.filter((s) => s.status === "fulfilled").length;
    const digests = new Set(settled.filter((s, i) => s.status === "fulfilled" && i % 4 === 1).map((s) => s.value.skill.resources[0].digest)).size;
    await client.close();
    await server.close();
    return { ok, failed: settled.length - ok, digests };
  } finally { rmSync(base, { recursive: true, force: true }); }
}`,
      { timeoutMs: 90_000 },
    );
    const value = expectBounded(run, { ms: 60_000, mb: 1024 }, "10,000 requests");
    expect(value).toEqual({ ok: 10_000, failed: 0, digests: 1 });
  });

  it("HTTP with sessions: a 2 MB body, no session, a made-up session, another path, a foreign Origin are refused; a good client still works (< 30 s, < 512 MB)", async () => {
    const run = await runIsolated<{ statuses: Record<string, number>; listed: number }>(
      `${PRELUDE}
import { StreamableHTTPClientTransport } from ${JSON.stringify(sdk("client/streamableHttp.js"))};
export default async function run() {
  const server = await createSkillServer({ cwd: base, context: { sources: { userSkills: false, homeDir: path.join(base, ".no-home") } } });
  const http = await serveSkillsHttp(server, { port: 0, sessions: true });
  try {
    const post = (body, headers = {}) => fetch(http.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body }).then((r) => r.status);
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
    const statuses = {
      bigBody: await post("x".repeat(2 * 1024 * 1024)),
      noSession: await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: {} })),
      madeUpSession: await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "skills/list", params: {} }), { "mcp-session-id": "not-a-session" }),
      notJson: await post("{"),
      otherPath: await fetch(http.url.replace("/mcp", "/etc/passwd")).then((r) => r.status),
      foreignOrigin: await post(init, { origin: "https://evil.example" }),
      getWithoutSession: await fetch(http.url).then((r) => r.status),
    };
    const client = new Client({ name: "adv", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const listed = (await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema)).skills.length;
    await client.close();
    return { statuses, listed };
  } finally {
    await http.close();
    await server.close();
    rmSync(base, { recursive: true, force: true });
  }
}`,
      { timeoutMs: 60_000 },
    );
    const value = expectBounded(run, { ms: 30_000, mb: 512 }, "http");
    expect(value.statuses).toEqual({
      bigBody: 413,
      noSession: 400,
      madeUpSession: 404,
      notJson: 400,
      otherPath: 404,
      foreignOrigin: 403,
      getWithoutSession: 400,
    });
    expect(value.listed).toBe(2);
  });
});
