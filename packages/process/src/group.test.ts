import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { isGroupAlive, isProcessAlive, killGroup, processesInGroup, signalGroup } from "./group.js";
import { liveProcessesWith, sleepers, uniqueSleep, waitFor } from "./test-utils.js";

// python3 makes the zombie; without it the test is skipped (test/setup/tools.ts names the missing tool).
const HAS_PYTHON3 = !(process.env["SKILLCTX_MISSING_TOOLS"] ?? "").split(",").includes("python3");

const started: number[] = [];
afterEach(() => {
  // Whatever a failed test left behind.
  for (const pgid of started.splice(0)) signalGroup(pgid, "SIGKILL");
});

/** A detached `sh` leading its own group, running `script`. */
function group(script: string): number {
  const child = spawn("/bin/sh", ["-c", script], { detached: true, stdio: "ignore" });
  child.on("error", () => {});
  started.push(child.pid!);
  return child.pid!;
}

describe("process groups", () => {
  it("lists the members of a group and kills them all", async () => {
    const sleep = uniqueSleep();
    const pgid = group(`sleep ${sleep} & sleep ${sleep} & wait`);
    await waitFor(() => sleepers(sleep).length === 2);
    expect(processesInGroup(pgid).sort(byNumber)).toEqual([pgid, ...sleepers(sleep)].sort(byNumber));
    expect(isGroupAlive(pgid)).toBe(true);
    await killGroup(pgid, { graceMs: 100 });
    expect(isGroupAlive(pgid)).toBe(false);
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it("escalates to SIGKILL for members that ignore SIGTERM", async () => {
    const sleep = uniqueSleep();
    const pgid = group(`trap '' TERM; sleep ${sleep} & wait; wait`);
    await waitFor(() => sleepers(sleep).length === 1);
    await killGroup(pgid, { graceMs: 100 });
    expect(isGroupAlive(pgid)).toBe(false);
    expect(liveProcessesWith(sleep)).toEqual([]);
  });

  it.runIf(HAS_PYTHON3)("counts a zombie as gone", async () => {
    // A parent outside the group that never reaps its child, which joined the group and exited.
    const script = [
      "import os, signal, sys, time",
      "leader = os.fork()",
      "if leader == 0:",
      "    os.setpgid(0, 0); time.sleep(60); os._exit(0)",
      "os.setpgid(leader, leader)",
      "member = os.fork()",
      "if member == 0:",
      "    os.setpgid(0, leader); os._exit(0)",
      "time.sleep(0.2)",
      "os.kill(leader, signal.SIGKILL); os.waitpid(leader, 0)",
      "print(leader, member, flush=True)",
      "time.sleep(60)",
    ].join("\n");
    const python = spawn("python3", ["-c", script], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const line = await new Promise<string>((resolve) =>
        python.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString())),
      );
      const [leader, member] = line.trim().split(" ").map(Number) as [number, number];
      expect(signalGroup(leader, 0)).toBe(true); // the kernel still knows the group: its zombie member
      expect(isProcessAlive(member)).toBe(false);
      expect(processesInGroup(leader)).toEqual([]);
      expect(isGroupAlive(leader)).toBe(false);
    } finally {
      python.kill("SIGKILL");
    }
  });

  it("says a process that ended is not alive", async () => {
    const child = spawn("true");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(isProcessAlive(child.pid!)).toBe(false);
    expect(isProcessAlive(process.pid)).toBe(true);
  });
});

function byNumber(a: number, b: number): number {
  return a - b;
}
