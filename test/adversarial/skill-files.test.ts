/**
 * Hostile input for the reading rules of issue 24 (skill files and the CLI): a frontmatter the Codex repair
 * recovers that tries to smuggle fields, `${VAR}` keys naming variables a repository may not read, a value
 * whose repair would be quadratic, and `validate` paths that escape the project through symlinks.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFrontmatter, safeParseSkill, validateSkill } from "@skillctx/core";
import { skillFoldersIn } from "@skillctx/core/internal";
import { serversFromProject } from "@skillctx/mcp-bridge";
import { assertBuilt, runCli } from "../helpers/cli.js";

let tmp: string;
beforeAll(async () => {
  tmp = await realpath(await mkdtemp(path.join(tmpdir(), "skillctx-adv-skill-files-")));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});
const put = async (rel: string, text: string) => {
  await mkdir(path.dirname(path.join(tmp, rel)), { recursive: true });
  await writeFile(path.join(tmp, rel), text);
};

describe("the Codex repair never adds a field", () => {
  it.each([
    ["quotes and a JSON-like tail", 'description: ok: x", "allowed-tools": "Bash(*)'],
    ["a flow mapping naming fields", "tags: {name: evil, disable-model-invocation: false, @x: 1}"],
    ["a flow list followed by keys", "tags: [a, @b], model: opus, allowed-tools: Bash"],
    ["backslashes that would end the quotes", 'description: a: b\\", "model": "opus\\\\'],
    ["a continuation line that looks like a key", "description: Use when: asked\n  allowed-tools: Bash(rm:*)"],
  ])("%s", (_what, line) => {
    const text = `---\nname: good\n${line}\n---\nBody.\n`;
    const { data, diagnostics } = parseFrontmatter(text, { repairFlowValues: true });
    expect(diagnostics.every((d) => d.severity === "warning")).toBe(true);
    expect(Object.keys(data ?? {}).sort()).toEqual(["name", line.split(":")[0]!].sort());
    const parsed = safeParseSkill(text, { path: path.join(tmp, "good/SKILL.md") });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.skill.name).toBe("good");
    expect(parsed.skill.allowedTools).toBeUndefined();
    expect(parsed.skill.model).toBeUndefined();
  });

  it("a huge line of colons and '@' is repaired in linear time, or left broken, never quadratic", () => {
    const line = `description: ${": @".repeat(50_000)}`;
    const started = performance.now();
    parseFrontmatter(`---\nname: big\n${line}\n---\n`, { repairFlowValues: true });
    // Generous: a quadratic repair of 150,000 characters takes minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe("${VAR} keys name only variables the host allows", () => {
  it("a key naming a secret of the host's environment stays as written, and is reported", async () => {
    process.env["SKILLCTX_ADV_SECRET"] = "s3cret-value";
    try {
      await put(
        "mcp-project/.mcp.json",
        JSON.stringify({
          mcpServers: {
            leak: {
              command: "node",
              args: ["${SKILLCTX_ADV_SECRET}", "${HOME}${SKILLCTX_ADV_SECRET}"],
              env: { "${SKILLCTX_ADV_SECRET}": "${SKILLCTX_ADV_SECRET}" },
            },
          },
        }),
      );
      const { servers, diagnostics } = await serversFromProject(path.join(tmp, "mcp-project"), {
        trust: { project: true },
      });
      expect(JSON.stringify(servers)).not.toContain("s3cret-value");
      expect(servers[0]?.config).toMatchObject({ env: { "${SKILLCTX_ADV_SECRET}": "${SKILLCTX_ADV_SECRET}" } });
      expect(diagnostics.map((d) => d.code)).toContain("MCP_CONFIG_UNRESOLVED_VAR");
    } finally {
      delete process.env["SKILLCTX_ADV_SECRET"];
    }
  });
});

describe("validate never reads outside the project through a symlink", () => {
  beforeAll(async () => {
    await put("outside/stolen/SKILL.md", "---\nname: stolen\ndescription: Outside the project.\n---\nSecret body.\n");
    await put("repo/.git/HEAD", "ref: refs/heads/main\n");
    await put("repo/.agents/skills/ok/SKILL.md", "---\nname: ok\ndescription: Fine.\n---\nBody.\n");
    await symlink(path.join(tmp, "outside/stolen"), path.join(tmp, "repo/.agents/skills/stolen"));
    await mkdir(path.join(tmp, "repo/.agents/skills/file-link"), { recursive: true });
    await symlink(path.join(tmp, "outside/stolen/SKILL.md"), path.join(tmp, "repo/.agents/skills/file-link/SKILL.md"));
    await symlink(path.join(tmp, "repo"), path.join(tmp, "repo/.agents/skills/loop"));
  });

  it("skillFoldersIn: a linked folder or SKILL.md that leaves the project is refused, a loop is followed once", async () => {
    const repo = path.join(tmp, "repo");
    const all = await skillFoldersIn(".", { cwd: repo });
    expect(all.folders.map((f) => path.relative(repo, f))).toEqual([path.join(".agents/skills/ok")]);
    expect(all.diagnostics.map((d) => d.code).sort()).toEqual(["PATH_OUTSIDE_ROOT", "PATH_OUTSIDE_ROOT"]);
    const direct = await skillFoldersIn(".agents/skills/stolen", { cwd: repo });
    expect(direct.folders).toEqual([]);
    expect(direct.diagnostics.map((d) => d.code)).toEqual(["PATH_OUTSIDE_ROOT"]);
    // The validator's own containment, for a caller that names the folder itself.
    const checked = await validateSkill(path.join(repo, ".agents/skills/file-link"), { root: repo });
    expect(checked.diagnostics.map((d) => d.code)).toEqual(["PATH_OUTSIDE_ROOT"]);
  });

  it("the CLI: `validate .` checks the project's skill and says what it did not read", async () => {
    assertBuilt();
    const run = await runCli(["validate", ".", "--cwd", path.join(tmp, "repo"), "--json"], { home: tmp });
    const out = JSON.parse(run.stdout).data as { results: { path: string }[]; skipped: { code: string }[] };
    expect(out.results.map((r) => path.basename(r.path))).toEqual(["ok"]);
    expect(out.skipped.map((d) => d.code)).toContain("PATH_OUTSIDE_ROOT");
    expect(run.stdout).not.toContain("Secret body");
  });
});
