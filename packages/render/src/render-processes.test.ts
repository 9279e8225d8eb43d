import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCommands } from "./render-commands.js";
import { runProcess } from "./index.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-render-run-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** A sleep duration no other process uses, so the process table can be searched for it. */
let counter = 0;
const uniqueSleep = (): string =>
  `${5000 + (process.pid % 1000)}.${String(++counter).padStart(3, "0")}${Date.now() % 1000}`;

/** Live (non-zombie) processes whose arguments contain `marker`, from /proc. */
async function liveProcessesWith(marker: string): Promise<string[]> {
  const { readdir, readFile } = await import("node:fs/promises");
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

  it("renders a command whose setsid daemon holds stdout, by the timeout", async () => {
    const sleep = uniqueSleep();
    try {
      const flag = join(cwd, "daemon-started");
      // The daemon leaves the group, then the command waits until it is there: nothing can kill it in between.
      const command = `setsid sh -c 'touch ${flag}; exec sleep ${sleep}' & while [ ! -e ${flag} ]; do sleep 0.01; done; echo yes`;
      const { text, runs } = await renderCommands(`Up: !\`${command}\``, { cwd, timeoutMs: 300 });
      expect(text).toBe("Up: yes");
      expect(runs[0]).toMatchObject({ exitCode: 0, timedOut: false });
      expect(await liveProcessesWith(`sleep ${sleep}`)).toHaveLength(1); // it really did escape
    } finally {
      for (const line of await liveProcessesWith(sleep)) process.kill(Number(line.split(":")[0]), "SIGKILL");
    }
  });
});

describe("@skillctx/render re-exports the process layer", () => {
  it("runProcess is the one from @skillctx/process", async () => {
    const processLayer = await import("@skillctx/process");
    expect(runProcess).toBe(processLayer.runProcess);
  });
});
