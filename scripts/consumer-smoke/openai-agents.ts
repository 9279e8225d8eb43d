// skillctx/openai-agents with @openai/agents installed.
import { tool } from "@openai/agents";
import type { FunctionTool } from "@openai/agents";
import { AgentContext } from "skillctx";
import { skillctxInputFilter, toOpenAIAgentsTools } from "skillctx/openai-agents";
import { check, fixture } from "./check.js";

const ctx = await AgentContext.create({ cwd: fixture });
try {
  const tools: FunctionTool[] = toOpenAIAgentsTools(ctx, { tool });
  check(
    tools.some((t) => t.name === "load_skill"),
    "toOpenAIAgentsTools lists load_skill",
  );
  check(typeof skillctxInputFilter(ctx) === "function", "skillctxInputFilter gives a callModelInputFilter");
} finally {
  await ctx.close();
}
