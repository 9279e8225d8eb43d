// Issue 37, "diagnostics a developer reads": on a repository whose skills all carry fields skillctx does
// not use (sentry-mcp's `category` and `tags`), `list` says so once, as info, with the union of the
// fields; a misspelt field stays a warning of its own; the summary counts errors, warnings and info apart
// with plurals right; a .cursor/mcp.json byte-identical to .mcp.json adds nothing; exit 0.
import path from "node:path";
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, cliJson, runCli } from "./helpers/cli.js";

const tempDir = useTempDirs("cli-findings");
beforeAll(assertBuilt);

const NAMES = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
const skill = (name: string, extra: string) =>
  `---\nname: ${name}\ndescription: Handles the ${name} part of the release checklist for the team.\n${extra}---\nSteps.\n`;

async function repo(): Promise<string> {
  const files: Record<string, string> = {};
  NAMES.forEach((name, i) => {
    const extra = i % 2 === 0 ? "category: release\n" : "category: release\ntags: [ops]\n";
    files[`.agents/skills/${name}/SKILL.md`] = skill(name, extra);
  });
  files[".agents/skills/kilo/SKILL.md"] = skill("kilo", "licence: MIT\n");
  const mcp = JSON.stringify({ mcpServers: { docs: { command: "npx", args: ["docs-mcp"] } } });
  files[".mcp.json"] = mcp;
  files[".cursor/mcp.json"] = mcp;
  const cwd = await tempDir(files);
  execFileSync("git", ["init", "-q"], { cwd });
  return cwd;
}

describe("findings of list (built CLI)", () => {
  it("groups the unknown fields of ten skills on one info line and counts each severity apart", async () => {
    const cwd = await repo();
    const home = path.join(cwd, ".no-home");
    const run = await runCli(["list", "--cwd", cwd], { home });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.trimEnd().split("\n");
    const grouped = lines.filter((l) => l.includes("UNKNOWN_FIELDS") && !l.includes("kilo"));
    expect(grouped).toHaveLength(1);
    expect(grouped[0]).toMatch(/^info UNKNOWN_FIELDS 10 skills have unknown fields: category, tags \(/);
    // A field that looks misspelt (`licence` for `license`) is a warning, told on its own line.
    const misspelt = lines.filter((l) => l.includes("kilo"));
    expect(misspelt).toHaveLength(1);
    expect(misspelt[0]).toMatch(/^\S*kilo\/SKILL\.md(:\d+)?: warning UNKNOWN_FIELDS .*licence/);
    // The untrusted server is said once (a warning: it will not start), its byte-identical Cursor copy not at all.
    expect(lines.filter((l) => l.includes("MCP_SERVER_UNTRUSTED"))).toHaveLength(1);
    expect(run.stderr).not.toContain("MCP_SERVER_DUPLICATE");
    expect(lines.at(-1)).toBe("skillctx list: 0 errors, 2 warnings, 10 info");

    // --json keeps every finding on its own, with its severity.
    const json = await runCli(["list", "--cwd", cwd, "--json"], { home });
    const diagnostics = (cliJson(json.stdout) as { diagnostics: Array<{ code: string; severity: string }> })
      .diagnostics;
    const unknown = diagnostics.filter((d) => d.code === "UNKNOWN_FIELDS");
    expect(unknown.map((d) => d.severity).sort()).toEqual([...Array(10).fill("info"), "warning"]);
  });
});
