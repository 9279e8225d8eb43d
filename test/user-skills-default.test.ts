/**
 * One default for the user's skills (docs/decisions.md, "One default for user skills"): neither
 * `AgentContext.create` nor `skillctx list/build` reads the home folder unless asked (`userSkills: true`,
 * `--user`). Claude Code (https://code.claude.com/docs/en/skills, "Personal skills ~/.claude/skills"), Codex
 * (openai/codex codex-rs skills loader: `$CODEX_HOME/skills` as the User scope) and Gemini CLI (user
 * skills in ~/.gemini/skills) read them by default because they are the user's own agent; a host
 * embedding skillctx in a server must not read its account's home by surprise.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { AgentContext } from "@skillctx/engine";
import { put, useTempDirs } from "../packages/core/src/testing/temp-dir.js";
import { assertBuilt, runCli, cliJson } from "./helpers/cli.js";

const tempDir = useTempDirs("user-default");
beforeAll(assertBuilt);

const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nBody.\n`;

async function layout(): Promise<{ home: string; repo: string }> {
  const home = await tempDir();
  await put(path.join(home, ".claude/skills/home-skill"), "SKILL.md", skillMd("home-skill"));
  const repo = await tempDir();
  await put(path.join(repo, ".claude/skills/repo-skill"), "SKILL.md", skillMd("repo-skill"));
  return { home, repo };
}

async function libraryNames(repo: string, home: string, userSkills?: boolean): Promise<string[]> {
  const ctx = await AgentContext.create({
    cwd: repo,
    sources: { homeDir: home, ...(userSkills !== undefined && { userSkills }) },
  });
  try {
    return ctx.skills.map((s) => s.name).sort();
  } finally {
    await ctx.close();
  }
}

async function cliNames(repo: string, home: string, flags: string[]): Promise<string[]> {
  const run = await runCli(["list", "--cwd", repo, "--json", ...flags], { home });
  expect(run.code).toBe(0);
  const out = cliJson(run.stdout) as { skills: { name: string; trigger: string }[] };
  return out.skills
    .filter((s) => s.trigger !== "always")
    .map((s) => s.name)
    .sort();
}

describe("user skills: one default for the library and the CLI", () => {
  it("by default neither reads the home folder", async () => {
    const { home, repo } = await layout();
    expect(await libraryNames(repo, home)).toEqual(["repo-skill"]);
    expect(await cliNames(repo, home, [])).toEqual(["repo-skill"]);
  });

  it("asked (userSkills: true, --user), both read it", async () => {
    const { home, repo } = await layout();
    expect(await libraryNames(repo, home, true)).toEqual(["home-skill", "repo-skill"]);
    expect(await cliNames(repo, home, ["--user"])).toEqual(["home-skill", "repo-skill"]);
    // --no-user is still accepted, and is the default.
    expect(await cliNames(repo, home, ["--no-user"])).toEqual(["repo-skill"]);
  });
});
