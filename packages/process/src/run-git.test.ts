import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGit } from "./run-git.js";

const hasGit = (() => {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!hasGit) console.warn("runGit tests skipped: git is not on PATH");

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});
async function repo(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "run-git-"));
  dirs.push(dir);
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}
// The environment git's own child sees, through a shell alias (`!env`).
async function gitEnv(cwd: string, options: Parameters<typeof runGit>[1] = { cwd }): Promise<Map<string, string>> {
  const run = await runGit(["-c", "alias.showenv=!env", "showenv"], options);
  expect(run.exitCode).toBe(0);
  return new Map(
    run.stdout.split("\n").map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

describe.skipIf(!hasGit)("runGit", () => {
  it("never runs the program a repository's config names as core.fsmonitor", async () => {
    const root = await repo();
    await writeFile(path.join(root, "a.txt"), "");
    const flag = path.join(root, "ran");
    const hook = path.join(root, "hook.sh");
    await writeFile(hook, `#!/bin/sh\ntouch '${flag}'\n`);
    await chmod(hook, 0o755);
    execFileSync("git", ["config", "core.fsmonitor", hook], { cwd: root });
    const listed = await runGit(["ls-files", "-z", "--others"], { cwd: root });
    expect(listed.stdout.split("\0")).toContain("a.txt");
    expect(existsSync(flag)).toBe(false);
    execFileSync("git", ["status"], { cwd: root }); // plain git runs it: the test can fail
    expect(existsSync(flag)).toBe(true);
  });

  it("runs no hook of the repository", async () => {
    const root = await repo();
    const flag = path.join(root, "hooked");
    const hook = path.join(root, ".git", "hooks", "pre-commit");
    await writeFile(hook, `#!/bin/sh\ntouch '${flag}'\n`);
    await chmod(hook, 0o755);
    const who = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
    const committed = await runGit(["commit", "-q", "--allow-empty", "-m", "x"], { cwd: root, env: who });
    expect(committed.exitCode).toBe(0);
    expect(existsSync(flag)).toBe(false);
  });

  it("refuses transports outside https, ssh, git and file", async () => {
    const root = await repo();
    const run = await runGit(["ls-remote", "ext::sh -c true"], { cwd: root });
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toMatch(/transport 'ext' not allowed/);
  });

  it("gives git no prompt, no optional locks and the protocol allowlist; the caller's env wins", async () => {
    const root = await repo();
    const env = await gitEnv(root);
    expect(env.get("GIT_OPTIONAL_LOCKS")).toBe("0");
    expect(env.get("GIT_TERMINAL_PROMPT")).toBe("0");
    expect(env.get("GIT_ALLOW_PROTOCOL")).toBe("https:ssh:git:file");
    expect(env.has("GIT_CONFIG_GLOBAL")).toBe(false);
    const mine = await gitEnv(root, { cwd: root, env: { GIT_TERMINAL_PROMPT: "1", EXTRA: "x" } });
    expect([mine.get("GIT_TERMINAL_PROMPT"), mine.get("EXTRA")]).toEqual(["1", "x"]);
  });

  it("ignores the user's and the system's config only when isolated", async () => {
    const root = await repo();
    const isolated = await gitEnv(root, { cwd: root, isolated: true });
    expect(isolated.get("GIT_CONFIG_GLOBAL")).toBe("/dev/null");
    expect(isolated.get("GIT_CONFIG_NOSYSTEM")).toBe("1");
    const symlinks = await runGit(["config", "--get", "core.autocrlf"], { cwd: root, isolated: true });
    expect(symlinks.stdout.trim()).toBe("false");
  });

  it("passes the SSH agent only to network runs", async () => {
    const root = await repo();
    const saved = process.env["SSH_AUTH_SOCK"];
    process.env["SSH_AUTH_SOCK"] = "/tmp/agent.sock";
    try {
      expect((await gitEnv(root, { cwd: root, network: true })).get("SSH_AUTH_SOCK")).toBe("/tmp/agent.sock");
      expect((await gitEnv(root)).has("SSH_AUTH_SOCK")).toBe(false);
    } finally {
      if (saved === undefined) delete process.env["SSH_AUTH_SOCK"];
      else process.env["SSH_AUTH_SOCK"] = saved;
    }
  });
});
