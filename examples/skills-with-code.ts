/**
 * A skill that carries code: an in-process tool and per-skill state (README "Skills that carry code").
 * Run: npx tsx examples/skills-with-code.ts (after `pnpm build`).
 */
import { AgentContext, defineSkill } from "skillctx";
import { z } from "zod";

const cart = defineSkill({
  name: "cart",
  description: "Keep the user's shopping cart.",
  instructions: "Use add_item for every item the user wants.",
  state: { schema: z.object({ items: z.array(z.string()) }), initial: { items: [] } },
  tools: {
    add_item: {
      description: "Add an item to the cart.",
      inputSchema: z.object({ item: z.string() }),
      execute: ({ item }, { state }) => {
        state.update((s) => ({ items: [...s.items, item] }));
        return `added ${item}`;
      },
    },
  },
});

const ctx = await AgentContext.create({
  cwd: process.cwd(),
  skills: [cart],
  guidance: false,
  telemetry: {
    onEvent: (e) => console.log("event:", e.type),
  },
});
try {
  // What a model would do: load the skill, then call its tool.
  await ctx.callTool("load_skill", { name: "cart" });
  console.log((await ctx.buildContext([{ role: "user", content: "add milk" }])).tools.map((t) => t.name));
  console.log(await ctx.callTool("add_item", { item: "milk" }));
  console.log(ctx.skillState("cart"));
} finally {
  await ctx.close();
}
