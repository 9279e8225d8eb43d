/**
 * Per-skill state: initial state in `ctx.state`, updates through `toolContext.state` checked after
 * each call, RFC 6902 deltas as `state.delta` events and in the result's metadata, rejected updates
 * that leave the state as it was, and a state that resumes with the conversation.
 */
import { describe, expect, it } from "vitest";
import { AgentContext, defineSkill } from "skillctx";
import type { AgentContextOptions, SkillctxEvent, SkillStateHandle } from "skillctx";
import { jsonPatch } from "../packages/engine/src/code/skill-state.js";
import { useEngineFixture, user } from "./helpers/engine-fixture.js";
import { z } from "./helpers/zod.js";
import { withDefaults } from "./helpers/options.js";

const fixture = useEngineFixture();

const CartSchema = z.object({
  items: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })),
  note: z.string().optional(),
});
type Cart = z.infer<typeof CartSchema>;

const cart = defineSkill({
  name: "cart",
  description: "A shopping cart. Use to add or remove items.",
  instructions: "Use add_item and set_note.",
  state: { schema: CartSchema, initial: { items: [] } },
  tools: {
    add_item: {
      description: "Adds an item",
      inputSchema: z.object({ sku: z.string(), qty: z.number().int() }),
      execute: ({ sku, qty }: { sku: string; qty: number }, { state }: { state: SkillStateHandle<Cart> }) => {
        state.update((c) => ({ ...c, items: [...c.items, { sku, qty }] }));
        return `added ${sku}`;
      },
    },
    set_note: {
      description: "Sets the note",
      inputSchema: z.object({ note: z.unknown() }),
      execute: ({ note }: { note: unknown }, { state }: { state: SkillStateHandle<Cart> }) => {
        state.set({ ...state.get(), note: note as string });
        return "ok";
      },
    },
    peek: {
      description: "Reads the cart",
      inputSchema: z.object({}),
      execute: (_: unknown, { state }: { state: SkillStateHandle<Cart> }) => state.get(),
    },
    replace: {
      description: "Sets a raw state",
      inputSchema: z.object({}),
      execute: (_: unknown, { state }: { state: SkillStateHandle<unknown> }) =>
        state.set({ items: [{ sku: "a", qty: 1 }], extra: new Map() }),
    },
  },
});

async function context(options: Partial<AgentContextOptions> = {}) {
  const repo = await fixture.repo();
  const ctx = await fixture.context(
    withDefaults({ cwd: repo.dir, skills: [cart], tools: { codeTools: "always" } }, options),
  );
  return ctx;
}

describe("per-skill state", () => {
  it("starts from the initial state, readable with ctx.skillState and in ctx.state", async () => {
    const ctx = await context();
    expect(ctx.skillState("cart")).toEqual({ items: [] });
    expect(ctx.state.skillStates).toEqual({ cart: { items: [] } });
  });

  it("takes the schema's parse of {} when no initial is given, and a namespace of its own", async () => {
    const counter = defineSkill({
      name: "counter",
      description: "Counts.",
      instructions: "x",
      state: { schema: z.object({ n: z.number().default(0) }), namespace: "tally" },
      tools: {
        inc: {
          description: "",
          inputSchema: z.object({}),
          execute: (_: unknown, { state }: { state: SkillStateHandle<{ n: number }> }) =>
            state.update((s) => ({ n: s.n + 1 })),
        },
      },
    });
    const ctx = await context({ skills: [counter] });
    expect(ctx.skillState("tally")).toEqual({ n: 0 });
    expect(ctx.skillState("counter")).toBeUndefined();
    await ctx.callTool("inc", {});
    await ctx.callTool("inc", {});
    expect(ctx.skillState("tally")).toEqual({ n: 2 });
  });

  it("commits a change, emits state.delta and puts the same patch in the result's metadata", async () => {
    const ctx = await context();
    const events: SkillctxEvent[] = [];
    ctx.on("state.delta", (event) => events.push(event));
    const result = await ctx.callTool("add_item", { sku: "apple", qty: 2 });
    const patch = [{ op: "add", path: "/items/0", value: { sku: "apple", qty: 2 } }];
    expect(result).toEqual({ content: "added apple", metadata: { stateDelta: { namespace: "cart", patch } } });
    expect(events).toEqual([{ type: "state.delta", namespace: "cart", skill: "cart", patch }]);
    expect(ctx.skillState("cart")).toEqual({ items: [{ sku: "apple", qty: 2 }] });
    // A call that changes nothing yields no delta.
    expect(await ctx.callTool("peek", {})).toEqual({ content: '{"items":[{"sku":"apple","qty":2}]}' });
    expect(events).toHaveLength(1);
  });

  it("rejects a state that fails its schema: an error result, the state unchanged, no event", async () => {
    const ctx = await context();
    const events: SkillctxEvent[] = [];
    ctx.on("state.delta", (event) => events.push(event));
    await ctx.callTool("add_item", { sku: "a", qty: 1 });
    const bad = await ctx.callTool("add_item", { sku: "b", qty: -3 });
    expect(bad.isError).toBe(true);
    expect(bad.content).toBe(
      'The tool "add_item" of the skill "cart" ran, but the new state of "cart" is rejected (the state is unchanged): it fails the skill\'s state schema: items.1.qty: Too small: expected number to be >0',
    );
    expect(ctx.skillState("cart")).toEqual({ items: [{ sku: "a", qty: 1 }] });
    expect(events).toHaveLength(1);
    // The conversation goes on: the next good call works.
    expect((await ctx.callTool("add_item", { sku: "c", qty: 1 })).isError).toBeUndefined();
  });

  it("rejects a state that is not plain JSON, or larger than tools.skillTools.maxSkillStateBytes", async () => {
    const ctx = await context({ tools: { skillTools: { maxSkillStateBytes: 200 } } });
    const notJson = await ctx.callTool("replace", {});
    expect(notJson.content).toContain("it is not plain JSON: extra is a Map, not a plain object");
    const big = await ctx.callTool("set_note", { note: "x".repeat(300) });
    expect(big.isError).toBe(true);
    expect(big.content).toMatch(
      /it is \d+ bytes as JSON, over the limit of 200 \(tools\.skillTools\.maxSkillStateBytes\)$/,
    );
    expect(ctx.skillState("cart")).toEqual({ items: [] });
  });

  it("closes the handle when the call ends: a late set throws STATE_HANDLE_CLOSED and changes nothing", async () => {
    let kept: SkillStateHandle<Cart> | undefined;
    const leaky = defineSkill({
      name: "leaky",
      description: "Keeps its handle.",
      instructions: "x",
      state: { schema: CartSchema, initial: { items: [] } },
      tools: {
        grab: {
          description: "",
          inputSchema: z.object({}),
          execute: (_: unknown, { state }: { state: SkillStateHandle<Cart> }) => void (kept = state),
        },
      },
    });
    const ctx = await context({ skills: [leaky] });
    await ctx.callTool("grab", {});
    expect(() => kept!.set({ items: [{ sku: "late", qty: 1 }] })).toThrow(
      expect.objectContaining({ code: "STATE_HANDLE_CLOSED" }),
    );
    expect(ctx.skillState("leaky")).toEqual({ items: [] });
  });

  it("hands the tool copies: changing what get() returned without set() changes nothing", async () => {
    const sneaky = defineSkill({
      name: "sneaky",
      description: "Mutates.",
      instructions: "x",
      state: { schema: CartSchema, initial: { items: [] } },
      tools: {
        poke: {
          description: "",
          inputSchema: z.object({}),
          execute: (_: unknown, { state }: { state: SkillStateHandle<Cart> }) =>
            void state.get().items.push({ sku: "x", qty: 1 }),
        },
      },
    });
    const ctx = await context({ skills: [sneaky] });
    await ctx.callTool("poke", {});
    expect(ctx.skillState("sneaky")).toEqual({ items: [] });
  });

  it("warns when two skills share a namespace (they share the state)", async () => {
    const other = defineSkill({
      name: "other",
      description: "o",
      instructions: "x",
      state: { schema: z.any(), namespace: "cart" },
    });
    const ctx = await context({ skills: [cart, other] });
    const step = await ctx.buildContext([user("hi")]);
    expect(step.diagnostics.find((d) => d.code === "STATE_NAMESPACE_SHARED")?.message).toBe(
      'skills "cart" and "other" use the same state namespace "cart": they share one state',
    );
  });

  it("resumes: a saved state gives the same state, byte for byte, and tools continue from it", async () => {
    const ctx = await context();
    await ctx.callTool("add_item", { sku: "a", qty: 1 });
    await ctx.buildContext([user("hi")]);
    const saved = ctx.state;
    await ctx.close();
    const resumed = await AgentContext.create({
      cwd: (await fixture.repo()).dir,
      guidance: false,
      skills: [cart],
      tools: {
        codeTools: "always",
      },
      conversation: {
        state: saved,
      },
    });
    try {
      expect(JSON.stringify(resumed.state)).toBe(JSON.stringify(saved));
      await resumed.callTool("add_item", { sku: "b", qty: 1 });
      expect(resumed.skillState("cart")).toEqual({
        items: [
          { sku: "a", qty: 1 },
          { sku: "b", qty: 1 },
        ],
      });
    } finally {
      await resumed.close();
    }
  });

  it("keeps the state across setSkills and refresh", async () => {
    const ctx = await context();
    await ctx.callTool("add_item", { sku: "a", qty: 1 });
    await ctx.setSkills([cart]);
    await ctx.refresh();
    expect(ctx.skillState("cart")).toEqual({ items: [{ sku: "a", qty: 1 }] });
  });
});

describe("jsonPatch", () => {
  it("diffs containers with fast-json-patch and replaces anything else whole", async () => {
    expect(await jsonPatch({ a: 1, b: [1, 2] }, { a: 2, b: [1] })).toEqual([
      { op: "remove", path: "/b/1" },
      { op: "replace", path: "/a", value: 2 },
    ]);
    expect(await jsonPatch(undefined, { a: 1 })).toEqual([{ op: "add", path: "", value: { a: 1 } }]);
    expect(await jsonPatch(1, 2)).toEqual([{ op: "replace", path: "", value: 2 }]);
    expect(await jsonPatch([1], { 0: 1 })).toEqual([{ op: "replace", path: "", value: { 0: 1 } }]);
    expect(await jsonPatch("same", "same")).toEqual([]);
  });
});
