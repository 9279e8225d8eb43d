// Hostile commands, scripts and MCP servers against the one process layer (@skillctx/process), each
// run in a separate process (runIsolated): wall time and peak memory are measured there, so a command
// that hangs or floods fails one test instead of the run. Bounds are generous and stated in each
// test's name. Where a test looks for leftovers it reads /proc: a zombie counts as gone (PID 1 of a
// container may never reap one), anything else that still runs is a failure.
import { describe, expect, it } from "vitest";
import { fixture } from "../../packages/mcp-bridge/src/test-utils.js";
import { runIsolated, type IsolatedResult } from "./isolated.js";

// Not public API: the isolated scripts take it from its source module (they run from a temporary folder).
const GROUP_MODULE = JSON.stringify(new URL("../../packages/process/src/group.ts", import.meta.url).href);

/** Helpers every script starts with: a unique marker and /proc look-ups by command line. */
const PRELUDE = `
import { readdirSync, readFileSync } from "node:fs";
const marker = () => String(3000 + (process.pid % 1000)) + "." + String(Date.now() % 100000);
function live(text) {
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync("/proc/" + entry + "/cmdline", "utf8").split("\\0").join(" ");
      const stat = readFileSync("/proc/" + entry + "/stat", "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (cmdline.includes(text) && state !== "Z" && state !== "X") found.push(Number(entry));
    } catch {}
  }
  return found;
}
function killAll(text) {
  for (const pid of live(text)) { try { process.kill(pid, "SIGKILL"); } catch {} }
}
const timed = async (work) => { const started = performance.now(); const value = await work(); return { ms: performance.now() - started, value }; };
// A shell snippet that starts \`sleep <tag>\` in a new session (out of reach of any group kill) and waits until it is there.
let daemons = 0;
const daemon = (tag, redirect = "") => {
  const flag = "/tmp/skillctx-adv-daemon-" + process.pid + "-" + ++daemons;
  return "setsid sh -c 'touch " + flag + "; exec sleep " + tag + "' " + redirect + " & while [ ! -e " + flag + " ]; do sleep 0.01; done; rm -f " + flag + "; ";
};
`;

function expectClean<T>(run: IsolatedResult<T>, bounds: { seconds: number; mb: number }): T {
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.failed, run.stderr).toBe(false);
  expect(run.wallMs).toBeLessThan(bounds.seconds * 1000);
  expect(run.maxRssMb).toBeLessThan(bounds.mb);
  console.info(
    `${expect.getState().currentTestName ?? "?"}: ${Math.round(run.wallMs)} ms, ${Math.round(run.maxRssMb)} MB`,
  );
  return run.value!;
}

const isolated = <T>(source: string, seconds: number, input?: unknown) =>
  runIsolated<T>(PRELUDE + source, { timeoutMs: seconds * 1000 + 20_000, input });

describe("processes that hold the pipes, flood, ignore signals or multiply (separate process)", () => {
  it("a setsid daemon holding stdout: a command, a rendered !`cmd` and a skill script each return within their 1 s timeout + 3 s, and it is reported", async () => {
    interface Out {
      runs: { label: string; ms: number; pipesHeldOpen?: boolean; timedOut?: boolean; text?: string }[];
      daemonsSeen: number;
    }
    const run = await isolated<Out>(
      `
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "@skillctx/process";
import { renderCommands } from "@skillctx/render";
import { AgentContext } from "skillctx";
export default async function () {
  const tag = marker();
  const cwd = mkdtempSync(join(tmpdir(), "skillctx-adv-proc-"));
  const runs = [];
  let daemonsSeen = 0;
  try {
    // The leader exits at once; its daemon keeps stdout open for 300 s.
    let r = await timed(() => runProcess(daemon(tag) + "echo started", { cwd, timeoutMs: 1000 }));
    runs.push({ label: "exits, daemon holds stdout", ms: r.ms, pipesHeldOpen: r.value.pipesHeldOpen, timedOut: r.value.timedOut, text: r.value.stdout });
    // The leader runs on too: the timeout stops it, the daemon still holds stdout.
    r = await timed(() => runProcess(daemon(tag) + "echo started; sleep " + tag, { cwd, timeoutMs: 1000 }));
    runs.push({ label: "runs on, daemon holds stdout", ms: r.ms, pipesHeldOpen: r.value.pipesHeldOpen, timedOut: r.value.timedOut, text: r.value.stdout });
    // The daemon holds stderr only.
    r = await timed(() => runProcess(daemon(tag, ">/dev/null") + "echo started", { cwd, timeoutMs: 1000 }));
    runs.push({ label: "daemon holds stderr", ms: r.ms, pipesHeldOpen: r.value.pipesHeldOpen, timedOut: r.value.timedOut, text: r.value.stdout });
    const rendered = await timed(() => renderCommands("Up: !\`" + daemon(tag) + "echo yes\`", { cwd, timeoutMs: 1000 }));
    runs.push({ label: "renderCommands", ms: rendered.ms, text: rendered.value.text });
    // A skill script that daemonises.
    const skill = join(cwd, "skills", "daemon");
    mkdirSync(join(skill, "scripts"), { recursive: true });
    writeFileSync(join(skill, "SKILL.md"), "---\\nname: daemon\\ndescription: Starts a daemon.\\n---\\nRun scripts/start.sh.\\n");
    writeFileSync(join(skill, "scripts", "start.sh"), daemon(tag) + "\\necho started\\n");
    chmodSync(join(skill, "scripts", "start.sh"), 0o755);
    const ctx = await AgentContext.create({ cwd, skills: [join(cwd, "skills")], guidance: false, tools: { skillTools: { scripts: { timeoutMs: 1000 } } } });
    try {
      const s = await timed(() => ctx.callTool("run_skill_script", { name: "daemon", script: "scripts/start.sh" }));
      runs.push({ label: "run_skill_script", ms: s.ms, text: s.value.content });
    } finally {
      await ctx.close();
    }
    daemonsSeen = live("sleep " + tag).length;
  } finally {
    killAll("sleep " + tag);
    rmSync(cwd, { recursive: true, force: true });
  }
  return { runs, daemonsSeen };
}
`,
      60,
    );
    const out = expectClean(run, { seconds: 60, mb: 400 });
    for (const r of out.runs) expect(r.ms, r.label).toBeLessThan(1000 + 3000);
    const [exits, runsOn, stderrOnly, rendered, script] = out.runs;
    expect(exits).toMatchObject({ pipesHeldOpen: true, timedOut: false, text: "started\n" });
    expect(runsOn).toMatchObject({ pipesHeldOpen: true, timedOut: true, text: "started\n" });
    expect(stderrOnly).toMatchObject({ pipesHeldOpen: true, timedOut: false, text: "started\n" });
    expect(rendered?.text).toBe("Up: yes");
    expect(script?.text).toContain("started");
    expect(script?.text).toContain("kept its output open");
    expect(out.daemonsSeen).toBeGreaterThan(0); // they escaped the group: reported, and cleaned up by this test
    console.info(
      `setsid daemons: ${out.runs.map((r) => `${r.label} ${Math.round(r.ms)} ms`).join(", ")}; peak ${Math.round(run.maxRssMb)} MB`,
    );
  });

  it("`yes` flooding stdout stops at the 50 KiB cap, 20 times over, in < 10 s and < 250 MB (timeout 60 s)", async () => {
    const run = await isolated<{ results: { bytes: number; truncated: boolean; timedOut: boolean }[] }>(
      `
import { runProcess } from "@skillctx/process";
export default async function () {
  const results = [];
  for (let i = 0; i < 20; i++) {
    const r = await runProcess("yes", { cwd: "/", timeoutMs: 60_000 });
    results.push({ bytes: Buffer.byteLength(r.stdout), truncated: r.truncated, timedOut: r.timedOut });
  }
  return { results };
}
`,
      10,
    );
    const out = expectClean(run, { seconds: 10, mb: 250 });
    expect(out.results).toHaveLength(20);
    for (const r of out.results) expect(r).toEqual({ bytes: 51_200, truncated: true, timedOut: false });
  });

  it("`yes` flooding stderr (which is capped but not stopped) ends at the 2 s timeout, in < 2 s + 3 s and < 250 MB", async () => {
    const run = await isolated<{ ms: number; stderrBytes: number; stderrTruncated: boolean; timedOut: boolean }>(
      `
import { runProcess } from "@skillctx/process";
export default async function () {
  const r = await timed(() => runProcess("yes >&2", { cwd: "/", timeoutMs: 2000 }));
  return { ms: r.ms, stderrBytes: Buffer.byteLength(r.value.stderr), stderrTruncated: r.value.stderrTruncated, timedOut: r.value.timedOut };
}
`,
      5,
    );
    const out = expectClean(run, { seconds: 5, mb: 250 });
    expect(out).toMatchObject({ stderrBytes: 51_200, stderrTruncated: true, timedOut: true });
    expect(out.ms).toBeLessThan(5000);
  });

  it("a group that ignores SIGTERM is killed with SIGKILL: returns within its 500 ms timeout + 500 ms grace + 3 s, nothing left", async () => {
    const run = await isolated<{ ms: number; exitSignal?: string; timedOut: boolean; left: number }>(
      `
import { runProcess } from "@skillctx/process";
export default async function () {
  const tag = marker();
  const r = await timed(() => runProcess("trap '' TERM; sleep " + tag + " & sleep " + tag + " & sleep " + tag + "; wait", { cwd: "/", timeoutMs: 500, killGraceMs: 500 }));
  const left = live("sleep " + tag).length;
  killAll("sleep " + tag);
  return { ms: r.ms, exitSignal: r.value.exitSignal, timedOut: r.value.timedOut, left };
}
`,
      4,
    );
    const out = expectClean(run, { seconds: 10, mb: 250 });
    expect(out).toMatchObject({ exitSignal: "SIGKILL", timedOut: true, left: 0 });
    expect(out.ms).toBeLessThan(500 + 500 + 3000);
  });

  it("abort in the middle of a run rejects with the reason within 3 s of the abort, nothing left", async () => {
    const run = await isolated<{ afterAbortMs: number; rejectedWith: string; left: number }>(
      `
import { runProcess } from "@skillctx/process";
export default async function () {
  const tag = marker();
  const controller = new AbortController();
  let abortedAt = 0;
  setTimeout(() => { abortedAt = performance.now(); controller.abort(new Error("user stopped")); }, 300);
  let rejectedWith = "(resolved)";
  try {
    await runProcess("trap '' TERM; sleep " + tag + " & " + daemon(tag) + "sleep " + tag, { cwd: "/", timeoutMs: 120_000, signal: controller.signal });
  } catch (error) {
    rejectedWith = error.message;
  }
  const afterAbortMs = performance.now() - abortedAt;
  // The setsid one left the group on purpose; the others must be gone.
  const left = live("sleep " + tag).length;
  killAll("sleep " + tag);
  return { afterAbortMs, rejectedWith, left };
}
`,
      5,
    );
    const out = expectClean(run, { seconds: 10, mb: 250 });
    expect(out.rejectedWith).toBe("user stopped");
    expect(out.afterAbortMs).toBeLessThan(3000);
    expect(out.left).toBe(1); // the setsid sleep only
  });

  it("a tree of 200 children and grandchildren is gone after its 1 s timeout, within 1 s + 10 s and < 300 MB (/proc)", async () => {
    const run = await isolated<{ ms: number; timedOut: boolean; before: number; left: number }>(
      `
import { runProcess } from "@skillctx/process";
export default async function () {
  const tag = marker();
  // 100 subshells, each with a child and a grandchild that ignore SIGTERM.
  const script = "for i in $(seq 100); do (trap '' TERM; sleep " + tag + " & sleep " + tag + "; wait) & done; sleep 0.5; echo ready; wait";
  let before = 0;
  const pending = runProcess(script, { cwd: "/", timeoutMs: 1500, killGraceMs: 300 });
  await new Promise((resolve) => setTimeout(resolve, 1200));
  before = live("sleep " + tag).length;
  const r = await timed(() => pending);
  const left = live("sleep " + tag).length;
  killAll("sleep " + tag);
  return { ms: r.ms, timedOut: r.value.timedOut, before, left };
}
`,
      12,
    );
    const out = expectClean(run, { seconds: 15, mb: 300 });
    expect(out.timedOut).toBe(true);
    expect(out.before).toBeGreaterThanOrEqual(150); // most of the 200 sleeps were running at the time
    expect(out.left).toBe(0);
    expect(out.ms).toBeLessThan(10_000);
  });
});

describe("the environment a child gets (separate process)", () => {
  it("exported shell functions and secret variables never reach a command, a rendered !`cmd`, a skill script or an MCP server (< 30 s)", async () => {
    const run = await isolated<{
      command: string;
      bashFunction: string;
      rendered: string;
      script: string;
      server: Record<string, string>;
    }>(
      `
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess } from "@skillctx/process";
import { renderCommands } from "@skillctx/render";
import { createMcpBridge } from "@skillctx/mcp-bridge";
import { AgentContext } from "skillctx";
export default async function ({ server }) {
  process.env.OPENAI_API_KEY = "sk-LEAKED-openai";
  process.env.AWS_SECRET_ACCESS_KEY = "LEAKED-aws";
  process.env.GITHUB_TOKEN = "LEAKED-gh";
  process.env["BASH_FUNC_ls%%"] = "() { echo LEAKED-function; }";
  process.env.LC_EVIL = "() { :; }; echo LEAKED-shellshock";
  process.env.LANG = "() { echo LEAKED-lang; }";
  const cwd = mkdtempSync(join(tmpdir(), "skillctx-adv-env-"));
  const command = (await runProcess("env", { cwd })).stdout;
  const bashFunction = (await runProcess({ file: "bash", args: ["-c", "ls / >/dev/null; type ls"] }, { cwd })).stdout;
  const rendered = (await renderCommands("!\`env\`", { cwd })).text;
  const skill = join(cwd, "skills", "envy");
  mkdirSync(join(skill, "scripts"), { recursive: true });
  writeFileSync(join(skill, "SKILL.md"), "---\\nname: envy\\ndescription: Prints its environment.\\n---\\nRun scripts/env.sh.\\n");
  writeFileSync(join(skill, "scripts", "env.sh"), "env; type ls\\n");
  const ctx = await AgentContext.create({ cwd, skills: [join(cwd, "skills")], guidance: false });
  let script;
  try {
    script = (await ctx.callTool("run_skill_script", { name: "envy", script: "scripts/env.sh" })).content;
  } finally {
    await ctx.close();
  }
  const bridge = await createMcpBridge([{ name: "envsrv", config: { type: "stdio", command: process.execPath, args: [server], env: { OWN: "given" } }, trusted: true }], { start: ["envsrv"] });
  const serverEnv = {};
  try {
    for (const name of ["OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "BASH_FUNC_ls%%", "LC_EVIL", "LANG", "OWN", "PATH"]) {
      serverEnv[name] = (await bridge.callTool("mcp__envsrv__env", { name })).content;
    }
  } finally {
    await bridge.close();
    rmSync(cwd, { recursive: true, force: true });
  }
  return { command, bashFunction, rendered, script, server: serverEnv };
}
`,
      30,
      { server: fixture("server.mjs") },
    );
    const out = expectClean(run, { seconds: 30, mb: 400 });
    for (const [where, text] of [
      ["command", out.command],
      ["bash", out.bashFunction],
      ["rendered", out.rendered],
      ["script", out.script],
      ["server", JSON.stringify(out.server)],
    ] as const) {
      expect(text, where).not.toContain("LEAKED");
    }
    expect(out.command).toContain("PATH=");
    expect(out.bashFunction).toContain("/ls"); // `type ls` finds the program, not a function
    expect(out.server).toMatchObject({
      OPENAI_API_KEY: "(unset)",
      "BASH_FUNC_ls%%": "(unset)",
      LC_EVIL: "(unset)",
      LANG: "(unset)",
      OWN: "given",
    });
    expect(out.server.PATH).not.toBe("(unset)");
  });
});

describe("closing leaves nothing running (separate process, /proc)", () => {
  it("closing a scope stops its commands and its long-lived children with their whole groups, in < 10 s", async () => {
    const run = await isolated<{
      pgids: number[];
      groupsLeft: number[];
      left: number;
      rejected: string;
      closeMs: number;
      running: number;
    }>(
      `
import { createProcessScope, runProcess, spawnGroup } from "@skillctx/process";
import { processesInGroup } from ${GROUP_MODULE};
export default async function () {
  const tag = marker();
  const scope = createProcessScope();
  let rejected = "(resolved)";
  const command = runProcess("trap '' TERM; sleep " + tag + " & sleep " + tag + " & wait", { cwd: "/", scope, timeoutMs: 120_000, killGraceMs: 200 })
    .catch((error) => { rejected = error.code; });
  const children = await Promise.all([
    spawnGroup("sleep " + tag + " & sleep " + tag + " & exec sleep " + tag, { scope, closeGraceMs: 200 }),
    spawnGroup("trap '' TERM; sleep " + tag + " & wait", { scope, closeGraceMs: 200 }),
    spawnGroup({ file: process.execPath, args: ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); require('child_process').spawn('sleep', ['" + tag + "'])"] }, { scope, closeGraceMs: 200 }),
  ]);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const running = scope.running;
  const pgids = children.map((c) => c.pid);
  const closed = await timed(() => scope.close());
  await command;
  const groupsLeft = pgids.flatMap((pgid) => processesInGroup(pgid));
  const left = live("sleep " + tag).length;
  killAll("sleep " + tag);
  return { pgids, groupsLeft, left, rejected, closeMs: closed.ms, running };
}
`,
      10,
    );
    const out = expectClean(run, { seconds: 15, mb: 300 });
    expect(out.running).toBe(4);
    expect(out.rejected).toBe("PROCESS_CLOSED");
    expect(out.groupsLeft).toEqual([]);
    expect(out.left).toBe(0);
    expect(out.closeMs).toBeLessThan(10_000);
  });

  it("an MCP bridge's close() leaves no process of a server's group, wrapper and children included (< 20 s)", async () => {
    const run = await isolated<{ pgid: number; before: number[]; after: number[]; left: number }>(
      `
import { createMcpBridge } from "@skillctx/mcp-bridge";
import { processesInGroup } from ${GROUP_MODULE};
export default async function ({ server }) {
  const tag = marker();
  const script = "sleep " + tag + " & \\"" + process.execPath + "\\" \\"" + server + "\\" --stubborn";
  const bridge = await createMcpBridge([{ name: "wrapped", config: { type: "stdio", command: "sh", args: ["-c", script] }, trusted: true }], { start: ["wrapped"], shutdownGraceMs: 300 });
  await bridge.callTool("mcp__wrapped__spawn_child", {});
  const pgid = bridge.servers()[0].pid;
  const before = processesInGroup(pgid);
  await bridge.close();
  const after = processesInGroup(pgid);
  const left = live("sleep " + tag).length;
  killAll("sleep " + tag);
  return { pgid, before, after, left };
}
`,
      20,
      { server: fixture("server.mjs") },
    );
    const out = expectClean(run, { seconds: 20, mb: 400 });
    expect(out.before.length).toBeGreaterThanOrEqual(4); // sh, sleep, the server, its spawned child
    expect(out.after).toEqual([]);
    expect(out.left).toBe(0);
  });
});
