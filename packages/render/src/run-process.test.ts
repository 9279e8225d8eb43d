import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCommands } from "./render-commands.js";
import { runProcess } from "./run-process.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-run-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** A sleep duration no other process uses, so the process table can be searched for it. */
let counter = 0;
const uniqueSleep = (): string => `${4000 + (process.pid % 1000)}.${String(++counter).padStart(3, "0")}${Date.now() % 1000}`;

/** Command lines of the live (non-zombie) processes whose arguments contain `marker`. */
async function liveProcessesWith(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, "utf8")).replaceAll("\0", " ");
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(marker) && state !== "Z") found.push(`${entry}: ${cmdline}`);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

describe("runProcess", () => {
  it("runs a shell command line", async () => {
    const result = await runProcess("echo one; echo two >&2; exit 4", { cwd });
    expect(result).toMatchObject({ exitCode: 4, stdout: "one\n", stderr: "two\n", timedOut: false, truncated: false });
    expect(result.error).toBeUndefined();
  });

  it("runs a program with an argument array and no shell", async () => {
    const argument = "a b; echo injected $HOME `id`";
    const result = await runProcess({ file: process.execPath, args: ["-e", "process.stdout.write(process.argv[1])", argument] }, { cwd });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(argument);
  });

  it("runs in the given working directory", async () => {
    const result = await runProcess({ file: "pwd" }, { cwd });
    expect(result.stdout.trim()).toBe(cwd);
  });

  it("reports a program that could not start", async () => {
    const missing = await runProcess({ file: join(cwd, "no-such-program") }, { cwd });
    expect(missing.exitCode).toBeUndefined();
    expect(missing.error).toMatch(/ENOENT/);
    const badCwd = await runProcess("echo hi", { cwd: join(cwd, "no-such-dir") });
    expect(badCwd.error).toContain("no-such-dir");
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

  it("stops a command that prints without end: bounded memory, well within the timeout", async () => {
    const before = process.memoryUsage();
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await runProcess("yes", { cwd, timeoutMs: 10_000 }));
    const after = process.memoryUsage();
    for (const result of results) {
      expect(result.truncated).toBe(true);
      expect(result.timedOut).toBe(false);
      expect(Buffer.byteLength(result.stdout)).toBe(51_200);
      expect(result.stdout.startsWith("y\ny\n")).toBe(true);
      expect(result.durationMs).toBeLessThan(10_000);
    }
    expect(after.rss - before.rss).toBeLessThan(10 * 1024 * 1024);
    expect(after.heapUsed + after.external - (before.heapUsed + before.external)).toBeLessThan(10 * 1024 * 1024);
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const sleep = uniqueSleep();
    const flag = join(cwd, "after-timeout");
    const result = await runProcess(`sleep ${sleep} & sleep ${sleep}; touch ${flag}`, { cwd, timeoutMs: 200 });
    expect(result).toMatchObject({ timedOut: true, exitCode: undefined });
    expect(await liveProcessesWith(sleep)).toEqual([]);
    expect(existsSync(flag)).toBe(false);
  });

  it("uses SIGKILL on a group that ignores SIGTERM", async () => {
    const sleep = uniqueSleep();
    const result = await runProcess(`trap '' TERM; sleep ${sleep} & sleep ${sleep}; wait`, { cwd, timeoutMs: 200, killGraceMs: 100 });
    expect(result.timedOut).toBe(true);
    expect(result.exitSignal).toBe("SIGKILL");
    expect(await liveProcessesWith(sleep)).toEqual([]);
  });

  it("stops what a finished command left running in the background", async () => {
    const sleep = uniqueSleep();
    // The background sleep holds stdout open; without the group kill this would wait for the timeout.
    const result = await runProcess(`sleep ${sleep} & echo done`, { cwd, timeoutMs: 20_000 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "done\n", timedOut: false });
    expect(await liveProcessesWith(sleep)).toEqual([]);
  });

  it("rejects with the abort reason once the group is gone", async () => {
    const sleep = uniqueSleep();
    const controller = new AbortController();
    const reason = new Error("stop now");
    setTimeout(() => controller.abort(reason), 150);
    await expect(runProcess(`sleep ${sleep} & sleep ${sleep}`, { cwd, signal: controller.signal })).rejects.toBe(reason);
    expect(await liveProcessesWith(sleep)).toEqual([]);
  });

  it("starts nothing when the signal is already aborted", async () => {
    const flag = join(cwd, "pre-aborted");
    await expect(runProcess(`touch ${flag}`, { cwd, signal: AbortSignal.abort() })).rejects.toThrow();
    expect(existsSync(flag)).toBe(false);
  });
});

describe("renderCommands: no process left behind", () => {
  it("leaves no process after 50 timeouts", async () => {
    const sleep = uniqueSleep();
    const text = Array.from({ length: 50 }, (_, i) => `${i}: !\`sleep ${sleep} & sleep ${sleep}\``).join("\n\n");
    const { runs } = await renderCommands(text, { cwd, timeoutMs: 150, concurrency: 10 });
    expect(runs).toHaveLength(50);
    expect(runs.every((run) => run.timedOut)).toBe(true);
    expect(await liveProcessesWith(sleep)).toEqual([]);
  });

  it("leaves no process after an abort in the middle of a render", async () => {
    const sleep = uniqueSleep();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const text = Array.from({ length: 8 }, () => `!\`sleep ${sleep} & sleep ${sleep}\``).join("\n\n");
    await expect(renderCommands(text, { cwd, signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(await liveProcessesWith(sleep)).toEqual([]);
  });
});
