// Hostile skill servers (fixtures/skills-mcp/skill-server.mjs --mode ...) against the MCP skill source,
// each resolution in a separate process (runIsolated) with the bounds stated in the test's name. Every
// hostile server also serves an honest skill, `review`, which must still load unless the whole server is refused.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { useTempDirs } from "../../packages/core/src/testing/temp-dir.js";
import { fixtureServerConfig, skillMd } from "../helpers/skills-consume.js";
import { expectBounded, runIsolated } from "./isolated.js";

const temp = useTempDirs("skillctx-consume-adv-");
const HANG_SERVER = fileURLToPath(new URL("../../fixtures/mcp/hang-server.mjs", import.meta.url));

interface Outcome {
  skills: { name: string; dir: string }[];
  diagnostics: { code: string; severity: string; message: string }[];
}

const SCRIPT = `
import { resolveMcpSource } from "@skillctx/sources/mcp-source";
export default async function run({ mcp, name, cwd, cacheDir, limits }) {
  const resolved = await resolveMcpSource({ mcp, name }, { cwd, cacheDir, lock: "off" }, { limits });
  return {
    skills: resolved.skills.map((s) => ({ name: s.name, dir: s.dir })),
    diagnostics: resolved.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message.slice(0, 600) })),
  };
}
`;

async function served(): Promise<string> {
  return temp({
    "deploy/SKILL.md": skillMd("deploy", "Deploy the service", "Deploy. See guide.md."),
    "deploy/guide.md": "# Guide\nStep one.\n",
    "review/SKILL.md": skillMd("review", "Review a change", "Review it."),
  });
}

async function attack(
  mcp: Record<string, unknown>,
  bounds: { ms: number; mb: number },
  limits: Record<string, number> = {},
): Promise<Outcome & { cacheDir: string }> {
  const cacheDir = await temp();
  const run = await runIsolated<Outcome>(SCRIPT, {
    timeoutMs: bounds.ms + 20_000,
    input: { mcp, name: "team", cwd: await temp(), cacheDir, limits },
  });
  const value = expectBounded(run, bounds, "resolveMcpSource");
  // Whatever the server sent, nothing was written outside <cacheDir>/mcp/team.
  expect(readdirSync(cacheDir)).toEqual(existsSync(path.join(cacheDir, "mcp")) ? ["mcp"] : []);
  if (existsSync(path.join(cacheDir, "mcp"))) expect(readdirSync(path.join(cacheDir, "mcp"))).toEqual(["team"]);
  for (const skill of value.skills)
    expect(skill.dir.startsWith(path.join(cacheDir, "mcp", "team") + path.sep)).toBe(true);
  return { ...value, cacheDir };
}

const codes = (out: Outcome) => out.diagnostics.map((d) => d.code);
const names = (out: Outcome) => out.skills.map((s) => s.name);

describe("hostile skill servers (separate process)", () => {
  it("a file that does not match its digest drops that skill only (< 20 s, < 400 MB)", async () => {
    const out = await attack(fixtureServerConfig(await served(), "tamper"), { ms: 20_000, mb: 400 });
    expect(names(out)).toEqual(["review"]);
    expect(out.diagnostics).toEqual([
      {
        code: "MCP_SKILL_DIGEST_MISMATCH",
        severity: "error",
        message: expect.stringMatching(
          /^MCP server "team": skill skill:\/\/deploy\/SKILL\.md \(file skill:\/\/deploy\/guide\.md\) refused: its content does not match the listed digest sha256:[0-9a-f]{64}$/,
        ),
      },
    ]);
  });

  it("an unlisted file never reaches the cache; a read that answers unlisted content drops the skill (< 20 s, < 400 MB)", async () => {
    const unlisted = await attack(fixtureServerConfig(await served(), "unlisted"), { ms: 20_000, mb: 400 });
    expect(names(unlisted)).toEqual(["deploy", "review"]);
    const deploy = unlisted.skills.find((s) => s.name === "deploy")!;
    expect(readdirSync(deploy.dir)).toEqual(["SKILL.md"]);
    const extra = await attack(fixtureServerConfig(await served(), "extra-contents"), { ms: 20_000, mb: 400 });
    expect(names(extra)).toEqual([]);
    expect(codes(extra)).toEqual(["MCP_SKILL_READ_FAILED", "MCP_SKILL_READ_FAILED"]);
    expect(extra.diagnostics[0]!.message).toContain("instead of exactly the file asked for");
  });

  it("a listing whose frontmatter differs from the SKILL.md is refused (< 20 s, < 400 MB)", async () => {
    const out = await attack(fixtureServerConfig(await served(), "frontmatter"), { ms: 20_000, mb: 400 });
    expect(names(out)).toEqual([]);
    expect(codes(out)).toEqual(["MCP_SKILL_FRONTMATTER_MISMATCH", "MCP_SKILL_FRONTMATTER_MISMATCH"]);
    expect(out.diagnostics[0]!.message).toContain('the frontmatter field "description" differs');
  });

  it("a listed ../ file, names with ':' or '..', and a URI whose last segment is not the name are refused (< 20 s, < 400 MB)", async () => {
    const dotdot = await attack(fixtureServerConfig(await served(), "dotdot"), { ms: 20_000, mb: 400 });
    expect(names(dotdot)).toEqual([]);
    expect(dotdot.diagnostics.every((d) => d.code === "MCP_SKILL_REFUSED" && d.message.includes("escape.md"))).toBe(
      true,
    );

    const bad = await attack(fixtureServerConfig(await served(), "bad-names"), { ms: 20_000, mb: 400 });
    expect(names(bad)).toEqual(["deploy", "review"]);
    expect(
      bad.diagnostics.map((d) => d.message.replace(/^MCP server "team": skill (\S+) refused: (.*)$/, "$1 | $2")),
    ).toEqual([
      "skill://evil:name/SKILL.md | its uri has a path segment that contains /, \\, : or control characters",
      "skill://../up/SKILL.md | its uri has a path segment that contains ..",
      'skill://a/b/SKILL.md | the last segment of its uri ("b") is not its frontmatter name ("a/b")',
      'skill://right/SKILL.md | the last segment of its uri ("right") is not its frontmatter name ("wrong")',
    ]);
  });

  it("a 100 MB resource fails that skill's read at the 16 MiB message cap; the host and the other skill are fine (< 30 s, < 600 MB)", async () => {
    const out = await attack(fixtureServerConfig(await served(), "huge"), { ms: 30_000, mb: 600 });
    expect(names(out)).toEqual(["review"]);
    expect(out.diagnostics).toHaveLength(1);
    expect(out.diagnostics[0]!.code).toBe("MCP_SKILL_READ_FAILED");
    expect(out.diagnostics[0]!.message).toContain("(file skill://deploy/guide.md)");
    expect(out.diagnostics[0]!.message).toContain("16 MiB");
  });

  it("endless pagination stops at 100 pages (< 30 s, < 400 MB)", async () => {
    const out = await attack(fixtureServerConfig(await served(), "endless"), { ms: 30_000, mb: 400 });
    expect(names(out)).toEqual([]);
    expect(codes(out)).toEqual(["MCP_SKILLS_LIST_TRUNCATED"]);
    expect(out.diagnostics[0]!.message).toContain("more than 100 pages");
  });

  it("10,000 listed skills: the first 1,000 are fetched and verified, the rest reported (< 90 s, < 600 MB)", async () => {
    const out = await attack(fixtureServerConfig(await temp(), "many", ["--page-size", "500"]), {
      ms: 90_000,
      mb: 600,
    });
    expect(out.skills).toHaveLength(1000);
    expect(codes(out)).toEqual(["MCP_SKILLS_LIST_TRUNCATED"]);
    expect(out.diagnostics[0]!.message).toContain("cap of 1000 skills");
  });

  it("a server that hangs: in the handshake, in skills/list, in one read — each bounded by its timeout (< 25 s each, < 400 MB)", async () => {
    // A generous startup for the servers that do answer the handshake: a loaded machine starts node slowly.
    const limits = { startupTimeoutMs: 15_000, requestTimeoutMs: 1500 };
    const handshake = await attack(
      { command: process.execPath, args: [HANG_SERVER] },
      { ms: 20_000, mb: 400 },
      { startupTimeoutMs: 1500 },
    );
    expect(codes(handshake)).toEqual(["MCP_SERVER_START_TIMEOUT"]);
    const list = await attack(fixtureServerConfig(await served(), "hang-list"), { ms: 25_000, mb: 400 }, limits);
    expect(codes(list)).toEqual(["MCP_SKILLS_LIST_FAILED"]);
    expect(list.diagnostics[0]!.message).toMatch(/timed out/i);
    const read = await attack(fixtureServerConfig(await served(), "hang-read"), { ms: 25_000, mb: 400 }, limits);
    expect(names(read), JSON.stringify(read.diagnostics)).toEqual(["review"]);
    expect(codes(read)).toEqual(["MCP_SKILL_READ_FAILED"]);
    const whole = await attack(
      fixtureServerConfig(await served(), "hang-read"),
      { ms: 20_000, mb: 400 },
      { requestTimeoutMs: 60_000, deadlineMs: 4000 },
    );
    expect(names(whole)).toEqual([]);
    expect(whole.diagnostics[0]!.message).toContain("did not finish within 4000 ms");
  });

  it("a server without the skills extension is refused as a whole (< 20 s, < 400 MB)", async () => {
    const out = await attack(fixtureServerConfig(await served(), "no-extension"), { ms: 20_000, mb: 400 });
    expect(names(out)).toEqual([]);
    expect(codes(out)).toEqual(["MCP_SKILLS_UNSUPPORTED"]);
  });
});
