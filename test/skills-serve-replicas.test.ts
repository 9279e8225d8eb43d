// Two replicas of the skill server over real HTTP (the library API, two listeners on two SDK servers over
// the same files): a stateless client's requests may land on either, so a `skills/list` cursor made by one
// must be honoured by the other, and a changed file must change the cursor's snapshot on both. Also the
// host-supplied token check (`auth.verify`, the OAuth 2.1 resource-server hook) with its metadata document.
// MCP authorization 2025-06-18 ("Authorization Server Location", "Token Handling"):
// https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification/2025-06-18/basic/authorization.mdx
import { writeFileSync } from "node:fs";
import path from "node:path";
import { createSkillServer, serveSkillsHttp } from "skillctx/serve";
import type { SkillHttpServer, SkillServer } from "skillctx/serve";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { MCP_HEADERS, rawRequest, rpc, writeSkills } from "./helpers/serve-http.js";

const tempDir = useTempDirs("skills-serve-replicas");
const open: Array<SkillServer | SkillHttpServer> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function replica(cwd: string, options: Partial<Parameters<typeof serveSkillsHttp>[1]> = {}) {
  const skills = await createSkillServer({
    cwd,
    context: { sources: { userSkills: false, homeDir: path.join(cwd, ".no-home") } },
    pageSize: 1,
  });
  open.push(skills);
  const http = await serveSkillsHttp(skills, { port: 0, ...options });
  open.push(http);
  return { skills, http };
}

async function call(url: string, method: string, params: Record<string, unknown> = {}, headers = {}) {
  const answer = await rawRequest(url, { headers: { ...MCP_HEADERS, ...headers }, body: rpc(method, params) });
  return { status: answer.status, body: answer.status === 200 ? JSON.parse(answer.body) : answer.body };
}

describe("skill server replicas", () => {
  it("a cursor from one replica pages on the other; after a change on one disk only, that replica's cursor is refused by the other until it has the same files", async () => {
    const a = writeSkills(await tempDir(), 3);
    const b = writeSkills(await tempDir(), 3);
    const [one, two] = [await replica(a), await replica(b)];
    expect(one.skills.index.generation).toBe(two.skills.index.generation);

    const first = await call(one.http.url, "skills/list");
    expect(first.body.result.skills.map((s: { uri: string }) => s.uri)).toEqual(["skill://s0/SKILL.md"]);
    const second = await call(two.http.url, "skills/list", { cursor: first.body.result.nextCursor });
    expect(second.body.result.skills.map((s: { uri: string }) => s.uri)).toEqual(["skill://s1/SKILL.md"]);
    const third = await call(one.http.url, "skills/list", { cursor: second.body.result.nextCursor });
    expect(third.body.result.skills.map((s: { uri: string }) => s.uri)).toEqual(["skill://s2/SKILL.md"]);
    expect(third.body.result.nextCursor).toBeUndefined();

    // Replica one gets the new files first (a rollout): its new cursors are not the other's.
    writeFileSync(path.join(a, ".agents/skills/s0/SKILL.md"), "---\nname: s0\ndescription: Changed.\n---\nNew.\n");
    await one.skills.refresh();
    expect(one.skills.index.generation).not.toBe(two.skills.index.generation);
    const fresh = await call(one.http.url, "skills/list");
    const refused = await call(two.http.url, "skills/list", { cursor: fresh.body.result.nextCursor });
    expect(refused.body.error.code).toBe(-32602);
    writeFileSync(path.join(b, ".agents/skills/s0/SKILL.md"), "---\nname: s0\ndescription: Changed.\n---\nNew.\n");
    await two.skills.refresh();
    expect(two.skills.index.generation).toBe(one.skills.index.generation);
    const accepted = await call(two.http.url, "skills/list", { cursor: fresh.body.result.nextCursor });
    expect(accepted.body.result.skills.map((s: { uri: string }) => s.uri)).toEqual(["skill://s1/SKILL.md"]);
  });

  it("auth.verify admits what the host's check admits (static tokens first), and the protected resource metadata is published and named in the 401", async () => {
    const seen: string[] = [];
    const { http } = await replica(writeSkills(await tempDir(), 1), {
      auth: {
        tokens: ["static-token"],
        verify: (token) => {
          seen.push(token);
          return token.startsWith("jwt.");
        },
        resourceMetadata: {
          resource: "https://skills.example.com/team/mcp",
          authorizationServers: ["https://auth.example.com"],
          scopesSupported: ["skills:read"],
        },
      },
    });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await call(http.url, "skills/list", {}, bearer("static-token"))).status).toBe(200);
    expect((await call(http.url, "skills/list", {}, bearer("jwt.payload.sig"))).status).toBe(200);
    const refused = await rawRequest(http.url, {
      headers: { ...MCP_HEADERS, ...bearer("other") },
      body: rpc("skills/list"),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe(
      'Bearer realm="skillctx", resource_metadata="https://skills.example.com/.well-known/oauth-protected-resource/team/mcp", error="invalid_token"',
    );
    // The static token matched first: the host's check saw only the others.
    expect(seen).toEqual(["jwt.payload.sig", "other"]);
    const metadata = await rawRequest(http.url, {
      method: "GET",
      path: "/.well-known/oauth-protected-resource/team/mcp",
    });
    expect(JSON.parse(metadata.body)).toEqual({
      resource: "https://skills.example.com/team/mcp",
      authorization_servers: ["https://auth.example.com"],
      bearer_methods_supported: ["header"],
      scopes_supported: ["skills:read"],
    });
  });

  it("allowedHosts: the given names pass beside the bound address, other names are refused; a bad name is refused at start", async () => {
    const { http } = await replica(writeSkills(await tempDir(), 1), { allowedHosts: ["skills.example.com"] });
    const status = async (host: string) =>
      (await rawRequest(http.url, { headers: { ...MCP_HEADERS, host }, body: rpc("skills/list") })).status;
    expect(await status("skills.example.com")).toBe(200);
    expect(await status("SKILLS.example.com:443")).toBe(200);
    expect(await status("other.example.com")).toBe(403);
    const skills = await createSkillServer({ skills: [] });
    open.push(skills);
    await expect(serveSkillsHttp(skills, { port: 0, allowedHosts: ["bad host/"] })).rejects.toThrow(/not a host name/);
  });
});
