import { readFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { listSkillFiles } from "../packages/core/src/internal.js";
import { resolveMcpSource } from "../packages/sources/src/mcp-source.js";
import type { RemoteContext } from "../packages/sources/src/types.js";
import { fixtureServerConfig, skillMd } from "./helpers/skills-consume.js";

const temp = useTempDirs("skillctx-consume-");

async function served(): Promise<string> {
  return temp({
    "deploy/SKILL.md": skillMd("deploy", "Deploy the service", "Run the deploy.\n\nSee references/guide.md."),
    "deploy/references/guide.md": "# Guide\nStep one.\n",
    "review/SKILL.md": skillMd("review", "Review a change", "Review it."),
  });
}

async function context(): Promise<RemoteContext> {
  return { cwd: await temp(), cacheDir: await temp(), lock: "off" };
}

describe("resolveMcpSource", () => {
  it("fetches, verifies and caches every served skill", async () => {
    const dir = await served();
    const ctx = await context();
    const resolved = await resolveMcpSource({ mcp: fixtureServerConfig(dir), name: "team" }, ctx);
    expect(resolved.diagnostics).toEqual([]);
    expect(resolved.key).toBe("mcp:team");
    expect(resolved.ttlMs).toBe(60_000);
    expect(resolved.skills.map((s) => s.name)).toEqual(["deploy", "review"]);
    for (const skill of resolved.skills) {
      expect(skill.dir.startsWith(path.join(ctx.cacheDir, "mcp", "team") + path.sep)).toBe(true);
      const local = await listSkillFiles(path.join(dir, skill.name));
      expect((await listSkillFiles(skill.dir)).digest).toBe(local.digest);
      expect(skill.digest).toBe(local.digest);
    }
    expect(await readFile(path.join(resolved.skills[0]!.dir, "references/guide.md"), "utf8")).toBe(
      "# Guide\nStep one.\n",
    );
  });

  it("reuses a fresh listing without connecting, and refetches once it is stale", async () => {
    const dir = await served();
    const ctx = await context();
    let now = 1_000_000;
    const first = await resolveMcpSource({ mcp: fixtureServerConfig(dir), name: "team" }, ctx, { now: () => now });
    // The served skill changes: a fresh listing does not see it, a stale one does.
    await writeFile(path.join(dir, "review/SKILL.md"), skillMd("review", "Review a change", "Review it twice."));
    const broken = { command: path.join(dir, "no-such-server") };
    const cached = await resolveMcpSource({ mcp: fixtureServerConfig(dir), name: "team" }, ctx, {
      now: () => now + 1000,
    });
    expect(cached.skills).toEqual(first.skills);
    expect(cached.diagnostics).toEqual([]);
    // Another config is another server: not served from this cache.
    const other = await resolveMcpSource({ mcp: broken, name: "team" }, ctx, { now: () => now });
    expect(other.skills).toEqual([]);
    expect(other.diagnostics[0]!.code).toBe("MCP_SERVER_START_FAILED");
    now += 61_000;
    const again = await resolveMcpSource({ mcp: fixtureServerConfig(dir), name: "team" }, ctx, { now: () => now });
    expect(again.skills[0]).toEqual(first.skills[0]);
    expect(again.skills[1]!.digest).not.toBe(first.skills[1]!.digest);
    expect(await readFile(path.join(again.skills[1]!.dir, "SKILL.md"), "utf8")).toContain("Review it twice.");
    const offline = await resolveMcpSource(
      { mcp: fixtureServerConfig(dir), name: "team" },
      { ...ctx, offline: true },
      { now: () => now + 10_000_000 },
    );
    expect(offline.skills).toEqual(again.skills);
    expect(await readdir(path.join(ctx.cacheDir, "mcp", "team"))).toContain("listing.json");
  });

  it("refuses source names that could leave the cache or read as a qualified name, without starting anything", async () => {
    const ctx = await context();
    for (const name of ["../up", "a/b", "a:b", "..", "", "a\\b"]) {
      const resolved = await resolveMcpSource({ mcp: { command: "/nonexistent/server" }, name }, ctx);
      expect(resolved.skills).toEqual([]);
      expect(resolved.diagnostics.map((d) => d.code)).toEqual(["MCP_SOURCE_INVALID"]);
    }
    expect(await readdir(ctx.cacheDir)).toEqual([]);
  });

  it("works offline only from the cache", async () => {
    const resolved = await resolveMcpSource(
      { mcp: { command: "/nonexistent/server" }, name: "team" },
      { ...(await context()), offline: true },
    );
    expect(resolved.diagnostics.map((d) => d.code)).toEqual(["MCP_SOURCE_OFFLINE"]);
  });
});
