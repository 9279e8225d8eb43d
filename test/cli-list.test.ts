// `skillctx list` end to end on the BUILT CLI: the skills an AgentContext in --cwd sees, who may invoke
// each one and with which arguments, token counts only with --tokens, findings on stderr.
import { readFileSync } from "node:fs";
import path from "node:path";
import { countTokens } from "@skillctx/core";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, DEMO, ROOT, runCli, cliJson } from "./helpers/cli.js";

const tempDir = useTempDirs("cli-list");
beforeAll(assertBuilt);

// The body of a fixture skill, cut by hand: everything after the closing `---` line.
function bodyOf(file: string): string {
  const text = readFileSync(file, "utf8");
  const close = text.indexOf("\n---\n", 4);
  return text.slice(close + 5);
}

const skillMd = (name: string, description: string, fields = "") =>
  `---\nname: ${name}\ndescription: ${description}\n${fields}---\nBody of ${name}.\n`;

interface Listed {
  name: string;
  scope: string;
  path: string | null;
  trigger: string;
  description: string | null;
  invocation: { model: boolean; user: string | null };
  argumentHint: string | null;
  tokens?: number | null;
}
interface ListJson {
  skills: Listed[];
  diagnostics: Array<{ code: string; severity: string; message: string }>;
}

describe("skillctx list (built CLI)", () => {
  it("lists the demo repository's skills as JSON: scope, trigger, who may invoke, no token counts unless asked", async () => {
    const home = await tempDir();
    const run = await runCli(["list", "--cwd", DEMO, "--json"], { home });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const out = cliJson(run.stdout) as ListJson;
    expect(out.diagnostics).toEqual([]);
    const skills = path.join(DEMO, ".agents/skills");
    // Single-file (legacy) skills live in OpenHands' microagents folder: a loose .md in .agents/skills is no skill.
    const legacy = path.join(DEMO, ".openhands/microagents");
    const expected = [
      ["add-endpoint", "add-endpoint/SKILL.md", "on-demand"],
      ["bug-report", `${legacy}/bug-report.md`, "task"],
      ["db-migrations", "db-migrations/SKILL.md", "on-demand"],
      ["db-rules", `${legacy}/db-rules.md`, "path"],
      ["docker", `${legacy}/docker.md`, "keyword"],
      ["release-notes", "release-notes/SKILL.md", "on-demand"],
    ] as const;
    // The repository's AGENTS.md is listed too, as the always-on guidance an agent there sees.
    const guidance = out.skills.filter((s) => s.trigger === "always");
    expect(guidance.map((s) => [s.name, s.path, s.scope, s.invocation])).toEqual([
      ["agents:fixtures/demo-repo", path.join(DEMO, "AGENTS.md"), "project", { model: false, user: null }],
    ]);
    const folderSkills = out.skills.filter((s) => s.trigger !== "always");
    expect(folderSkills.map((s) => [s.name, s.path, s.trigger, s.scope])).toEqual(
      expected.map(([name, file, trigger]) => [name, path.resolve(skills, file), trigger, "project"]),
    );
    for (const skill of folderSkills) {
      expect(Object.keys(skill)).toEqual([
        "name",
        "scope",
        "origin",
        "path",
        "trigger",
        "description",
        "invocation",
        "argumentHint",
      ]);
    }
    // A path rule is attached when a tool touches its files: the model cannot load it, the user can invoke it.
    expect(out.skills.find((s) => s.name === "db-rules")!.invocation).toEqual({ model: false, user: "/db-rules" });
    expect(out.skills.find((s) => s.name === "docker")!.invocation).toEqual({ model: true, user: "/docker" });
    expect(out.skills.find((s) => s.name === "docker")!.description).toBe("Building and running acme-notes in Docker");
  });

  it("--tokens counts each body (o200k_base), in JSON and in the table", async () => {
    const home = await tempDir();
    const run = await runCli(["list", "--cwd", DEMO, "--json", "--tokens"], { home });
    const out = cliJson(run.stdout) as ListJson;
    for (const skill of out.skills) {
      const body = skill.trigger === "always" ? readFileSync(skill.path!, "utf8") : bodyOf(skill.path!);
      expect(skill.tokens, skill.name).toBe(countTokens(body));
    }
    // --wide: one row per skill with every column (the default layout leaves out what is the same on every row).
    const table = await runCli(["list", "--cwd", DEMO, "--no-user", "--tokens", "--wide"], { home });
    const lines = table.stdout.split("\n");
    expect(lines[0]).toMatch(/^NAME +SCOPE +TRIGGER +INVOKE +ARGS +TOKENS +PATH +DESCRIPTION$/);
    const docker = out.skills.find((s) => s.name === "docker")!;
    expect(lines.find((l) => l.startsWith("docker "))).toMatch(
      new RegExp(` ${docker.tokens} +\\.openhands/microagents/docker\\.md `),
    );
    const without = await runCli(["list", "--cwd", DEMO, "--no-user", "--wide"], { home });
    expect(without.stdout.split("\n")[0]).toMatch(/^NAME +SCOPE +TRIGGER +INVOKE +ARGS +PATH +DESCRIPTION$/);
  });

  it("shows who may invoke each skill and its argument-hint, from the SKILL.md fields", async () => {
    const repo = await tempDir({
      ".agents/skills/both/SKILL.md": skillMd("both", "Model or user", 'argument-hint: "[issue-number]"\n'),
      ".agents/skills/deploy/SKILL.md": skillMd(
        "deploy",
        "Only the user deploys",
        "disable-model-invocation: true\nargument-hint: <env> [--dry-run]\n",
      ),
      ".agents/skills/background/SKILL.md": skillMd("background", "Only the model loads it", "user-invocable: false\n"),
      ".agents/skills/nobody/SKILL.md": skillMd(
        "nobody",
        "Neither",
        "user-invocable: false\ndisable-model-invocation: true\n",
      ),
    });
    const run = await runCli(["list", "--cwd", repo, "--no-user", "--json"], { home: path.join(repo, ".no-home") });
    expect(run.code, run.stderr).toBe(0);
    const out = cliJson(run.stdout) as ListJson;
    expect(out.skills.map((s) => [s.name, s.invocation, s.argumentHint])).toEqual([
      ["background", { model: true, user: null }, null],
      ["both", { model: true, user: "/both" }, "[issue-number]"],
      ["deploy", { model: false, user: "/deploy" }, "<env> [--dry-run]"],
      ["nobody", { model: false, user: null }, null],
    ]);
    const table = await runCli(["list", "--cwd", repo, "--no-user", "--wide"], { home: path.join(repo, ".no-home") });
    const rows = Object.fromEntries(
      table.stdout
        .split("\n")
        .slice(1, 5)
        .map((r) => [r.split(/ +/)[0], r]),
    );
    const header = table.stdout.split("\n")[0]!;
    const at = (title: string) => header.indexOf(title);
    const column = (row: string, title: string, next: string) => row.slice(at(title), at(next)).trim();
    expect(column(rows["both"]!, "INVOKE", "ARGS")).toBe("model+user");
    expect(column(rows["deploy"]!, "INVOKE", "ARGS")).toBe("user");
    expect(column(rows["background"]!, "INVOKE", "ARGS")).toBe("model");
    expect(column(rows["nobody"]!, "INVOKE", "ARGS")).toBe("-");
    expect(column(rows["deploy"]!, "ARGS", "PATH")).toBe("<env> [--dry-run]");
    expect(column(rows["nobody"]!, "ARGS", "PATH")).toBe("-");
  });

  it("shows command files and Cursor manual rules as user-only, with the prefix the user types", async () => {
    const home = await tempDir();
    const listed = async (fixture: string) =>
      new Map(
        (
          cliJson(
            (
              await runCli(["list", "--cwd", path.join(ROOT, "fixtures/conventions", fixture), "--no-user", "--json"], {
                home,
              })
            ).stdout,
          ) as ListJson
        ).skills.map((s) => [s.name, s] as const),
      );
    const claude = await listed("claude-code");
    expect(claude.get("review")).toMatchObject({
      trigger: "command",
      invocation: { model: false, user: "/review" },
      argumentHint: "[pr-number]",
    });
    const cursor = await listed("cursor");
    const manual = [...cursor.values()].find((s) => s.name.endsWith(":release-notes"))!;
    expect(manual).toMatchObject({ trigger: "command", invocation: { model: false, user: `@${manual.name}` } });
    expect(cursor.get("deploy")).toMatchObject({ trigger: "command", invocation: { model: false, user: "/deploy" } });
  });

  it("prints an aligned table, user skills included with --user and left out by default", async () => {
    const home = await tempDir({ ".agents/skills/my-notes/SKILL.md": skillMd("my-notes", "A user-level skill") });
    const run = await runCli(["list", "--cwd", DEMO, "--user", "--wide"], { home });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    const rows = lines.slice(1, lines.indexOf(""));
    expect(rows.map((r) => r.split(/ +/)[0])).toEqual([
      "add-endpoint",
      "agents:fixtures/demo-repo",
      "bug-report",
      "db-migrations",
      "db-rules",
      "docker",
      "my-notes",
      "release-notes",
    ]);
    // Columns line up with the header.
    const scopeAt = lines[0]!.indexOf("SCOPE");
    for (const row of rows) expect(row.slice(scopeAt).split(" ")[0]).toMatch(/^(project|user)$/);
    const mine = rows.find((r) => r.startsWith("my-notes"))!;
    expect(mine).toContain(" user ");
    expect(mine).toContain(path.join(home, ".agents/skills/my-notes/SKILL.md"));
    expect(rows.find((r) => r.startsWith("db-rules"))).toContain(path.join(".openhands", "microagents", "db-rules.md"));
    expect(lines.at(-1)).toBe("8 skills");

    // The default, as in the library (docs/decisions.md, "One default for user skills").
    const without = await runCli(["list", "--cwd", DEMO, "--json"], { home });
    const names = (cliJson(without.stdout) as ListJson).skills.map((s) => s.name);
    expect(names).not.toContain("my-notes");
    expect(names).toHaveLength(7);
  });

  it("keeps the project skill on a clash with a user skill and reports the warning", async () => {
    const project = await tempDir({ ".agents/skills/deploy/SKILL.md": skillMd("deploy", "Project deploy") });
    const home = await tempDir({ ".claude/skills/deploy/SKILL.md": skillMd("deploy", "User deploy") });
    const run = await runCli(["list", "--cwd", project, "--user", "--json"], { home });
    expect(run.code).toBe(0);
    const out = cliJson(run.stdout) as ListJson;
    expect(out.skills).toEqual([
      expect.objectContaining({ name: "deploy", description: "Project deploy", scope: "project" }),
    ]);
    expect(out.diagnostics).toEqual([expect.objectContaining({ code: "NAME_CLASH", severity: "warning" })]);
    expect(out.diagnostics[0]!.message).toContain(path.join(home, ".claude/skills/deploy/SKILL.md"));
    const human = await runCli(["list", "--cwd", project, "--user"], { home });
    expect(human.stdout).not.toContain("NAME_CLASH");
    expect(human.stderr).toMatch(/warning NAME_CLASH /);
  });

  it("exits 1 when a file has an error, still lists the good skills, and reports the finding on stderr", async () => {
    const project = await tempDir({
      ".agents/skills/good/SKILL.md": skillMd("good", "Fine"),
      // A flow list that goes on below its line: no repair (Codex's included) reads it.
      ".agents/skills/bad/SKILL.md": "---\nname: bad\ndescription: [never closed,\n  still open\n---\nBody.\n",
    });
    const run = await runCli(["list", "--cwd", project], { home: path.join(project, ".no-home") });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^good\n {4}Fine$/m);
    expect(run.stderr).toContain(`${path.join(project, ".agents/skills/bad/SKILL.md")}:4: error YAML_INVALID`);
  });

  it("says so when there are no skills", async () => {
    const project = await tempDir();
    const run = await runCli(["list", "--cwd", project], { home: path.join(project, ".no-home") });
    expect(run).toEqual({ code: 0, stdout: `no skills found for ${project}\n`, stderr: "" });
  });

  it("lists guidance files beside skills, as an agent in that folder sees them", async () => {
    const repo = await tempDir({
      "AGENTS.md": "# Rules\nRun the tests.\n",
      ".cursor/rules/ts.mdc": "---\ndescription: TypeScript rules\nglobs: src/**/*.ts\n---\nUse strict mode.\n",
      ".agents/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms.\n---\nBody.\n",
    });
    const run = await runCli(["list", "--cwd", repo, "--json", "--no-user"], { home: path.join(repo, ".no-home") });
    expect(run.code).toBe(0);
    const listed = (cliJson(run.stdout) as ListJson).skills;
    expect(listed.map((s) => `${s.name}:${s.trigger}`)).toEqual(["agents:always", "cursor:ts:path", "pdf:on-demand"]);
  });
});
