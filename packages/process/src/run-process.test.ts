import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { liveGroupCount } from "./registry.js";
import { runProcess } from "./run-process.js";
import { createProcessScope, ProcessClosedError } from "./scope.js";
import { daemon, killAllWith, liveProcessesWith, sleepers, uniqueSleep } from "./test-utils.js";

let cwd: string;
const escaped: string[] = [];
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-process-run-"));
});
afterEach(() => {
  // Daemons that left their group on purpose are not ours to keep.
  for (const marker of escaped.splice(0)) killAllWith(marker);
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

describe("runProcess", () => {
  it("runs a shell command line", async () => {
    const result = await runProcess("echo one; echo two >&2; exit 4", { cwd });
    expect(result).toMatchObject({
      exitCode: 4,
      stdout: "one\n",
      stderr: "two\n",
      timedOut: false,
      truncated: false,
      pipesHeldOpen: false,
    });
    expect(result.error).toBeUndefined();
  });

  it("runs a program with an argument array and no shell", async () => {
    const argument = "a b; echo injected $HOME `id`";
    const result = await runProcess(
      { file: process.execPath, args: ["-e", "process.stdout.write(process.argv[1])", argument] },
      { cwd },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(argument);
  });

  it("runs in the given working directory", async () => {
    const result = await runProcess({ file: "pwd" }, { cwd });
    expect(result.stdout.trim()).toBe(cwd);
  });

  it("reports a program that could not start instead of throwing", async () => {
    const missing = await runProcess({ file: join(cwd, "no-such-program") }, { cwd });
    expect(missing.exitCode).toBeUndefined();
    expect(missing.error).toMatch(/program not found.*ENOENT/);
    const badCwd = await runProcess("echo hi", { cwd: join(cwd, "no-such-dir") });
    expect(badCwd.error).toMatch(/working directory not found: .*no-such-dir/);
    const nul = await runProcess({ file: "echo", args: ["a\0b"] }, { cwd });
    expect(nul.error).toMatch(/null bytes|\\0|NUL/i);
    expect(liveGroupCount()).toBe(0);
  });

  it("caps stdout and stderr separately, never splitting a character", async () => {
    const result = await runProcess("printf 'éééééé' >&2; printf 'ab€€€€'", { cwd, maxOutputBytes: 6 });
    expect(result.stdout).toBe("ab€"); // 2 + 3 bytes; the next € would end at byte 8
    expect(result.truncated).toBe(true);
    expect(result.stderr).toBe("ééé");
    expect(result.stderrTruncated).toBe(true);
  });

  it("keeps output of exactly the cap without calling it truncated", async () => {
    const result = await runProcess("printf 'abcdef'", { cwd, maxOutputBytes: 6 });
    expect(result).toMatchObject({ stdout: "abcdef", truncated: false, exitCode: 0 });
  });

  it("stops a command that prints without end at the cap, not at the timeout", async () => {
    const result = await runProcess("yes", { cwd, timeoutMs: 60_000 });
    expect(result).toMatchObject({ truncated: true, timedOut: false, exitCode: undefined });
    expect(Buffer.byteLength(result.stdout)).toBe(51_200);
    expect(result.stdout.startsWith("y\ny\n")).toBe(true);
  });

  it("streams stdout to onStdout, within the cap", async () => {
    const chunks: Buffer[] = [];
    const all = await runProcess("seq 1 20000", {
      cwd,
      onStdout: (chunk) => chunks.push(chunk),
      maxOutputBytes: 1 << 20,
    });
    expect(all).toMatchObject({ exitCode: 0, stdout: "", truncated: false });
    expect(Buffer.concat(chunks).toString()).toBe(`${Array.from({ length: 20000 }, (_, i) => i + 1).join("\n")}\n`);

    chunks.length = 0;
    const capped = await runProcess("yes", { cwd, onStdout: (chunk) => chunks.push(chunk), maxOutputBytes: 1000 });
    expect(capped.truncated).toBe(true);
    expect(Buffer.concat(chunks).length).toBe(1000);
  });

  it("kills the group and rejects with the error when onStdout throws", async () => {
    const sleep = uniqueSleep();
    const failure = new Error("consumer failed");
    const run = runProcess(`sleep ${sleep} & while true; do echo line; sleep 0.05; done`, {
      cwd,
      onStdout: () => {
        throw failure;
      },
    });
    await expect(run).rejects.toBe(failure);
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const sleep = uniqueSleep();
    const flag = join(cwd, "after-timeout");
    const result = await runProcess(`sleep ${sleep} & sleep ${sleep}; touch ${flag}`, { cwd, timeoutMs: 200 });
    expect(result).toMatchObject({ timedOut: true, exitCode: undefined, pipesHeldOpen: false });
    expect(liveProcessesWith(sleep)).toEqual([]);
    expect(existsSync(flag)).toBe(false);
  });

  it("uses SIGKILL on a group that ignores SIGTERM", async () => {
    const sleep = uniqueSleep();
    const result = await runProcess(`trap '' TERM; sleep ${sleep} & sleep ${sleep}; wait`, {
      cwd,
      timeoutMs: 200,
      killGraceMs: 100,
    });
    expect(result.timedOut).toBe(true);
    expect(result.exitSignal).toBe("SIGKILL");
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it("stops what a finished command left running in its group", async () => {
    const sleep = uniqueSleep();
    // The background sleep holds stdout open; without the group kill this would wait for the timeout.
    const result = await runProcess(`sleep ${sleep} & echo done`, { cwd, timeoutMs: 60_000 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "done\n", timedOut: false, pipesHeldOpen: false });
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it("returns when a finished command's setsid daemon holds stdout, and says so", async () => {
    const sleep = uniqueSleep();
    escaped.push(sleep);
    // Without the deadline on the pipes this waits for the daemon: over an hour.
    const result = await runProcess(`${daemon(sleep)}echo started`, { cwd, timeoutMs: 500 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "started\n", timedOut: false, pipesHeldOpen: true });
    expect(sleepers(sleep)).toHaveLength(1); // out of reach of a group kill: reported, not hidden
  });

  it("returns on timeout when a setsid daemon holds stdout while the command still runs", async () => {
    const sleep = uniqueSleep();
    escaped.push(sleep);
    const result = await runProcess(`${daemon(sleep)}echo started; sleep ${sleep}`, { cwd, timeoutMs: 300 });
    expect(result).toMatchObject({ timedOut: true, stdout: "started\n", pipesHeldOpen: true });
  });

  it("reads what a setsid daemon writes before the deadline", async () => {
    const flag = join(cwd, "late-daemon");
    const command = `setsid sh -c 'touch ${flag}; sleep 0.3; echo late' & while [ ! -e ${flag} ]; do sleep 0.01; done; echo early`;
    const result = await runProcess(command, { cwd, timeoutMs: 20_000 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "early\nlate\n", pipesHeldOpen: false, timedOut: false });
  });

  it("rejects with the abort reason once the group is gone", async () => {
    const sleep = uniqueSleep();
    const controller = new AbortController();
    const reason = new Error("stop now");
    setTimeout(() => controller.abort(reason), 150);
    await expect(runProcess(`sleep ${sleep} & sleep ${sleep}`, { cwd, signal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it("starts nothing when the signal is already aborted", async () => {
    const flag = join(cwd, "pre-aborted");
    await expect(runProcess(`touch ${flag}`, { cwd, signal: AbortSignal.abort() })).rejects.toThrow();
    expect(existsSync(flag)).toBe(false);
  });

  it("forgets every group once it settles", async () => {
    await Promise.all([
      runProcess("true", { cwd }),
      runProcess("sleep 5", { cwd, timeoutMs: 50 }),
      runProcess("yes", { cwd, maxOutputBytes: 10 }),
    ]);
    expect(liveGroupCount()).toBe(0);
  });
});

describe("runProcess: environment", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it("passes the allowlist and the caller's env, never secrets or exported shell functions", async () => {
    process.env.OPENAI_API_KEY = "sk-secret";
    process.env["BASH_FUNC_ls%%"] = "() {  echo pwned; }";
    process.env.LC_SKILLCTX_TEST = "() { echo pwned; }";
    process.env.LC_SKILLCTX_OK = "fine";
    const result = await runProcess({ file: "env" }, { cwd, env: { EXTRA: "given", PATH: process.env.PATH ?? "" } });
    const names = result.stdout.split("\n").map((line) => line.slice(0, line.indexOf("=")));
    expect(names).toContain("EXTRA");
    expect(names).toContain("LC_SKILLCTX_OK");
    expect(result.stdout).not.toContain("sk-secret");
    expect(result.stdout).not.toContain("pwned");
    expect(names).not.toContain("OPENAI_API_KEY");
  });

  it("lets the caller's values win over inherited ones", async () => {
    process.env.LANG = "inherited";
    const result = await runProcess('printf %s "$LANG"', { cwd, env: { LANG: "caller" } });
    expect(result.stdout).toBe("caller");
  });
});

describe("runProcess: scopes", () => {
  it("closing the scope stops its running commands, which reject, and starts nothing more", async () => {
    const sleep = uniqueSleep();
    const scope = createProcessScope();
    const running = runProcess(`sleep ${sleep} & sleep ${sleep}`, { cwd, scope });
    const other = runProcess(`sleep 0.2; echo other`, { cwd }); // not in the scope
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(scope.running).toBe(1);
    await scope.close();
    await expect(running).rejects.toBeInstanceOf(ProcessClosedError);
    expect(liveProcessesWith(sleep)).toEqual([]);
    expect((await other).stdout).toBe("other\n");

    const flag = join(cwd, "after-close");
    await expect(runProcess(`touch ${flag}`, { cwd, scope })).rejects.toSatisfy(ProcessClosedError.isInstance);
    expect(existsSync(flag)).toBe(false);
    expect(scope.running).toBe(0);
  });
});
