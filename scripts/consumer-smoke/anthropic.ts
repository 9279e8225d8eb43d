// skillctx/anthropic with @anthropic-ai/sdk installed.
import type Anthropic from "@anthropic-ai/sdk";
import { AgentContext } from "skillctx";
import { toAnthropicTools } from "skillctx/anthropic";
import { check, fixture } from "./check.js";

const ctx = await AgentContext.create({ cwd: fixture });
try {
  const step = await ctx.buildContext([{ role: "user", content: "Write the release notes." }]);
  const tools: Anthropic.Messages.Tool[] = toAnthropicTools(step.tools);
  check(
    tools.some((t) => t.name === "load_skill"),
    "toAnthropicTools lists load_skill",
  );
} finally {
  await ctx.close();
}
