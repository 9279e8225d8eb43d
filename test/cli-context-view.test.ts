// Issue 37: `skillctx context` shows what the agent gets (each part with its tokens and share of the
// window; the shares add up to the total it prints), --touch plays a tool call so a package's
// path-triggered AGENTS.md shows; `list` reads at 80 columns (name, trigger, who may invoke on one line,
// at least 40 characters of each description under it; the layout itself: test/cli-list-layout.test.ts).
import path from "node:path";
import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, cliJson, runCli } from "./helpers/cli.js";

const tempDir = useTempDirs("cli-context");
beforeAll(assertBuilt);

interface Part {
  area: string;
  kind: string;
  name: string;
  tokens: number;
  share: number;
}
interface ContextData {
  window: number;
  total: number;
  parts: Part[];
}

async function monorepo(): Promise<string> {
  const cwd = await tempDir({
    "AGENTS.md": "# Monorepo\nUse pnpm. Run the tests before a commit.\n",
    "packages/x/AGENTS.md": "# Package x\nEvery export of x has a test beside it in src/.\n",
    "packages/x/src/a.ts": "export const a = 1;\n",
    ".agents/skills/deploy/SKILL.md":
      "---\nname: deploy\ndescription: Deploy the app to staging or production with the release checklist, rollbacks and smoke tests.\n---\nSteps.\n",
  });
  execFileSync("git", ["init", "-q"], { cwd });
  execFileSync("git", ["add", "-A"], { cwd });
  return cwd;
}

describe("skillctx context (built CLI)", () => {
  it("the parts add up to the total; the shares to its share; --touch shows the package's AGENTS.md", async () => {
    const cwd = await monorepo();
    const before = await runCli(["context", "--cwd", cwd, "--window", "200k", "--json"], {
      home: path.join(cwd, ".no-home"),
    });
    expect(before.code, before.stderr).toBe(0);
    const plain = cliJson<ContextData>(before.stdout);
    expect(plain.window).toBe(200_000);
    expect(plain.parts.map((p) => [p.area, p.kind, p.name])).toEqual(
      expect.arrayContaining([
        ["system", "guidance", "AGENTS.md"],
        ["system", "catalog", "catalog (1 skills)"],
        ["tools", "tool", "load_skill"],
      ]),
    );
    expect(plain.parts.some((p) => p.name === "packages/x/AGENTS.md")).toBe(false);

    const touched = await runCli(["context", "--cwd", cwd, "--touch", "packages/x/src/a.ts", "--json"], {
      home: path.join(cwd, ".no-home"),
    });
    expect(touched.code, touched.stderr).toBe(0);
    const view = cliJson<ContextData>(touched.stdout);
    const attached = view.parts.find((p) => p.kind === "attachment");
    expect(attached).toMatchObject({ area: "messages", name: "packages/x/AGENTS.md" });
    expect(attached!.tokens).toBeGreaterThan(5);
    expect(view.parts.reduce((sum, p) => sum + p.tokens, 0)).toBe(view.total);
    const shares = view.parts.reduce((sum, p) => sum + p.share, 0);
    expect(shares).toBeCloseTo(view.total / view.window, 12);
    for (const p of view.parts) expect(p.share).toBeCloseTo(p.tokens / view.window, 12);
  });

  it("prints a bar chart whose rows add up to the total it prints", async () => {
    const cwd = await monorepo();
    const run = await runCli(["context", "--cwd", cwd, "--touch", "packages/x/src/a.ts", "--window", "1m"], {
      home: path.join(cwd, ".no-home"),
    });
    expect(run.code, run.stderr).toBe(0);
    const total = Number(/^ {2}([\d,]+) of 1m tokens/m.exec(run.stdout)?.[1]?.replace(/,/g, ""));
    expect(total).toBeGreaterThan(100);
    // The three areas' lines (no indent under the chart's two spaces) add up to the total.
    const areas = [...run.stdout.matchAll(/^ {2}(system prompt|tool definitions \(\d+\)|messages) +([\d,]+) /gm)];
    expect(areas.map((m) => m[1]!.replace(/ \(\d+\)/, ""))).toEqual(["system prompt", "tool definitions", "messages"]);
    expect(areas.reduce((sum, m) => sum + Number(m[2]!.replace(/,/g, "")), 0)).toBe(total);
    expect(run.stdout).toMatch(/^ {4}attached: packages\/x\/AGENTS\.md +\d+/m);
    for (const line of run.stdout.split("\n")) expect([...line].length).toBeLessThanOrEqual(80);
  });
});

describe("skillctx list at 80 columns", () => {
  it("name, trigger and who may invoke on one line, 40+ characters of description under it, no line past 80", async () => {
    const cwd = await monorepo();
    const run = await runCli(["list", "--cwd", cwd], { home: path.join(cwd, ".no-home") });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^NAME +TRIGGER +INVOKE$/);
    const at = lines.findIndex((l) => l.startsWith("deploy "));
    expect(lines[at]).toMatch(/^deploy +on-demand +model\+user$/);
    expect(lines[at + 1]!.trim().length).toBeGreaterThanOrEqual(40);
    expect(lines[at + 1]).toMatch(/^ {4}Deploy the app to staging or production/);
    // SCOPE is project on every row: said once, not a column.
    expect(run.stdout).not.toMatch(/^NAME.*SCOPE/m);
    expect(run.stdout).toContain("every one: scope project");
  });
});
