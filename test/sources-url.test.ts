// Well-known URL skill sources (Agent Skills Discovery RFC v0.2.0) against a node:http server on 127.0.0.1.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { indexUrlOf, resolveUrlSource } from "../packages/sources/src/url-source.js";
import { useEngineFixture } from "./helpers/engine-fixture.js";
import { skillMd } from "./helpers/git-remote.js";
import { archive, indexOf, SCHEMA, sha256, skillSite } from "./helpers/skill-site.js";
import type { SkillSite } from "./helpers/skill-site.js";
import { itWithTool } from "./helpers/tools-present.js";

const tempDir = useTempDirs("url-source");
const engine = useEngineFixture();
const sites: SkillSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

const INDEX = "/.well-known/agent-skills/index.json";

async function site(routes: Parameters<typeof skillSite>[0]) {
  const made = await skillSite(routes);
  sites.push(made);
  return made;
}

describe("resolveUrlSource", () => {
  itWithTool("python3")(
    "fetches skill-md and archive skills (.tar.gz and .zip), verifies digests and caches verified copies",
    async () => {
      const md = skillMd("greeter");
      const tgz = archive("tar.gz", {
        "SKILL.md": skillMd("packer"),
        "scripts/run.sh": "echo hi\n",
        "references/REF.md": "ref",
      });
      const zip = archive("zip", { "SKILL.md": skillMd("zipper"), "docs/a.md": "a", "scripts/go.sh": "echo go\n" });
      const s = await site({
        [INDEX]: {
          body: indexOf([
            { name: "greeter", url: "/.well-known/agent-skills/greeter/SKILL.md", bytes: md },
            { name: "packer", type: "archive", url: "packer.tar.gz", bytes: tgz },
            { name: "zipper", type: "archive", url: "/files/zipper.zip", bytes: zip },
          ]),
        },
        "/.well-known/agent-skills/greeter/SKILL.md": { body: md },
        "/.well-known/agent-skills/packer.tar.gz": { body: tgz, headers: { "content-type": "application/gzip" } },
        "/files/zipper.zip": { body: zip },
      });
      const cacheDir = path.join(await tempDir(), "cache");
      const result = await resolveUrlSource({ url: s.base }, { cacheDir });
      expect(result.diagnostics).toEqual([]);
      expect(result.key).toBe(`url:${s.base}${INDEX}`);
      expect(result.origin).toBe(new URL(s.base).host);
      expect(result.resolved.revision).toMatch(/^sha256:/);
      expect(result.ttlMs).toBe(300_000);
      expect(result.skills.map((k) => k.name)).toEqual(["greeter", "packer", "zipper"]);
      const packer = result.skills[1]!;
      expect(readFileSync(path.join(packer.dir, "scripts/run.sh"), "utf8")).toBe("echo hi\n");
      expect(path.basename(packer.dir)).toBe("packer");
      expect(packer.dir.startsWith(path.join(cacheDir, "url"))).toBe(true);
      expect(readFileSync(path.join(result.skills[2]!.dir, "docs/a.md"), "utf8")).toBe("a");
      // The executable bit of an archive entry is kept (0755 less the umask), nothing else (0644).
      expect(statSync(path.join(packer.dir, "scripts/run.sh")).mode & 0o100).toBe(0o100);
      expect(statSync(path.join(result.skills[2]!.dir, "scripts/go.sh")).mode & 0o100).toBe(0o100);
      expect(statSync(path.join(packer.dir, "SKILL.md")).mode & 0o111).toBe(0);
      expect(statSync(path.join(result.skills[2]!.dir, "docs/a.md")).mode & 0o111).toBe(0);

      // Cached by artifact digest: a second resolve fetches the index only.
      const before = s.requests.length;
      const again = await resolveUrlSource({ url: s.base }, { cacheDir });
      expect(again.skills.map((k) => k.digest)).toEqual(result.skills.map((k) => k.digest));
      expect(s.requests.slice(before)).toEqual([INDEX]);
    },
  );

  it("refuses a skill whose bytes do not match the index digest; the others load", async () => {
    const good = skillMd("good");
    const s = await site({
      [INDEX]: {
        body: indexOf([
          { name: "good", url: "good.md", bytes: good },
          { name: "bad", url: "bad.md", bytes: skillMd("bad") },
        ]),
      },
      "/.well-known/agent-skills/good.md": { body: good },
      "/.well-known/agent-skills/bad.md": { body: skillMd("bad", "Tampered.") },
    });
    const result = await resolveUrlSource({ url: s.base }, { cacheDir: await tempDir() });
    expect(result.skills.map((k) => k.name)).toEqual(["good"]);
    expect(result.diagnostics).toEqual([expect.objectContaining({ code: "DIGEST_MISMATCH", severity: "error" })]);
  });

  it("refuses an index without the v0.2.0 $schema (v0.1.0 has no digests) or with an unknown one", async () => {
    const s = await site({
      [INDEX]: { body: JSON.stringify({ skills: [{ name: "a", description: "d", files: ["SKILL.md"] }] }) },
    });
    const old = await resolveUrlSource({ url: s.base }, { cacheDir: await tempDir() });
    expect(old.skills).toEqual([]);
    expect(old.diagnostics[0]).toMatchObject({ code: "URL_INDEX_UNSUPPORTED", severity: "error" });
    s.routes.set(INDEX, { body: JSON.stringify({ $schema: "https://example.com/9.9", skills: [] }) });
    const unknown = await resolveUrlSource({ url: s.base }, { cacheDir: await tempDir() });
    expect(unknown.diagnostics[0]?.message).toContain("unknown $schema");
  });

  it("skips entries with bad names, unknown types or malformed digests, with a warning each", async () => {
    const md = skillMd("ok");
    const s = await site({
      [INDEX]: {
        body: JSON.stringify({
          $schema: SCHEMA,
          skills: [
            { name: "ok", type: "skill-md", url: "ok.md", digest: sha256(md) },
            { name: "Bad/Name", type: "skill-md", url: "x.md", digest: sha256("x") },
            { name: "plugin", type: "plugin", url: "p", digest: sha256("p") },
            { name: "short", type: "skill-md", url: "s.md", digest: "sha256:abc" },
            { name: "ok", type: "skill-md", url: "ok2.md", digest: sha256(md) },
          ],
        }),
      },
      "/.well-known/agent-skills/ok.md": { body: md },
    });
    const result = await resolveUrlSource({ url: s.base }, { cacheDir: await tempDir() });
    expect(result.skills.map((k) => k.name)).toEqual(["ok"]);
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ["URL_INDEX_INVALID", "warning"],
      ["URL_INDEX_UNSUPPORTED", "warning"],
      ["URL_INDEX_INVALID", "warning"],
      ["URL_INDEX_INVALID", "warning"],
    ]);
  });

  it("two skills with the same bytes get a cached folder each", async () => {
    const md = "---\nname: twin\ndescription: Same bytes.\n---\n";
    const s = await site({
      [INDEX]: {
        body: indexOf([
          { name: "one", url: "same.md", bytes: md },
          { name: "two", url: "same.md", bytes: md },
        ]),
      },
      "/.well-known/agent-skills/same.md": { body: md },
    });
    const result = await resolveUrlSource({ url: s.base }, { cacheDir: await tempDir() });
    expect(result.diagnostics).toEqual([]);
    expect(result.skills.map((k) => path.basename(k.dir))).toEqual(["one", "two"]);
    for (const skill of result.skills) expect(readFileSync(path.join(skill.dir, "SKILL.md"), "utf8")).toBe(md);
  });

  it("works offline from the cache, and falls back to it when the server is gone", async () => {
    const md = skillMd("cached");
    const s = await site({
      [INDEX]: { body: indexOf([{ name: "cached", url: "c.md", bytes: md }]) },
      "/.well-known/agent-skills/c.md": { body: md },
    });
    const cacheDir = await tempDir();
    const online = await resolveUrlSource({ url: s.base }, { cacheDir });
    const offline = await resolveUrlSource({ url: s.base }, { cacheDir, offline: true });
    expect(offline.skills).toEqual(online.skills);
    expect(offline.resolved.revision).toBe(online.resolved.revision);
    expect(offline.diagnostics.map((d) => d.code)).toEqual(["URL_CACHED"]);
    await s.close();
    const down = await resolveUrlSource({ url: s.base }, { cacheDir });
    expect(down.skills.map((k) => k.name)).toEqual(["cached"]);
    expect(down.diagnostics.map((d) => d.code)).toEqual(["URL_UNREACHABLE", "URL_CACHED"]);
    const nothing = await resolveUrlSource({ url: s.base }, { cacheDir: await tempDir(), offline: true });
    expect(nothing.diagnostics[0]).toMatchObject({ code: "URL_NOT_CACHED", severity: "error" });
  });

  it("follows a redirect of the index and resolves relative artifact URLs against where the index came from", async () => {
    const md = skillMd("moved");
    const s = await site({
      [INDEX]: { status: 302, headers: { location: "/v2/index.json" }, body: "" },
      "/v2/index.json": { body: indexOf([{ name: "moved", url: "moved/SKILL.md", bytes: md }]) },
      "/v2/moved/SKILL.md": { body: md },
    });
    const result = await resolveUrlSource({ url: `${s.base}/` }, { cacheDir: await tempDir() });
    expect(result.diagnostics).toEqual([]);
    expect(result.skills.map((k) => k.name)).toEqual(["moved"]);
  });

  it("takes a base URL with a path, or the index URL itself; refuses other schemes", () => {
    expect(indexUrlOf("https://example.com/team")).toBe("https://example.com/team/.well-known/agent-skills/index.json");
    expect(indexUrlOf("https://example.com/.well-known/agent-skills/index.json")).toBe(
      "https://example.com/.well-known/agent-skills/index.json",
    );
    expect(indexUrlOf("file:///etc")).toBeUndefined();
    expect(indexUrlOf("not a url")).toBeUndefined();
  });
});

describe("URL sources in an AgentContext", () => {
  it("loads the skills with scope remote, the source's name as origin", async () => {
    const md = skillMd("remote-one");
    const s = await site({
      [INDEX]: { body: indexOf([{ name: "remote-one", url: "r.md", bytes: md }]) },
      "/.well-known/agent-skills/r.md": { body: md },
    });
    const project = await tempDir();
    const ctx = await engine.context({
      cwd: project,
      sources: {
        userSkills: false,
        remote: {
          cacheDir: path.join(project, ".cache"),
          lock: "update",
        },
      },
      skills: [{ url: s.base, name: "docs-site" }],
    });
    const skill = ctx.skills.find((k) => k.name === "remote-one");
    expect(skill?.source).toMatchObject({ scope: "remote", origin: "docs-site" });
    expect(existsSync(path.join(project, "skills.lock.json"))).toBe(true);
  });
});
