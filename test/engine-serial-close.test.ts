import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SkillctxError } from "@skillctx/core";
import type { SkillInit } from "@skillctx/core";

import { useEngineFixture, user } from "./helpers/engine-fixture.js";

const { repo, context } = useEngineFixture();

/** A trusted (programmatic) keyword skill whose command appends a line to `counter` each time it runs. */
function countingSkill(counter: string, keyword = "tally"): SkillInit {
  return {
    name: "counting",
    description: "Counts its renders.",
    content: `Runs so far: !\`echo x >> '${counter}'; wc -l < '${counter}'\`\n`,
    source: { kind: "inline", format: "inline", scope: "programmatic" },
    trigger: { type: "keyword", keywords: [keyword] },
  };
}

/** Pids of live processes whose command line contains `text` (Linux /proc). */
function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (cmdline.includes(text) && !/^\d+ \(.*\) Z/.test(stat)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

function expectClosed(error: unknown): void {
  expect(SkillctxError.isInstance(error)).toBe(true);
  expect((error as SkillctxError).code).toBe("CONTEXT_CLOSED");
}

describe("AgentContext: steps on one context are serialised", () => {
  it("two concurrent buildContext calls on the same history attach the skill once and run its command once", async () => {
    const dir = (await repo()).dir;
    const counter = path.join(dir, "counter.txt");
    const ctx = await context({ cwd: dir, skills: [countingSkill(counter)] });
    const history = [user("tally please")];
    const [a, b] = await Promise.all([ctx.buildContext(history), ctx.buildContext(history)]);
    expect(lines(counter)).toBe(1);
    expect(a.activated.map((x) => x.skill)).toEqual(["counting"]);
    expect(b.activated).toEqual([]);
    expect(b.messages).toEqual(a.messages);
    expect(JSON.stringify(a.messages)).toContain("Runs so far: 1");
    expect(ctx.state.attachments.map((x) => x.skill)).toEqual(["counting"]);
  });

  it("ten concurrent steps over growing copies of the history still attach once", async () => {
    const dir = (await repo()).dir;
    const counter = path.join(dir, "counter.txt");
    const ctx = await context({ cwd: dir, skills: [countingSkill(counter)] });
    const steps = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ctx.buildContext([user("tally please"), ...Array.from({ length: i }, (_, j) => user(`more ${j}`))]),
      ),
    );
    expect(lines(counter)).toBe(1);
    expect(steps.flatMap((s) => s.activated).map((x) => x.skill)).toEqual(["counting"]);
    expect(ctx.state.attachments).toHaveLength(1);
  });

  it("a skill-tool call made during a step runs after it: its activation is reported by the next step", async () => {
    const dir = (await repo()).dir;
    const slow: SkillInit = {
      name: "slow",
      description: "Renders slowly.",
      content: "Waited: !`sleep 0.3; echo done`\n",
      source: { kind: "inline", format: "inline", scope: "programmatic" },
      trigger: { type: "keyword", keywords: ["slowpoke"] },
    };
    const notes: SkillInit = {
      name: "notes",
      description: "Take notes.",
      content: "Write notes.",
      source: { kind: "inline", format: "inline", scope: "programmatic" },
      trigger: { type: "on-demand" },
    };
    const ctx = await context({ cwd: dir, skills: [slow, notes] });
    const step = ctx.buildContext([user("slowpoke")]);
    const load = ctx.callTool("load_skill", { name: "notes" });
    const first = await step;
    expect(first.activated).toEqual([{ skill: "slow", trigger: "keyword", match: "slowpoke", messageIndex: 0 }]);
    expect((await load).isError).toBeUndefined();
    const second = await ctx.buildContext([user("slowpoke")]);
    expect(second.activated).toEqual([{ skill: "notes", trigger: "load" }]);
  });

  it("an aborted caller signal drops a call still waiting for its turn, and the queue goes on", async () => {
    const dir = (await repo()).dir;
    const counter = path.join(dir, "counter.txt");
    const ctx = await context({ cwd: dir, skills: [countingSkill(counter)] });
    const controller = new AbortController();
    const first = ctx.buildContext([user("tally")]);
    const dropped = ctx.buildContext([user("tally"), user("again")], { signal: controller.signal });
    controller.abort(new Error("stop waiting"));
    await expect(dropped).rejects.toThrow("stop waiting");
    expect((await first).activated.map((a) => a.skill)).toEqual(["counting"]);
    const next = await ctx.buildContext([user("tally"), user("again")]);
    expect(next.activated).toEqual([]);
    expect(lines(counter)).toBe(1);
  });
});

describe("AgentContext: close()", () => {
  it("every public method rejects with CONTEXT_CLOSED afterwards and runs nothing; the state stays readable", async () => {
    const dir = (await repo()).dir;
    const counter = path.join(dir, "counter.txt");
    const executed: string[] = [];
    const ctx = await context({
      cwd: dir,
      skills: [countingSkill(counter)],
      tools: {
        host: [{ name: "Echo", execute: (args) => void executed.push(JSON.stringify(args)) }],
      },
    });
    await ctx.buildContext([user("hello")]);
    const saved = ctx.state;
    await ctx.close();

    expectClosed(await rejection(ctx.buildContext([user("tally now")])));
    expectClosed(await rejection(ctx.callTool("Echo", { text: "hi" })));
    expectClosed(await rejection(ctx.callTool("load_skill", { name: "counting" })));
    expectClosed(await rejection(ctx.callTool("no_such_tool", {})));
    expectClosed(await rejection(ctx.setSkills([])));
    expectClosed(await rejection(ctx.refresh()));
    let thrown: unknown;
    try {
      ctx.listTools();
    } catch (error) {
      thrown = error;
    }
    expectClosed(thrown);

    expect(executed).toEqual([]);
    expect(lines(counter)).toBe(0);
    expect(ctx.state).toEqual(saved);
    expect(ctx.skills.map((s) => s.name)).toEqual(["counting"]);
  });

  it("is idempotent: later calls give the same promise", async () => {
    const ctx = await context({ cwd: (await repo()).dir });
    const first = ctx.close();
    const second = ctx.close();
    expect(second).toBe(first);
    await first;
    await ctx.close();
    await ctx[Symbol.asyncDispose]();
  });

  it("aborts a step in flight: it rejects with CONTEXT_CLOSED and records nothing", async () => {
    const dir = (await repo()).dir;
    const marker = path.join(dir, "finished.txt");
    const slow: SkillInit = {
      name: "slow",
      description: "Renders slowly.",
      // The command ignores SIGTERM: close() must still leave nothing running when it resolves.
      content: `Waited: !\`trap '' TERM; sleep 20; echo done > '${marker}'\`\n`,
      source: { kind: "inline", format: "inline", scope: "programmatic" },
      trigger: { type: "keyword", keywords: ["slowpoke"] },
    };
    const ctx = await context({ cwd: dir, skills: [slow] });
    const step = rejection(ctx.buildContext([user("slowpoke")]));
    const queued = rejection(ctx.buildContext([user("slowpoke"), user("more")]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await ctx.close();
    // Read at once: close() resolved only once the command's process group was gone (SIGKILL after the grace).
    const left = processesMentioning(marker);
    expectClosed(await step);
    expectClosed(await queued);
    expect(ctx.state.attachments).toEqual([]);
    expect(left).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it("aborts a host tool in flight through its signal", async () => {
    let aborted = false;
    const ctx = await context({
      cwd: (await repo()).dir,
      tools: {
        host: [
          {
            name: "Wait",
            execute: (_args, { signal }) =>
              new Promise((_resolve, reject) => {
                signal?.addEventListener("abort", () => {
                  aborted = true;
                  reject(signal.reason);
                });
              }),
          },
        ],
      },
    });
    const call = rejection(ctx.callTool("Wait", {}));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await ctx.close();
    expectClosed(await call);
    expect(aborted).toBe(true);
  });
});
