// The round trip of issue 15: skills served by one process (skillctx's createSkillServer) are consumed by
// another through the MCP SDK client, over stdio and over HTTP, with identical catalogs and digests.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AgentContext } from "skillctx";
import type { AgentContextOptions } from "skillctx";
import { listSkillFiles } from "../packages/core/src/internal.js";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { fixtureServerConfig, skillctxServerConfig, skillMd, startHttpServer } from "./helpers/skills-consume.js";
import type { HttpServerProcess } from "./helpers/skills-consume.js";
import { withDefaults } from "./helpers/options.js";

const temp = useTempDirs("skillctx-consume-");
const contexts: AgentContext[] = [];
const servers: HttpServerProcess[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function open(options: AgentContextOptions): Promise<AgentContext> {
  const ctx = await AgentContext.create({
    guidance: false,
    ...withDefaults({ sources: { userSkills: false, remote: { lock: "off" } } }, options),
  });
  contexts.push(ctx);
  return ctx;
}

/** A project whose skills the server side serves; `deploy` runs a command that leaves a file in the consumer's cwd. */
async function servedProject(): Promise<string> {
  return temp({
    ".agents/skills/deploy/SKILL.md": skillMd(
      "deploy",
      "Deploy the service to staging",
      "Deploy now.\n\nMarker: !`echo ran > ran-flag.txt && echo OUT-$((6*7))-PUT`\n\nSee references/guide.md.",
    ),
    ".agents/skills/deploy/references/guide.md": "# Guide\nStep one.\n",
    ".agents/skills/review/SKILL.md": skillMd("review", "Review a pull request", "Review the diff."),
  });
}

const withoutOrigin = (text: string | undefined) => (text ?? "").replaceAll("(from &quot;team&quot;) ", "");

describe.each(["stdio", "http"] as const)("skills consumed over MCP (%s)", (transport) => {
  it("gives the consumer the server's catalog and digests, labelled with the origin, untrusted", async () => {
    const project = await servedProject();
    const mcp =
      transport === "stdio" ? skillctxServerConfig(project) : { type: "http", url: await http("skillctx", project) };
    const serverSide = await open({ cwd: project });
    const cwd = await temp();
    const ctx = await open({ cwd, sources: { remote: { cacheDir: await temp() } }, skills: [{ mcp, name: "team" }] });

    expect(ctx.skills.map((s) => s.name)).toEqual(serverSide.skills.map((s) => s.name));
    expect(ctx.skills.every((s) => s.source.scope === "remote" && s.source.origin === "team")).toBe(true);
    // Identical catalogs, but for the origin label that tells the model where each skill comes from.
    expect(ctx.catalog?.text).toContain("(from &quot;team&quot;) Deploy the service to staging");
    expect(withoutOrigin(ctx.catalog?.text)).toBe(serverSide.catalog?.text);
    for (const skill of ctx.skills) {
      const local = serverSide.skills.find((s) => s.name === skill.name)!;
      const consumed = await listSkillFiles(path.dirname(skill.source.path!));
      const original = await listSkillFiles(path.dirname(local.source.path!));
      expect(consumed.files.map((f) => [f.path, f.digest])).toEqual(original.files.map((f) => [f.path, f.digest]));
      expect(consumed.digest).toBe(original.digest);
    }

    // Untrusted: the served skill's command is shown, not run.
    const loaded = await ctx.callTool("load_skill", { name: "deploy" });
    const text = JSON.stringify(loaded);
    expect(text).toContain("Not run");
    expect(text).toContain('trust: { remote: [\\"team\\"] }');
    expect(text).not.toContain("OUT-42-PUT");
    expect(existsSync(path.join(cwd, "ran-flag.txt"))).toBe(false);
  });
});

describe("trust and tampering", () => {
  it("runs a served skill's command only when trust.remote names its server", async () => {
    const project = await servedProject();
    const cwd = await temp();
    const ctx = await open({
      cwd,
      sources: {
        remote: {
          cacheDir: await temp(),
        },
      },
      skills: [{ mcp: skillctxServerConfig(project), name: "team" }],
      trust: { remote: ["team"] },
    });
    const loaded = JSON.stringify(await ctx.callTool("load_skill", { name: "deploy" }));
    expect(loaded).toContain("OUT-42-PUT");
    expect(existsSync(path.join(cwd, "ran-flag.txt"))).toBe(true);

    const other = await temp();
    const named = await open({
      cwd: other,
      sources: {
        remote: {
          cacheDir: await temp(),
        },
      },
      skills: [{ mcp: skillctxServerConfig(project), name: "team" }],
      trust: { remote: ["someone-else"], project: true },
    });
    expect(JSON.stringify(await named.callTool("load_skill", { name: "deploy" }))).not.toContain("OUT-42-PUT");
    expect(existsSync(path.join(other, "ran-flag.txt"))).toBe(false);
  });

  it("refuses a skill whose served file does not match its digest and loads the others", async () => {
    const dir = await temp({
      "deploy/SKILL.md": skillMd("deploy", "Deploy", "See references/guide.md."),
      "deploy/references/guide.md": "# Guide\n",
      "review/SKILL.md": skillMd("review", "Review", "Review it."),
    });
    for (const mcp of [
      fixtureServerConfig(dir, "tamper"),
      { type: "http", url: await http("fixture", dir, "tamper") },
    ]) {
      const ctx = await open({
        cwd: await temp(),
        sources: { remote: { cacheDir: await temp() } },
        skills: [{ mcp, name: "team" }],
      });
      expect(ctx.skills.map((s) => s.name)).toEqual(["review"]);
      const step = await ctx.buildContext([]);
      const refused = step.diagnostics.find((d) => d.code === "MCP_SKILL_DIGEST_MISMATCH");
      expect(refused?.message).toContain('MCP server "team"');
      expect(refused?.message).toContain("skill://deploy/SKILL.md");
      expect(refused?.message).toContain("skill://deploy/references/guide.md");
    }
  });

  it("recovers from a stale listing through skills/get", async () => {
    const dir = await temp({ "deploy/SKILL.md": skillMd("deploy", "Deploy", "Body."), "deploy/guide.md": "# Guide\n" });
    const ctx = await open({
      cwd: await temp(),
      sources: {
        remote: {
          cacheDir: await temp(),
        },
      },
      skills: [{ mcp: fixtureServerConfig(dir, "stale"), name: "team" }],
    });
    expect(ctx.skills.map((s) => s.name)).toEqual(["deploy"]);
  });
});

describe("name clashes", () => {
  it("qualifies a served skill that a local skill's name shadows, with a diagnostic", async () => {
    const dir = await temp({
      "review/SKILL.md": skillMd("review", "Served review", "Served."),
      "deploy/SKILL.md": skillMd("deploy", "Served deploy", "Served."),
    });
    const cwd = await temp({ ".agents/skills/review/SKILL.md": skillMd("review", "Local review", "Local.") });
    const ctx = await open({
      cwd,
      sources: { remote: { cacheDir: await temp() } },
      skills: [{ mcp: fixtureServerConfig(dir), name: "team" }],
    });
    expect(ctx.skills.map((s) => s.name)).toEqual(["deploy", "review", "team:review"]);
    expect(ctx.skills.find((s) => s.name === "review")!.description).toBe("Local review");
    expect(ctx.catalog?.text).toContain(
      "<name>team:review</name>\n<description>(from &quot;team&quot;) Served review</description>",
    );
    const step = await ctx.buildContext([]);
    expect(step.diagnostics.some((d) => d.code === "NAME_CLASH" && d.message.includes('"team:review"'))).toBe(true);
    const loaded = JSON.stringify(await ctx.callTool("load_skill", { name: "team:review" }));
    expect(loaded).toContain("Served.");
  });

  it("qualifies every origin that shares a name, whatever the order of the sources", async () => {
    const a = await temp({ "deploy/SKILL.md": skillMd("deploy", "From A", "A.") });
    const b = await temp({ "deploy/SKILL.md": skillMd("deploy", "From B", "B.") });
    for (const order of [
      ["a", "b"],
      ["b", "a"],
    ]) {
      const sources = order.map((name) => ({ mcp: fixtureServerConfig(name === "a" ? a : b), name }));
      const ctx = await open({ cwd: await temp(), sources: { remote: { cacheDir: await temp() } }, skills: sources });
      expect(ctx.skills.map((s) => [s.name, s.description])).toEqual([
        ["a:deploy", "From A"],
        ["b:deploy", "From B"],
      ]);
    }
  });

  it("disambiguates two skills of one server with the same name by their paths", async () => {
    const dir = await temp({
      "billing__refunds/SKILL.md": skillMd("refunds", "Billing refunds", "Billing."),
      "support__refunds/SKILL.md": skillMd("refunds", "Support refunds", "Support."),
      "refunds/SKILL.md": skillMd("refunds", "Top-level refunds", "Top."),
    });
    const ctx = await open({
      cwd: await temp(),
      sources: {
        remote: {
          cacheDir: await temp(),
        },
      },
      skills: [{ mcp: fixtureServerConfig(dir, "ok", ["--prefix", "acme", "--nest"]), name: "team" }],
    });
    expect(ctx.skills.map((s) => [s.name, s.description])).toEqual([
      ["team:acme/refunds", "Top-level refunds"],
      ["team:billing/refunds", "Billing refunds"],
      ["team:support/refunds", "Support refunds"],
    ]);
  });
});

async function http(kind: "skillctx" | "fixture", dir: string, mode = "ok"): Promise<string> {
  const server = await startHttpServer(kind, dir, mode);
  servers.push(server);
  return server.url;
}
