// skillctx/openai with openai installed.
import type OpenAI from "openai";
import { AgentContext } from "skillctx";
import { toOpenAIChatRequest, toOpenAITools } from "skillctx/openai";
import { check, fixture } from "./check.js";

const ctx = await AgentContext.create({ cwd: fixture });
try {
  const step = await ctx.buildContext([{ role: "user", content: "Write the release notes." }]);
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = toOpenAITools(step.tools);
  check(tools.length === step.tools.length, "toOpenAITools converts every tool");
  const request = toOpenAIChatRequest(step);
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = request.messages;
  check(messages[0]?.role === "system", "toOpenAIChatRequest puts system first");
} finally {
  await ctx.close();
}
