// skillctx/ai-sdk with `ai` installed.
import { AgentContext } from "skillctx";
import { skillctxPrepareStep, toAiSdkTools } from "skillctx/ai-sdk";
import type { PrepareStepFunction, ToolSet } from "ai";
import { check, fixture } from "./check.js";

const ctx = await AgentContext.create({ cwd: fixture });
try {
  const tools: ToolSet = toAiSdkTools(ctx);
  check("load_skill" in tools, "toAiSdkTools lists load_skill");
  const prepareStep: PrepareStepFunction<ToolSet> = skillctxPrepareStep(ctx, { tools });
  check(typeof prepareStep === "function", "skillctxPrepareStep gives a prepareStep function");
} finally {
  await ctx.close();
}
