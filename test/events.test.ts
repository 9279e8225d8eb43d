// The event stream of a context (`ctx.on`, `onEvent`): what a scripted session emits, in which order,
// with which fields; a throwing listener is a diagnostic of the next step; nothing is built without a listener.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillctxEvent } from "skillctx";
import { ROOT } from "./helpers/cli.js";
import { user, useEngineFixture } from "./helpers/engine-fixture.js";

const fixture = useEngineFixture();

const DOCKER = `---
name: docker
description: Builds and runs containers.
triggers: [docker]
---
Use multi-stage builds. Version: !\`echo 27.1\`
`;
const PDF = `---
name: pdf
description: Fills PDF forms.
---
Read reference.md before filling a form.
`;
const XLSX = `---
name: xlsx
description: Edits spreadsheets.
---
Keep formulas.
`;

async function session() {
  const repo = await fixture.repo({
    ".agents/skills/docker/SKILL.md": DOCKER,
    ".agents/skills/pdf/SKILL.md": PDF,
    ".agents/skills/pdf/reference.md": "Field names are case-sensitive.\n",
    ".agents/skills/xlsx/SKILL.md": XLSX,
  });
  const seen: SkillctxEvent[] = [];
  const ctx = await fixture.context({
    cwd: repo.dir,
    trust: { project: true },
    telemetry: {
      onEvent: (event) => void seen.push(event),
    },
  });
  return { ctx, seen, repo };
}

const types = (events: SkillctxEvent[]) => events.map((e) => e.type);
const ofType = <T extends SkillctxEvent["type"]>(events: SkillctxEvent[], type: T) =>
  events.filter((e): e is Extract<SkillctxEvent, { type: T }> => e.type === type);

describe("events of a scripted session", () => {
  it("a step that fires a keyword skill: command.finished, skill.activated, then step", async () => {
    const { ctx, seen } = await session();
    const step = await ctx.buildContext([user("Please deploy this with docker")]);
    expect(types(seen)).toEqual(["command.finished", "skill.activated", "step"]);
    const [command, activated, stepEvent] = seen;
    expect(command).toMatchObject({
      type: "command.finished",
      skill: "docker",
      command: "echo 27.1",
      exitCode: 0,
      truncated: false,
      skipped: false,
    });
    expect(activated).toEqual({
      type: "skill.activated",
      skill: "docker",
      trigger: "keyword",
      match: "docker",
      messageIndex: 0,
    });
    expect(stepEvent).toMatchObject({ type: "step", step: 1, activations: step.activated });
    const event = stepEvent as Extract<SkillctxEvent, { type: "step" }>;
    expect(event.attachments).toEqual([
      { skill: "docker", trigger: "keyword", messageIndex: 0, bytes: Buffer.byteLength(step.attachments[0]!.text) },
    ]);
    expect(event.catalog).toEqual({ level: "full", listed: 3, tokens: ctx.catalog!.tokens });
    expect(event.durationMs).toBeGreaterThanOrEqual(0);
    // A `step` listener asks for usage: the step carries it too.
    expect(event.usage).toBeDefined();
    expect(step.usage).toEqual(event.usage);
  });

  it("tool calls: tool.called / tool.finished pairs with unique call ids, loads, unloads and resource reads", async () => {
    const { ctx, seen } = await session();
    await ctx.buildContext([user("hello")]);
    seen.length = 0;

    const loaded = await ctx.callTool("load_skill", { name: "pdf" });
    expect(loaded.isError).toBeUndefined();
    await ctx.callTool("read_skill_resource", { name: "pdf", path: "reference.md" });
    await ctx.callTool("load_skill", { name: "xlsx" });
    await ctx.callTool("unload_skill", { name: "xlsx" });
    const unknown = await ctx.callTool("no_such_tool", { x: 1 });
    expect(unknown.isError).toBe(true);

    expect(types(seen)).toEqual([
      "tool.called",
      "skill.activated",
      "tool.finished",
      "tool.called",
      "resource.read",
      "tool.finished",
      "tool.called",
      "skill.unloaded",
      "skill.activated",
      "tool.finished",
      "tool.called",
      "skill.unloaded",
      "tool.finished",
      "tool.called",
      "tool.finished",
    ]);
    const called = ofType(seen, "tool.called");
    const finished = ofType(seen, "tool.finished");
    expect(called.map((e) => e.callId)).toEqual(["call-1", "call-2", "call-3", "call-4", "call-5"]);
    expect(finished.map((e) => e.callId)).toEqual(called.map((e) => e.callId));
    expect(called[0]).toEqual({
      type: "tool.called",
      callId: "call-1",
      name: "load_skill",
      kind: "skill",
      skill: undefined,
      args: { name: "pdf" },
    });
    // The active skill when the call was made.
    expect(called[1]!.skill).toBe("pdf");
    expect(finished[0]).toMatchObject({ name: "load_skill", isError: false, bytes: Buffer.byteLength(loaded.content) });
    expect(finished[0]!.error).toBeUndefined();
    expect(finished[4]).toMatchObject({ name: "no_such_tool", kind: undefined, isError: true, error: unknown.content });
    expect(ofType(seen, "skill.activated")).toEqual([
      { type: "skill.activated", skill: "pdf", trigger: "load" },
      { type: "skill.activated", skill: "xlsx", trigger: "load" },
    ]);
    expect(ofType(seen, "skill.unloaded").map((e) => e.skill)).toEqual(["pdf", "xlsx"]);
    expect(ofType(seen, "resource.read")).toEqual([
      {
        type: "resource.read",
        skill: "pdf",
        path: "reference.md",
        bytes: Buffer.byteLength("Field names are case-sensitive.\n"),
      },
    ]);

    // The next step lists the loads among its activations, and does not emit skill.activated for them again.
    seen.length = 0;
    const step = await ctx.buildContext([user("hello")]);
    expect(step.activated.map((a) => `${a.skill}:${a.trigger}`)).toEqual(["pdf:load", "xlsx:load"]);
    expect(types(seen)).toEqual(["step"]);
    expect(ofType(seen, "step")[0]!.step).toBe(2);
  });

  it("the args a listener sees are a copy: changing them changes nothing", async () => {
    const { ctx } = await session();
    await ctx.buildContext([user("hello")]);
    ctx.on("tool.called", (event) => {
      (event.args as { name: string }).name = "xlsx";
    });
    await ctx.callTool("load_skill", { name: "pdf" });
    expect(ctx.activeSkill).toBe("pdf");
  });

  it("a command of an untrusted skill is reported skipped", async () => {
    const repo = await fixture.repo({ ".agents/skills/docker/SKILL.md": DOCKER });
    const ctx = await fixture.context({ cwd: repo.dir });
    const commands: SkillctxEvent[] = [];
    ctx.on("command.finished", (event) => void commands.push(event));
    await ctx.buildContext([user("docker please")]);
    expect(commands).toMatchObject([
      { type: "command.finished", skill: "docker", command: "echo 27.1", skipped: true, exitCode: undefined },
    ]);
  });

  it("listeners by type and '*'; the function ctx.on returns removes the listener", async () => {
    const { ctx } = await session();
    const steps: number[] = [];
    const all: string[] = [];
    const off = ctx.on("step", (event) => void steps.push(event.step));
    ctx.on("*", (event) => void all.push(event.type));
    await ctx.buildContext([user("one")]);
    off();
    await ctx.buildContext([user("one"), user("two")]);
    expect(steps).toEqual([1]);
    expect(all.filter((t) => t === "step")).toHaveLength(2);
  });

  it("a listener that throws is a diagnostic of the next step; the other listeners still run", async () => {
    const { ctx, seen } = await session();
    ctx.on("step", () => {
      throw new Error("listener broke");
    });
    const first = await ctx.buildContext([user("one")]);
    expect(first.diagnostics.map((d) => d.code)).not.toContain("EVENT_LISTENER_FAILED");
    expect(types(seen)).toContain("step");
    const second = await ctx.buildContext([user("one"), user("two")]);
    const failed = second.diagnostics.filter((d) => d.code === "EVENT_LISTENER_FAILED");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.message).toContain("listener broke");
  });

  it("with no listener, a step carries no usage", async () => {
    const repo = await fixture.repo({ ".agents/skills/pdf/SKILL.md": PDF });
    const ctx = await fixture.context({ cwd: repo.dir });
    const step = await ctx.buildContext([user("hello")]);
    expect(step.usage).toBeUndefined();
    expect("usage" in step).toBe(false);
  });

  it("a crashed and restarted MCP server: started, crashed (with the bridge's reason), started, stopped at close", async () => {
    const server = path.join(ROOT, "fixtures/mcp/server.mjs");
    const repo = await fixture.repo({
      ".agents/skills/notes/SKILL.md": "---\nname: notes\ndescription: Uses the notes server.\n---\nCall it.\n",
      ".agents/skills/notes/.mcp.json": JSON.stringify({
        mcpServers: { notes: { command: "node", args: [server, "--name", "notes"] } },
      }),
    });
    const ctx = await fixture.context({ cwd: repo.dir, trust: { project: true } });
    const seen: SkillctxEvent[] = [];
    ctx.on("mcp.server.started", (e) => void seen.push(e));
    ctx.on("mcp.server.crashed", (e) => void seen.push(e));
    ctx.on("mcp.server.stopped", (e) => void seen.push(e));
    await ctx.callTool("load_skill", { name: "notes" });
    await ctx.buildContext([user("hi")]);
    expect(seen).toEqual([{ type: "mcp.server.started", server: "notes", skill: "notes" }]);
    const crashed = await ctx.callTool("mcp__notes__crash", { code: 3 });
    expect(crashed.isError).toBe(true);
    expect(seen[1]).toMatchObject({ type: "mcp.server.crashed", server: "notes", skill: "notes" });
    expect((seen[1] as { reason: string }).reason).toMatch(/notes/);
    // The next call restarts it.
    const pid = await ctx.callTool("mcp__notes__pid", {});
    expect(pid.isError).toBeUndefined();
    expect(seen[2]).toEqual({ type: "mcp.server.started", server: "notes", skill: "notes" });
    await ctx.close();
    expect(seen[3]).toEqual({ type: "mcp.server.stopped", server: "notes", skill: "notes", reason: "closed" });
    expect(seen).toHaveLength(4);
  });
});
