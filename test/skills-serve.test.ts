// The skill server (SEP-2640) against the MCP SDK's own Client over an in-memory transport: the
// extension capability, skills/list with pagination and ttlMs, skills/get, every resource read back and
// checked against its sha256 digest, resources/directory/read, resources/list, and the plain tools for
// clients without the extension. Real skill folders on disk, loaded as `skillctx list` loads them.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  createSkillServer,
  DirectoryReadResultSchema,
  SKILLS_EXTENSION,
  SkillsGetResultSchema,
  SkillsListResultSchema,
} from "skillctx/serve";
import type { SkillEntry, SkillServer, SkillServerOptions } from "skillctx/serve";
import { afterEach, describe, expect, it } from "vitest";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";

const tempDir = useTempDirs("skills-serve");
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe]);

/** A project with three SKILL.md folders, a single-file skill and guidance. */
async function project(): Promise<string> {
  const dir = await tempDir({
    "AGENTS.md": "# Guidance\nUse tabs.\n",
    ".agents/skills/alpha/SKILL.md": [
      "---",
      "name: alpha",
      "description: Does alpha things.",
      "license: Apache-2.0",
      "priority: 3",
      "enabled: true",
      "metadata:",
      '  version: "2.1"',
      "  build: 7",
      "---",
      "Run !`touch pwned-by-serve` first. Then read references/guide.md.",
      "",
    ].join("\n"),
    ".agents/skills/alpha/references/guide.md": "# Guide\nline 2\nline 3\n",
    ".agents/skills/alpha/scripts/run.py": "import os\nos.system('touch pwned-by-script')\n",
    ".agents/skills/alpha/templates/invoice.md": "Invoice\n",
    ".agents/skills/alpha/templates/regional/eu.md": "EU invoice\n",
    ".agents/skills/beta/SKILL.md": "---\nname: beta\ndescription: Does beta things.\n---\nBeta body.\n",
    ".agents/skills/gamma/SKILL.md": "---\nname: gamma\ndescription: Does gamma things.\n---\nGamma body.\n",
    ".openhands/microagents/docker.md":
      "---\nname: docker\ndescription: Docker notes.\ntriggers: [docker]\n---\nUse compose.\n",
  });
  await mkdir(path.join(dir, ".agents/skills/alpha/assets"));
  await writeFile(path.join(dir, ".agents/skills/alpha/assets/logo.png"), PNG);
  return dir;
}

async function serve(options: SkillServerOptions): Promise<{ skills: SkillServer; client: Client }> {
  const skills = await createSkillServer(options);
  open.push(skills);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await skills.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  open.push(client);
  return { skills, client };
}

async function listAll(client: Client): Promise<{ entries: SkillEntry[]; pages: number; ttl: number[] }> {
  const entries: SkillEntry[] = [];
  const ttl: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.request(
      { method: "skills/list", params: cursor === undefined ? {} : { cursor } },
      SkillsListResultSchema,
    );
    pages++;
    entries.push(...page.skills);
    if (page.ttlMs !== undefined) ttl.push(page.ttlMs);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages < 100);
  return { entries, pages, ttl };
}

const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

async function readBytes(
  client: Client,
  uri: string,
): Promise<{ bytes: Buffer; mimeType: string | undefined; text: boolean }> {
  const read = await client.readResource({ uri });
  expect(read.contents).toHaveLength(1);
  const item = read.contents[0]!;
  expect(item.uri).toBe(uri);
  if ("text" in item && typeof item.text === "string")
    return { bytes: Buffer.from(item.text, "utf8"), mimeType: item.mimeType, text: true };
  return { bytes: Buffer.from((item as { blob: string }).blob, "base64"), mimeType: item.mimeType, text: false };
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe("createSkillServer over the SDK client (in memory)", () => {
  it("declares the skills extension with directoryRead, and lists every SKILL.md folder across pages with ttlMs", async () => {
    const cwd = await project();
    const { client, skills } = await serve({
      cwd,
      context: { sources: { userSkills: false } },
      pageSize: 1,
      ttlMs: 30_000,
    });
    expect(client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION]).toEqual({ directoryRead: true });
    const { entries, pages, ttl } = await listAll(client);
    expect(pages).toBe(3);
    expect(ttl).toEqual([30_000, 30_000, 30_000]);
    expect(entries.map((e) => e.uri)).toEqual([
      "skill://alpha/SKILL.md",
      "skill://beta/SKILL.md",
      "skill://gamma/SKILL.md",
    ]);
    // The frontmatter verbatim, with its YAML types.
    expect(entries[0]!.frontmatter).toEqual({
      name: "alpha",
      description: "Does alpha things.",
      license: "Apache-2.0",
      priority: 3,
      enabled: true,
      metadata: { version: "2.1", build: 7 },
    });
    // What is not served is said, with the reason: the single-file skill and the guidance.
    const notServed = skills.diagnostics.filter((d) => d.code === "SKILL_NOT_SERVED");
    expect(notServed.map((d) => d.message).join("\n")).toMatch(
      /docker is not served: it is a legacy file, not a SKILL.md folder/,
    );
    expect(notServed.map((d) => d.message).join("\n")).toMatch(/is not served: it is repository guidance/);
  });

  it("lists every file of a skill with its digest and size, and every resource reads back to exactly that digest", async () => {
    const cwd = await project();
    const { client } = await serve({ cwd, context: { sources: { userSkills: false } } });
    const { entries } = await listAll(client);
    const alpha = entries.find((e) => e.frontmatter["name"] === "alpha")!;
    expect(alpha.resources!.map((r) => r.uri)).toEqual([
      "skill://alpha/SKILL.md",
      "skill://alpha/assets/logo.png",
      "skill://alpha/references/guide.md",
      "skill://alpha/scripts/run.py",
      "skill://alpha/templates/invoice.md",
      "skill://alpha/templates/regional/eu.md",
    ]);
    let read = 0;
    for (const entry of entries) {
      for (const ref of entry.resources!) {
        const { bytes } = await readBytes(client, ref.uri);
        expect(sha256(bytes), ref.uri).toBe(ref.digest);
        expect(bytes.length, ref.uri).toBe(ref.size);
        read++;
      }
    }
    expect(read).toBe(8);
    const png = await readBytes(client, "skill://alpha/assets/logo.png");
    expect(png).toMatchObject({ text: false, mimeType: "image/png" });
    expect(png.bytes.equals(PNG)).toBe(true);
  });

  it("serves SKILL.md as written: its !`cmd` is text, and nothing runs for a client", async () => {
    const cwd = await project();
    const { client } = await serve({ cwd, context: { sources: { userSkills: false } } });
    const { bytes, mimeType } = await readBytes(client, "skill://alpha/SKILL.md");
    expect(mimeType).toBe("text/markdown");
    expect(bytes.toString()).toContain("Run !`touch pwned-by-serve` first.");
    const loaded = await client.callTool({ name: "load_skill", arguments: { name: "alpha" } });
    expect(JSON.stringify(loaded.content)).toContain("touch pwned-by-serve");
    await client.callTool({ name: "read_skill_resource", arguments: { name: "alpha", path: "scripts/run.py" } });
    expect(existsSync(path.join(cwd, "pwned-by-serve"))).toBe(false);
    expect(existsSync(path.join(cwd, "pwned-by-script"))).toBe(false);
    expect(existsSync(path.join(cwd, ".agents/skills/alpha/scripts/pwned-by-script"))).toBe(false);
  });

  it("skills/get answers with the listing's entry, and -32602 for a URI it does not serve", async () => {
    const cwd = await project();
    const { client } = await serve({ cwd, context: { sources: { userSkills: false } } });
    const { entries } = await listAll(client);
    const got = await client.request(
      { method: "skills/get", params: { uri: "skill://beta/SKILL.md" } },
      SkillsGetResultSchema,
    );
    expect(got.skill).toEqual(entries.find((e) => e.uri === "skill://beta/SKILL.md"));
    for (const uri of [
      "skill://nope/SKILL.md",
      "skill://beta",
      "skill://alpha/references/guide.md",
      "skill://docker/SKILL.md",
    ]) {
      expect(
        (await rpcError(client.request({ method: "skills/get", params: { uri } }, SkillsGetResultSchema))).code,
        uri,
      ).toBe(-32602);
    }
  });

  it("resources/directory/read lists the direct children of a skill's folders, and refuses files and unknown folders", async () => {
    const cwd = await project();
    const { client } = await serve({ cwd, context: { sources: { userSkills: false } } });
    const dir = (uri: string) =>
      client.request({ method: "resources/directory/read", params: { uri } }, DirectoryReadResultSchema);
    expect((await dir("skill://alpha")).resources).toEqual([
      { uri: "skill://alpha/SKILL.md", name: "SKILL.md", mimeType: "text/markdown" },
      { uri: "skill://alpha/assets", name: "assets", mimeType: "inode/directory" },
      { uri: "skill://alpha/references", name: "references", mimeType: "inode/directory" },
      { uri: "skill://alpha/scripts", name: "scripts", mimeType: "inode/directory" },
      { uri: "skill://alpha/templates", name: "templates", mimeType: "inode/directory" },
    ]);
    expect((await dir("skill://alpha/templates")).resources).toEqual([
      { uri: "skill://alpha/templates/invoice.md", name: "invoice.md", mimeType: "text/markdown" },
      { uri: "skill://alpha/templates/regional", name: "regional", mimeType: "inode/directory" },
    ]);
    expect((await dir("skill://alpha/templates/regional")).resources.map((r) => r.name)).toEqual(["eu.md"]);
    for (const uri of ["skill://alpha/SKILL.md", "skill://alpha/nope", "skill://alpha/", "file:///etc"]) {
      expect((await rpcError(dir(uri))).code, uri).toBe(-32602);
    }
  });

  it("resources/list names each skill's SKILL.md with its name and description; templates/list gives skill://{+path}", async () => {
    const cwd = await project();
    const { client } = await serve({ cwd, context: { sources: { userSkills: false } }, resourcePageSize: 2 });
    const first = await client.listResources();
    expect(first.resources.map((r) => [r.uri, r.name, r.description, r.mimeType])).toEqual([
      ["skill://alpha/SKILL.md", "alpha", "Does alpha things.", "text/markdown"],
      ["skill://beta/SKILL.md", "beta", "Does beta things.", "text/markdown"],
    ]);
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.resources.map((r) => r.name)).toEqual(["gamma"]);
    expect(second.nextCursor).toBeUndefined();
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "skill://{+path}",
    ]);
    expect((await rpcError(client.readResource({ uri: "skill://alpha/nope.md" }))).code).toBe(-32602);
  });

  it("load_skill and read_skill_resource serve clients without the extension, with readable errors", async () => {
    const cwd = await project();
    const { client } = await serve({ cwd, context: { sources: { userSkills: false } } });
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(["load_skill", "read_skill_resource"]);
    expect(tools.tools[0]!.description).toContain("- alpha: Does alpha things.");
    const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
      (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("");

    const loaded = await client.callTool({ name: "load_skill", arguments: { name: "alpha" } });
    expect(loaded.isError).toBeFalsy();
    expect(text(loaded)).toContain("skill://alpha/SKILL.md");
    expect(text(loaded)).toContain("references/guide.md");
    expect(text(loaded)).toContain("name: alpha");

    const guide = await client.callTool({
      name: "read_skill_resource",
      arguments: { name: "alpha", path: "references/guide.md", startLine: 2, endLine: 3 },
    });
    expect(text(guide)).toBe("line 2\nline 3");
    const folder = await client.callTool({
      name: "read_skill_resource",
      arguments: { name: "alpha", path: "templates" },
    });
    expect(text(folder)).toContain("templates/regional/eu.md");
    const blob = await client.callTool({
      name: "read_skill_resource",
      arguments: { name: "alpha", path: "assets/logo.png" },
    });
    expect(blob.content).toEqual([
      {
        type: "resource",
        resource: { uri: "skill://alpha/assets/logo.png", mimeType: "image/png", blob: PNG.toString("base64") },
      },
    ]);

    for (const [args, message] of [
      [{ name: "nope" }, /No skill named "nope"\. Skills: alpha, beta, gamma/],
      [{ name: 42 }, /name must be a non-empty string/],
    ] as const) {
      const result = await client.callTool({ name: "load_skill", arguments: args });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(message);
    }
    const traversal = await client.callTool({
      name: "read_skill_resource",
      arguments: { name: "alpha", path: "../beta/SKILL.md" },
    });
    expect(traversal.isError).toBe(true);
    expect(text(traversal)).toMatch(/No file "..\/beta\/SKILL.md" in the skill "alpha"/);
  });

  it("serves a host's own skills (skills option), qualifies a second skill of the same name, and nests a skill inside its parent's path", async () => {
    const root = await tempDir({
      "a/dup/SKILL.md": "---\nname: dup\ndescription: First.\n---\nA\n",
      "b/dup/SKILL.md": "---\nname: dup\ndescription: Second.\n---\nB\n",
      "a/outer/SKILL.md": "---\nname: outer\ndescription: Outer.\n---\nO\n",
      "a/outer/parts/inner/SKILL.md": "---\nname: inner\ndescription: Inner.\n---\nI\n",
    });
    const fileSkill = (dir: string, name: string, scope: "project" | "user") => ({
      name,
      description: "x",
      content: "",
      dir: path.join(root, dir),
      source: { kind: "file" as const, path: path.join(root, dir, "SKILL.md"), format: "skill-md" as const, scope },
      trigger: { type: "on-demand" as const },
      metadata: {},
    });
    const { client, skills } = await serve({
      skills: [
        fileSkill("a/dup", "dup", "project"),
        fileSkill("b/dup", "dup", "user"),
        fileSkill("a/outer", "outer", "project"),
        fileSkill("a/outer/parts/inner", "inner", "project"),
      ],
    });
    const { entries } = await listAll(client);
    expect(entries.map((e) => e.uri)).toEqual([
      "skill://dup/SKILL.md",
      "skill://outer/SKILL.md",
      "skill://outer/parts/inner/SKILL.md",
      "skill://user/dup/SKILL.md",
    ]);
    // The enclosing skill lists the nested skill's files too, under the same URIs (SEP-2640 nested skills).
    expect(entries[1]!.resources!.map((r) => r.uri)).toEqual([
      "skill://outer/SKILL.md",
      "skill://outer/parts/inner/SKILL.md",
    ]);
    expect(skills.diagnostics.map((d) => d.code)).toContain("SKILL_PATH_QUALIFIED");
    // The tools name clashing skills by path.
    const dup = await client.callTool({ name: "load_skill", arguments: { name: "dup" } });
    expect(dup.isError).toBe(true);
    expect(JSON.stringify(dup.content)).toContain("dup, user/dup");
    const second = await client.callTool({ name: "load_skill", arguments: { name: "user/dup" } });
    expect(JSON.stringify(second.content)).toContain("Second.");
  });

  it("refuses cursors it did not make and cursors of another listing", async () => {
    const cwd = await project();
    const { client } = await serve({
      cwd,
      context: { sources: { userSkills: false } },
      pageSize: 1,
      resourcePageSize: 1,
    });
    const page = await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema);
    expect(page.nextCursor).toBeDefined();
    // A skills/list cursor is not a resources/list cursor.
    expect((await rpcError(client.listResources({ cursor: page.nextCursor! }))).code).toBe(-32602);
    for (const cursor of ["", "x", "A".repeat(10_000), Buffer.from("skills.zz.1").toString("base64url")]) {
      expect(
        (await rpcError(client.request({ method: "skills/list", params: { cursor } }, SkillsListResultSchema))).code,
      ).toBe(-32602);
    }
  });

  it("refresh() picks up a changed file: new digests from skills/get, old cursors still finish their listing", async () => {
    const cwd = await project();
    const { client, skills } = await serve({ cwd, context: { sources: { userSkills: false } }, pageSize: 2 });
    const before = await client.request({ method: "skills/list", params: {} }, SkillsListResultSchema);
    await put(
      cwd,
      ".agents/skills/beta/SKILL.md",
      "---\nname: beta\ndescription: Does beta things, changed.\n---\nNew beta body.\n",
    );
    await skills.refresh();
    const rest = await client.request(
      { method: "skills/list", params: { cursor: before.nextCursor! } },
      SkillsListResultSchema,
    );
    expect(rest.skills.map((s) => s.uri)).toEqual(["skill://gamma/SKILL.md"]);
    const got = await client.request(
      { method: "skills/get", params: { uri: "skill://beta/SKILL.md" } },
      SkillsGetResultSchema,
    );
    expect(got.skill.frontmatter["description"]).toBe("Does beta things, changed.");
    const { bytes } = await readBytes(client, "skill://beta/SKILL.md");
    expect(sha256(bytes)).toBe(got.skill.resources![0]!.digest);
    expect(got.skill.resources![0]!.digest).not.toBe(before.skills[1]!.resources![0]!.digest);
  });

  it("with watch, learns of a change from the engine's skills.stale event: no step runs while idle, none before the reload", async () => {
    const cwd = await project();
    const seen: string[] = [];
    const { client } = await serve({
      cwd,
      context: {
        sources: { userSkills: false },
        telemetry: {
          onEvent: (event) => {
            if (event.type === "step" || event.type === "skills.stale" || event.type === "skills.changed")
              seen.push(event.type);
          },
        },
      },
      watch: { debounceMs: 20 },
    });
    // Idle: a polling server would build a step every few hundred ms.
    seen.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(seen).toEqual([]);
    await put(
      cwd,
      ".agents/skills/beta/SKILL.md",
      "---\nname: beta\ndescription: Does beta things, watched.\n---\nNew beta body.\n",
    );
    const deadline = Date.now() + 10_000;
    let description: unknown;
    while (Date.now() < deadline) {
      const got = await client.request(
        { method: "skills/get", params: { uri: "skill://beta/SKILL.md" } },
        SkillsGetResultSchema,
      );
      description = got.skill.frontmatter["description"];
      if (description === "Does beta things, watched.") break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(description).toBe("Does beta things, watched.");
    // The stale event started the reload; the one step is the rebuild of the snapshot after it.
    expect(seen.slice(0, 2)).toEqual(["skills.stale", "skills.changed"]);
    expect(seen.filter((type) => type === "step").length).toBeLessThanOrEqual(1);
  });
});
