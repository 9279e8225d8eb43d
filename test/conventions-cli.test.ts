/**
 * The convention fixtures through the built CLI: `skillctx build --json` shows the guidance, catalog,
 * activations and tools each tool documents (the CLI loads through AgentContext, as the library does).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { itWithTool } from "./helpers/tools-present.js";
import { runCli, cliJson } from "./helpers/cli.js";
import { useConventionFixtures } from "./helpers/convention-fixture.js";

const fixture = useConventionFixtures();

interface BuildJson {
  steps: Array<{
    activated: Array<{ skill: string; trigger: string; match?: string }>;
    diagnostics: Array<{ code: string; path?: string }>;
  }>;
  system: string;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  tools: Array<{ name: string }>;
}

async function build(repo: string, cwd: string, args: string[]): Promise<BuildJson> {
  const home = path.join(path.dirname(repo), "home");
  await mkdir(home, { recursive: true });
  const run = await runCli(["build", "--json", "--cwd", cwd, ...args], { home });
  expect(run.code, run.stderr).toBe(0);
  return cliJson(run.stdout) as BuildJson;
}

const attached = (json: BuildJson) =>
  json.messages
    .flatMap((m) => (typeof m.content === "string" ? [] : m.content.slice(1).map((part) => part.text ?? "")))
    .join("\n");
const catalogNames = (system: string) => [...system.matchAll(/<name>([^<]+)<\/name>/g)].map((m) => m[1]);

describe("skillctx build --json on the convention fixtures", () => {
  itWithTool("git")(
    "Claude Code: memory files in system, a user-only skill out of the catalog, /review rendered with its arguments, .mcp.json tools",
    async () => {
      const repo = await fixture("claude-code", { git: true });
      const json = await build(repo, repo, ["--trust", "-m", "/review 42"]);
      for (const text of [
        "Use pnpm, never npm.",
        "Reviews need two approvals.",
        "My local database is on port 5433.",
        "Prefer named exports.",
      ]) {
        expect(json.system).toContain(text);
      }
      expect(json.system).toContain("!`echo this-is-not-run` stays as written.");
      expect(catalogNames(json.system)).toEqual(["explain-code"]);
      expect(json.steps[1]?.activated).toEqual([
        { skill: "review", trigger: "command", match: "/review 42", messageIndex: 0 },
      ]);
      // The command's !`cmd` ran (trusted), and $ARGUMENTS took the argument.
      expect(attached(json)).toContain("Review pull request 42.\nChanged files: src/cart.ts");
      expect(json.tools.map((t) => t.name)).toContain("mcp__notes__echo");
    },
  );

  itWithTool("git")(
    "Codex: the AGENTS.md chain root → cwd with the override, openai.yaml's policy, and the invoked skill's MCP dependency",
    async () => {
      const repo = await fixture("codex", { git: true });
      // AGENTS.override.md is Codex's alone: the CLI emulates Codex here (docs/conventions.md agents-override-codex).
      const json = await build(repo, path.join(repo, "packages/api"), [
        "--trust",
        "--emulate",
        "codex",
        "-m",
        "/release packages/api",
      ]);
      const at = (text: string) => json.system.indexOf(text);
      expect(at("Format with prettier.")).toBeGreaterThan(-1);
      expect(at("Format with prettier.")).toBeLessThan(at("Every package has its own tests."));
      expect(at("Every package has its own tests.")).toBeLessThan(at("The API is frozen this week"));
      expect(json.system).not.toContain("This text is replaced by the override");
      expect(catalogNames(json.system)).toEqual(["lint"]);
      expect(json.steps[1]?.activated).toEqual([
        { skill: "release", trigger: "command", match: "/release packages/api", messageIndex: 0 },
      ]);
      expect(json.tools.map((t) => t.name)).toContain("mcp__changelog__echo");
    },
  );

  it("Cursor: the always rule in system, the described rule listed, a manual rule by @mention, a command left as written", async () => {
    const repo = await fixture("cursor");
    const json = await build(repo, repo, ["--trust", "-m", "/deploy", "-m", "@cursor:release-notes please"]);
    expect(json.system).toContain("Use TypeScript strict mode everywhere.");
    expect(catalogNames(json.system)).toEqual(["cursor:api-docs"]);
    expect(json.steps.map((s) => s.activated.map((a) => [a.skill, a.trigger, a.match]))).toEqual([
      [],
      [["deploy", "command", "/deploy"]],
      [["cursor:release-notes", "command", "@cursor:release-notes"]],
    ]);
    const text = attached(json);
    expect(text).toContain("Cursor reads this as static text: !`echo not-run` stays.");
    expect(text).toContain("Release notes list breaking changes first.");
    expect(json.tools.map((t) => t.name)).toContain("mcp__tracker__echo");
  });

  it("Copilot: instructions in system, the described one listed, a prompt file run as /gen-tests", async () => {
    const repo = await fixture("copilot");
    const json = await build(repo, repo, ["-m", "/gen-tests ./internal/cart"]);
    expect(json.system).toContain("use the standard library where you can");
    expect(json.system).toContain("Write commit messages in the imperative mood.");
    expect(json.system).not.toContain("Handle every error");
    expect(catalogNames(json.system)).toEqual(["copilot:security"]);
    expect(json.steps[1]?.activated.map((a) => [a.skill, a.trigger])).toEqual([["gen-tests", "command"]]);
    expect(attached(json)).toContain("Write table-driven tests for ${input:package}.");
  });
});
