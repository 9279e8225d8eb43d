/**
 * Issue 14: the cost of a step with 100 programmatic skills of 5 tools each (`defineSkill`), while one
 * of them is active (its 5 tools listed) against the same step with none active. Target: within 1.2×.
 * Each step appends one user message; both contexts are built the same way and measured in one run.
 *
 * Run: pnpm bench -- bench/code-tools.bench.ts   (or: npx vitest bench --run bench/code-tools.bench.ts)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { bench, describe } from "vitest";
import { AgentContext, defineSkill } from "skillctx";
import type { Message, SkillStateHandle } from "skillctx";
import { z } from "../test/helpers/zod.js";

const SKILLS = 100;
const TOOLS_PER_SKILL = 5;
const cwd = mkdtempSync(path.join(tmpdir(), "skillctx-bench-code-"));

const skills = Array.from({ length: SKILLS }, (_, i) =>
  defineSkill({
    name: `skill-${i}`,
    description: `Generated programmatic skill ${i}. Use for task ${i}.`,
    instructions: `Use the tools of skill ${i}.`,
    state: { schema: z.object({ calls: z.number().int() }), initial: { calls: 0 } },
    tools: Object.fromEntries(
      Array.from({ length: TOOLS_PER_SKILL }, (_, t) => [
        `s${i}_tool_${t}`,
        {
          description: `Tool ${t} of skill ${i}`,
          inputSchema: z.object({ text: z.string(), count: z.number().int().optional() }),
          execute: (_args: unknown, { state }: { state: SkillStateHandle<{ calls: number }> }) =>
            state.update((s) => ({ calls: s.calls + 1 })),
        },
      ]),
    ),
  }),
);

async function context(active: string | undefined): Promise<{ ctx: AgentContext; history: Message[] }> {
  const ctx = await AgentContext.create({ cwd, skills, guidance: false });
  const history: Message[] = [{ role: "user", content: "start" }];
  if (active !== undefined) {
    await ctx.callTool("load_skill", { name: active });
    await ctx.callTool(`s42_tool_0`, { text: "x" });
  }
  await ctx.buildContext(history);
  return { ctx, history };
}

const none = await context(undefined);
const one = await context("skill-42");
const expectedTools = 4 + TOOLS_PER_SKILL;
if ((await one.ctx.buildContext(one.history)).tools.length !== expectedTools)
  throw new Error("the active skill's tools are not listed");

const STEPS = { iterations: 3_000, time: 0, warmupIterations: 500, warmupTime: 0 };
let n = 0;
const step = async ({ ctx, history }: { ctx: AgentContext; history: Message[] }) => {
  history.push({ role: "user", content: `message ${n++} about nothing in particular` });
  await ctx.buildContext(history);
};

describe(`a step with ${SKILLS} programmatic skills of ${TOOLS_PER_SKILL} tools each`, () => {
  bench("no skill active (baseline)", () => step(none), STEPS);
  bench("one skill active: its 5 tools listed", () => step(one), STEPS);
});
