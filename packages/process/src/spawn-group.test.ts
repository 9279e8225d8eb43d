import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isProcessAlive, processesInGroup } from "./group.js";
import { closeAll, liveGroupCount } from "./registry.js";
import { createProcessScope, ProcessClosedError } from "./scope.js";
import { spawnGroup, type GroupProcess } from "./spawn-group.js";
import { daemon, killAllWith, sleepers, uniqueSleep, waitFor } from "./test-utils.js";

let cwd: string;
const escaped: string[] = [];
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-process-group-"));
});
afterEach(() => {
  for (const marker of escaped.splice(0)) killAllWith(marker);
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

/** Everything the child writes to stdout until its pipes close. */
function collect(child: GroupProcess): Promise<string> {
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return child.closed.then(() => text);
}

// Prints a line when ready; exits on the end of stdin unless told to ignore it (and SIGTERM).
const server = (stubborn: boolean) =>
  [
    stubborn
      ? "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"
      : "process.stdin.on('end', () => process.exit(0)); process.stdin.resume();",
    "console.log('ready');",
  ].join(" ");

describe("spawnGroup", () => {
  it("gives the child the allowlisted environment plus its own env, nothing else", async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = "sk-secret";
    try {
      const child = await spawnGroup(
        { file: process.execPath, args: ["-e", "console.log(JSON.stringify(process.env))"] },
        { cwd, env: { OWN: "mine" } },
      );
      const env = JSON.parse(await collect(child)) as Record<string, string>;
      expect(env.OWN).toBe("mine");
      expect(env.PATH).toBe(process.env.PATH);
      expect(env).not.toHaveProperty("OPENAI_API_KEY");
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
  });

  it("closes a well-behaved child by ending its stdin", async () => {
    const child = await spawnGroup({ file: process.execPath, args: ["-e", server(false)] }, { cwd });
    await new Promise((resolve) => child.stdout.once("data", resolve));
    await child.close();
    expect(child.exit).toEqual({ code: 0, signal: null });
    expect(isProcessAlive(child.pid)).toBe(false);
  });

  it("stops a stubborn child behind a shell wrapper: SIGTERM to the group, then SIGKILL", async () => {
    const child = await spawnGroup(`"${process.execPath}" -e "${server(true)}"; echo wrapper-done`, {
      cwd,
      closeGraceMs: 200,
    });
    await new Promise((resolve) => child.stdout.once("data", resolve));
    expect(processesInGroup(child.pid)).toHaveLength(2);
    await child.close();
    expect(child.exit).toEqual({ code: null, signal: "SIGTERM" }); // the wrapper; the server needed SIGKILL
    expect(processesInGroup(child.pid)).toEqual([]);
    expect(liveGroupCount()).toBe(0);
  });

  it("stops what a child left in its group when it exits by itself", async () => {
    const sleep = uniqueSleep();
    const child = await spawnGroup(`sleep ${sleep} & echo bye`, { cwd, closeGraceMs: 200 });
    expect(await collect(child)).toBe("bye\n");
    expect(sleepers(sleep)).toEqual([]);
    expect(processesInGroup(child.pid)).toEqual([]);
  });

  it("is over even when a setsid daemon keeps its stdout open", async () => {
    const sleep = uniqueSleep();
    escaped.push(sleep);
    const child = await spawnGroup(`${daemon(sleep)}echo bye`, { cwd, closeGraceMs: 200 });
    expect(await collect(child)).toBe("bye\n");
    expect(child.exit).toEqual({ code: 0, signal: null });
    expect(sleepers(sleep)).toHaveLength(1);
    await child.close(); // idempotent after the end
  });

  it("rejects with the spawn error for a program that does not exist", async () => {
    await expect(spawnGroup({ file: join(cwd, "missing") }, { cwd })).rejects.toMatchObject({ code: "ENOENT" });
    expect(liveGroupCount()).toBe(0);
  });

  it("is closed with its scope, and a closed scope starts nothing", async () => {
    const scope = createProcessScope();
    const children = await Promise.all(
      [1, 2, 3].map(() =>
        spawnGroup({ file: process.execPath, args: ["-e", server(true)] }, { cwd, scope, closeGraceMs: 100 }),
      ),
    );
    await waitFor(() => scope.running === 3);
    await scope.close();
    for (const child of children) expect(processesInGroup(child.pid)).toEqual([]);
    expect(scope.running).toBe(0);
    await expect(spawnGroup({ file: "true" }, { scope })).rejects.toBeInstanceOf(ProcessClosedError);
  });

  it("closeAll stops every live group", async () => {
    const a = await spawnGroup({ file: process.execPath, args: ["-e", server(false)] }, { cwd });
    const b = await spawnGroup({ file: process.execPath, args: ["-e", server(true)] }, { cwd, closeGraceMs: 100 });
    expect(liveGroupCount()).toBe(2);
    await closeAll();
    expect(liveGroupCount()).toBe(0);
    expect([...processesInGroup(a.pid), ...processesInGroup(b.pid)]).toEqual([]);
  });
});
