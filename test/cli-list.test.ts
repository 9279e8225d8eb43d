import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { countTokens } from "@skillctx/core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempRepo } from "./helpers/temp-repo.js";
import type { TempRepo } from "./helpers/temp-repo.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = path.join(ROOT, "packages/skillctx/dist/cli.js");
const DEMO = path.join(ROOT, "fixtures/demo-repo");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

// Runs the built CLI with HOME pointed at `home`, so the real home folder never leaks in.
async function skillctx(args: string[], home: string): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", HOME: home, USERPROFILE: home },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

// The body of a fixture skill, cut by hand: everything after the closing `---` line.
function bodyOf(file: string): string {
  const text = readFileSync(file, "utf8");
  const close = text.indexOf("\n---\n", 4);
  return text.slice(close + 5);
}

const repos: TempRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.dispose()));
});
async function temp(files: Record<string, string> = {}): Promise<TempRepo> {
  const repo = await tempRepo(files);
  repos.push(repo);
  return repo;
}

const skillMd = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` first (pnpm test does)`);
});

describe("skillctx list (built CLI)", () => {
  it("lists the demo repository's skills as JSON, with scope, trigger, description and body tokens", async () => {
    const home = await temp();
    const run = await skillctx(["list", "--cwd", DEMO, "--json"], home.dir);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { skills: Record<string, unknown>[]; diagnostics: unknown[] };
    expect(out.diagnostics).toEqual([]);
    const skills = path.join(DEMO, ".agents/skills");
    const expected = [
      ["add-endpoint", "add-endpoint/SKILL.md", "on-demand"],
      ["bug-report", "bug-report.md", "task"],
      ["db-migrations", "db-migrations/SKILL.md", "on-demand"],
      ["db-rules", "db-rules.md", "path"],
      ["docker", "docker.md", "keyword"],
      ["release-notes", "release-notes/SKILL.md", "on-demand"],
    ] as const;
    // The repository's AGENTS.md is listed too, as the always-on guidance an agent there sees.
    const guidance = out.skills.filter((s) => s.trigger === "always");
    expect(guidance.map((s) => [s.name, s.path, s.scope])).toEqual([["agents:fixtures/demo-repo", path.join(DEMO, "AGENTS.md"), "project"]]);
    expect(guidance[0]!.tokens).toBe(countTokens(readFileSync(path.join(DEMO, "AGENTS.md"), "utf8")));
    const folderSkills = out.skills.filter((s) => s.trigger !== "always");
    expect(folderSkills.map((s) => [s.name, s.path, s.trigger, s.scope])).toEqual(
      expected.map(([name, file, trigger]) => [name, path.join(skills, file), trigger, "project"]),
    );
    for (const skill of folderSkills) {
      expect(Object.keys(skill)).toEqual(["name", "scope", "path", "trigger", "description", "tokens"]);
      expect(skill.tokens).toBe(countTokens(bodyOf(skill.path as string)));
      expect(skill.tokens).toBeGreaterThan(50);
    }
    expect(out.skills.find((s) => s.name === "docker")!.description).toBe("Building and running acme-notes in Docker");
  });

  it("prints an aligned table, user skills included by default and left out with --no-user", async () => {
    const home = await temp({ ".agents/skills/my-notes/SKILL.md": skillMd("my-notes", "A user-level skill") });
    const run = await skillctx(["list", "--cwd", DEMO], home.dir);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^NAME +SCOPE +TRIGGER +TOKENS +PATH +DESCRIPTION$/);
    const rows = lines.slice(1, lines.indexOf(""));
    expect(rows.map((r) => r.split(/ +/)[0])).toEqual([
      "add-endpoint", "agents:fixtures/demo-repo", "bug-report", "db-migrations", "db-rules", "docker", "my-notes", "release-notes",
    ]);
    // Columns line up with the header.
    const scopeAt = lines[0]!.indexOf("SCOPE");
    for (const row of rows) expect(row.slice(scopeAt).split(" ")[0]).toMatch(/^(project|user)$/);
    const mine = rows.find((r) => r.startsWith("my-notes"))!;
    expect(mine).toContain(" user ");
    expect(mine).toContain(path.join(home.dir, ".agents/skills/my-notes/SKILL.md"));
    expect(rows.find((r) => r.startsWith("db-rules"))).toContain(path.join(".agents", "skills", "db-rules.md"));
    expect(lines.at(-1)).toBe("8 skills");

    const without = await skillctx(["list", "--cwd", DEMO, "--no-user", "--json"], home.dir);
    const names = (JSON.parse(without.stdout) as { skills: { name: string }[] }).skills.map((s) => s.name);
    expect(names).not.toContain("my-notes");
    expect(names).toHaveLength(7);
  });

  it("keeps the project skill on a clash with a user skill and prints the warning", async () => {
    const project = await temp({ ".agents/skills/deploy/SKILL.md": skillMd("deploy", "Project deploy") });
    const home = await temp({ ".claude/skills/deploy/SKILL.md": skillMd("deploy", "User deploy") });
    const run = await skillctx(["list", "--cwd", project.dir, "--json"], home.dir);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { skills: { name: string; description: string; scope: string }[]; diagnostics: { code: string; message: string }[] };
    expect(out.skills).toEqual([expect.objectContaining({ name: "deploy", description: "Project deploy", scope: "project" })]);
    expect(out.diagnostics).toEqual([expect.objectContaining({ code: "NAME_CLASH", severity: "warning" })]);
    expect(out.diagnostics[0]!.message).toContain(path.join(home.dir, ".claude/skills/deploy/SKILL.md"));
    expect(out.diagnostics[0]!.message).toContain(path.join(project.dir, ".agents/skills/deploy/SKILL.md"));
  });

  it("exits 1 when a file has an error, and still lists the good skills", async () => {
    const project = await temp({
      ".agents/skills/good/SKILL.md": skillMd("good", "Fine"),
      ".agents/skills/bad/SKILL.md": "---\nname: bad\ndescription: [never closed\n---\nBody.\n",
    });
    const home = await temp();
    const run = await skillctx(["list", "--cwd", project.dir], home.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^good +project +on-demand/m);
    const file = path.join(project.dir, ".agents/skills/bad/SKILL.md");
    expect(run.stdout).toContain("diagnostics:");
    expect(run.stdout).toContain(`${file}:3: error YAML_INVALID`);
  });

  it("says so when there are no skills", async () => {
    const project = await temp();
    const run = await skillctx(["list", "--cwd", project.dir], project.dir);
    expect(run).toEqual({ code: 0, stdout: `no skills found for ${project.dir}\n`, stderr: "" });
  });

  it("exits 2 on bad usage", async () => {
    const home = await temp();
    expect((await skillctx(["list", "--user", "--no-user"], home.dir)).code).toBe(2);
    const missing = await skillctx(["list", "--cwd", path.join(home.dir, "nope")], home.dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("not a folder");
    expect((await skillctx(["list", "extra"], home.dir)).code).toBe(2);
  });
});
