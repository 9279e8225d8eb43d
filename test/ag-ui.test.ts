// skillctx/ag-ui: a session's events as AG-UI events, every one checked against @ag-ui/core's own zod
// schemas; the snapshot plus the deltas rebuild the skills' state exactly; tool calls pair up.
import { EventSchemas } from "@ag-ui/core/schemas";
import fastJsonPatch from "fast-json-patch";
import { describe, expect, it } from "vitest";
import { z } from "./helpers/zod.js";
import { defineSkill } from "skillctx";
import type { SkillctxEvent } from "skillctx";
import { AgUiEventMapper, agUiStateSnapshot, streamAgUiEvents } from "skillctx/ag-ui";
import type { AgUiEvent } from "skillctx/ag-ui";
import { user, useEngineFixture } from "./helpers/engine-fixture.js";

const fixture = useEngineFixture();

const basket = defineSkill({
  name: "basket",
  description: "Keeps a shopping basket. Use when the user adds or removes items.",
  instructions: "Call add for each item; remove to take one out.",
  state: {
    schema: z.object({ items: z.array(z.string()), total: z.number() }),
    initial: { items: [], total: 0 },
    namespace: "shop/basket",
  },
  tools: {
    add: {
      description: "Adds an item with its price.",
      inputSchema: z.object({ item: z.string(), price: z.number() }),
      execute: ({ item, price }, { state }) => {
        state.update((s) => ({ items: [...s.items, item], total: s.total + price }));
        return state.get();
      },
    },
    remove: {
      description: "Removes an item.",
      inputSchema: z.object({ item: z.string() }),
      execute: ({ item }, { state }) => {
        state.update((s) => ({ ...s, items: s.items.filter((i) => i !== item) }));
        return "removed";
      },
    },
  },
});

const DOCKER = "---\nname: docker\ndescription: Builds containers.\ntriggers: [docker]\n---\nUse multi-stage builds.\n";

function checkAll(events: AgUiEvent[]): void {
  for (const event of events) {
    const parsed = EventSchemas.safeParse(event);
    expect(parsed.success, `${event.type}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
    // What travels is JSON: the event survives a round trip unchanged.
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
  }
}

describe("the AG-UI mapping of a session", () => {
  it("every event validates against @ag-ui/core's schemas; snapshot + deltas rebuild the state; tool calls pair up", async () => {
    const repo = await fixture.repo({ ".agents/skills/docker/SKILL.md": DOCKER });
    const ctx = await fixture.context({ cwd: repo.dir, skills: [basket] });
    const sent: AgUiEvent[] = [];
    const stop = streamAgUiEvents(ctx, (event) => void sent.push(event), { now: () => 1_700_000_000_000 });

    await ctx.buildContext([user("docker and a basket")]);
    await ctx.callTool("load_skill", { name: "basket" });
    expect((await ctx.callTool("add", { item: "apples", price: 3 })).isError).toBeUndefined();
    expect((await ctx.callTool("add", { item: "pears/ripe~1", price: 2.5 })).isError).toBeUndefined();
    expect((await ctx.callTool("remove", { item: "apples" })).isError).toBeUndefined();
    const invalid = await ctx.callTool("add", { item: 7 });
    expect(invalid.isError).toBe(true);
    await ctx.callTool("unload_skill", { name: "basket" });
    await ctx.buildContext([user("docker and a basket"), user("thanks")]);
    stop();
    await ctx.buildContext([user("after stop")]);

    checkAll(sent);
    const types = sent.map((e) => e.type);
    expect(types[0]).toBe("STATE_SNAPSHOT");
    expect(types.filter((t) => t === "STATE_DELTA")).toHaveLength(3);

    // Snapshot, then every delta applied in order, gives the state the context holds.
    const [snapshot, ...rest] = sent;
    let state = structuredClone((snapshot as { snapshot: unknown }).snapshot);
    expect(state).toEqual({ "shop/basket": { items: [], total: 0 } });
    for (const event of rest) {
      if (event.type === "STATE_DELTA")
        state = fastJsonPatch.applyPatch(state, event.delta as fastJsonPatch.Operation[], true, false).newDocument;
    }
    expect(state).toEqual(ctx.state.skillStates);
    expect(state).toEqual({ "shop/basket": { items: ["pears/ripe~1"], total: 5.5 } });
    // The namespace's "/" is escaped in the pointers.
    const firstDelta = rest.find((e) => e.type === "STATE_DELTA") as { delta: { path: string }[] };
    expect(firstDelta.delta.every((op) => op.path.startsWith("/shop~1basket/"))).toBe(true);

    // Tool calls: START, ARGS, END with one id each, in order; the arguments are the JSON the call got.
    const calls = sent.filter((e) => e.type.startsWith("TOOL_CALL_")) as (AgUiEvent & { toolCallId: string })[];
    const ids = [...new Set(calls.map((e) => e.toolCallId))];
    expect(ids).toHaveLength(6);
    for (const id of ids)
      expect(calls.filter((e) => e.toolCallId === id).map((e) => e.type)).toEqual([
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
      ]);
    const start = calls.find(
      (e) => e.type === "TOOL_CALL_START" && (e as { toolCallName: string }).toolCallName === "add",
    )!;
    const args = calls.find((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === start.toolCallId) as {
      delta: string;
    };
    expect(JSON.parse(args.delta)).toEqual({ item: "apples", price: 3 });
    expect(start.metadata).toEqual({ skillctx: { skill: "basket", kind: "code" } });
    const failedEnd = calls
      .filter((e) => e.type === "TOOL_CALL_END")
      .find((e) => (e.metadata as { skillctx: { isError: boolean } }).skillctx.isError)!;
    expect((failedEnd.metadata as { skillctx: { error: string } }).skillctx.error).toBe(invalid.content);

    // Everything else is CUSTOM, named after the skillctx event.
    const custom = sent.filter((e) => e.type === "CUSTOM") as { name: string; value: Record<string, unknown> }[];
    expect(custom.map((e) => e.name)).toEqual([
      "skillctx.skill.activated",
      "skillctx.step",
      "skillctx.skill.activated",
      "skillctx.skill.unloaded",
      "skillctx.step",
    ]);
    expect(custom[0]!.value).toEqual({ skill: "docker", trigger: "keyword", match: "docker", messageIndex: 0 });
    // Nothing after stop().
    expect(sent.every((e) => e.timestamp === 1_700_000_000_000)).toBe(true);
    expect(custom.filter((e) => e.name === "skillctx.step")).toHaveLength(2);
  });

  it("a delta for a namespace the consumer has not seen becomes a snapshot", () => {
    let states: Record<string, unknown> = {};
    const mapper = new AgUiEventMapper(() => states);
    const first = mapper.snapshot();
    expect(first.snapshot).toEqual({});
    states = { fresh: { n: 1 } };
    const delta: SkillctxEvent = {
      type: "state.delta",
      namespace: "fresh",
      skill: "s",
      patch: [{ op: "replace", path: "/n", value: 1 }],
    };
    const mapped = mapper.map(delta);
    expect(mapped.map((e) => e.type)).toEqual(["STATE_SNAPSHOT"]);
    expect((mapped[0] as { snapshot: unknown }).snapshot).toEqual({ fresh: { n: 1 } });
    // Known from now on: the next delta is a delta, and a root operation sets the namespace's key.
    const root = mapper.map({
      type: "state.delta",
      namespace: "fresh",
      skill: "s",
      patch: [{ op: "replace", path: "", value: { n: 2 } }],
    });
    expect(root).toMatchObject([{ type: "STATE_DELTA", delta: [{ op: "add", path: "/fresh", value: { n: 2 } }] }]);
    const moved = mapper.map({
      type: "state.delta",
      namespace: "fresh",
      skill: "s",
      patch: [
        { op: "move", from: "/a", path: "/b" },
        { op: "remove", path: "/c" },
      ],
    });
    expect(moved).toMatchObject([
      {
        type: "STATE_DELTA",
        delta: [
          { op: "move", from: "/fresh/a", path: "/fresh/b" },
          { op: "remove", path: "/fresh/c" },
        ],
      },
    ]);
    checkAll([first, ...mapped, ...root, ...moved]);
  });

  it("options: no snapshot, CUSTOM for listed types only, a tool call id prefix", async () => {
    const repo = await fixture.repo({ ".agents/skills/docker/SKILL.md": DOCKER });
    const ctx = await fixture.context({
      cwd: repo.dir,
      tools: {
        host: [{ name: "echo", execute: (args) => JSON.stringify(args) }],
      },
    });
    const sent: AgUiEvent[] = [];
    streamAgUiEvents(ctx, (event) => void sent.push(event), {
      snapshot: false,
      custom: ["skill.activated"],
      toolCallIdPrefix: "ctx1-",
    });
    await ctx.buildContext([user("docker")]);
    await ctx.callTool("echo", '{"raw":true}');
    checkAll(sent);
    expect(sent.map((e) => e.type)).toEqual(["CUSTOM", "TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END"]);
    expect((sent[1] as { toolCallId: string }).toolCallId).toBe("ctx1-call-1");
    // Arguments sent as a JSON string are passed on as they are.
    expect((sent[2] as { delta: string }).delta).toBe('{"raw":true}');
  });

  it("agUiStateSnapshot of a fresh context is the declared initial states", async () => {
    const repo = await fixture.repo({});
    const ctx = await fixture.context({ cwd: repo.dir, skills: [basket] });
    const event = agUiStateSnapshot(ctx);
    checkAll([event]);
    expect(event.snapshot).toEqual({ "shop/basket": { items: [], total: 0 } });
  });

  it("a send that throws is the context's EVENT_LISTENER_FAILED diagnostic; the step goes on", async () => {
    const repo = await fixture.repo({ ".agents/skills/docker/SKILL.md": DOCKER });
    const ctx = await fixture.context({ cwd: repo.dir });
    let sent = 0;
    // The snapshot goes out; every later send throws.
    streamAgUiEvents(ctx, () => {
      if (sent++ > 0) throw new Error("socket closed");
    });
    const step = await ctx.buildContext([user("docker")]);
    expect(step.activated.map((a) => a.skill)).toEqual(["docker"]);
    const next = await ctx.buildContext([user("docker"), user("more")]);
    expect(
      next.diagnostics.some((d) => d.code === "EVENT_LISTENER_FAILED" && d.message.includes("socket closed")),
    ).toBe(true);
  });
});
