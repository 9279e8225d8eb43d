import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, runCli, cliJson } from "./helpers/cli.js";
import { tempRepo } from "./helpers/temp-repo.js";
import type { TempRepo } from "./helpers/temp-repo.js";

let home: TempRepo;
beforeAll(async () => {
  home = await tempRepo();
});
afterAll(async () => home.dispose());

describe("skillctx build (built CLI)", () => {
  it("plays messages as user turns and reports each activation as JSON", async () => {
    const run = await runCli(
      ["build", "--cwd", DEMO, "-m", "hello", "-m", "the docker image is too big", "-m", "/bug-report crash", "--json"],
      { home: home.dir },
    );
    expect(run.code).toBe(0);
    const json = cliJson(run.stdout) as {
      steps: Array<{ activated: Array<{ skill: string; trigger: string; match?: string; messageIndex?: number }> }>;
      system: string;
      messages: Array<{ role: string; content: unknown }>;
      tools: unknown[];
    };
    expect(json.steps.map((s) => s.activated.map((a) => `${a.skill}:${a.trigger}:${a.messageIndex}`))).toEqual([
      [],
      [],
      ["docker:keyword:1"],
      ["bug-report:task:2"],
    ]);
    expect(json.system).toContain("acme-notes");
    expect(json.system).toContain("release-notes");
    expect(json.messages).toHaveLength(3);
    expect(JSON.stringify(json.messages[1])).toContain("multi-stage");
  });

  it("prints steps for people, with the final system prompt and messages", async () => {
    const run = await runCli(["build", "--cwd", DEMO, "-m", "start a container"], { home: home.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('+ docker (keyword: matched "container")');
    expect(run.stdout).toContain("══ system");
    expect(run.stdout).toContain("[0] user:");
  });

  it("exits 2 on an unknown option", async () => {
    const run = await runCli(["build", "--bogus"], { home: home.dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("skillctx build: unknown option '--bogus' (see skillctx build --help)\n");
  });
});

describe("skillctx render (built CLI)", () => {
  const SKILL =
    "---\nname: live\ndescription: d\n---\nSum: !`echo $((20 + 22))`\n\n```\n!`echo fenced`\n```\nBad: !`exit 4`\n";

  it("runs nothing without --trust and says how to allow it", async () => {
    const repo = await tempRepo({ "live.md": SKILL });
    const run = await runCli(["render", path.join(repo.dir, "live.md")], { home: home.dir });
    await repo.dispose();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "Sum: [Not run: `echo $((20 + 22))` comes from a project skill, which is not trusted. Run skillctx with --trust to allow it.]",
    );
    expect(run.stdout).toContain("!`echo fenced`");
    expect(run.stderr).toContain(":5: warning COMMAND_NOT_RUN");
  });

  it("renders with --trust, leaves code alone and reports a failing command with its line", async () => {
    const repo = await tempRepo({ "live.md": SKILL });
    const run = await runCli(["render", path.join(repo.dir, "live.md"), "--trust", "--cwd", repo.dir], {
      home: home.dir,
    });
    await repo.dispose();
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Sum: 42");
    expect(run.stdout).toContain("```\n!`echo fenced`\n```");
    expect(run.stdout).toContain("[Error: `exit 4` exited with code 4");
    expect(run.stderr).toMatch(/live\.md:10: warning COMMAND_FAILED/);
  });

  it("exits 2 without a file", async () => {
    expect((await runCli(["render"], { home: home.dir })).code).toBe(2);
  });
});
