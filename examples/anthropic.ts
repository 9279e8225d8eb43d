/**
 * skillctx with the official `@anthropic-ai/sdk` client: a Messages API tool loop. Each turn,
 * `toAnthropicRequest(step)` gives `system`, `messages` and `tools` with prompt-cache breakpoints (the end
 * of `system`, of `tools`, of the last message and of the previous request), so the conversation is read
 * from the cache request after request; skill text attached to a tool result goes inside its `tool_result`.
 *
 * Run: `ANTHROPIC_API_KEY=… npx tsx examples/anthropic.ts "What does this repository do?"`
 * (`ANTHROPIC_MODEL` picks the model).
 */
import Anthropic from "@anthropic-ai/sdk";
import { AgentContext } from "skillctx";
import { fromAnthropicMessages, runAnthropicToolUses, toAnthropicRequest } from "skillctx/anthropic";

const anthropic = new Anthropic(); // reads ANTHROPIC_API_KEY
const model = process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6";

const ctx = await AgentContext.create({
  cwd: process.cwd(),
  systemPrompt: "You are a careful coding agent.",
  tools: {
    host: [
      {
        name: "read_file",
        description: "Read a text file of the repository",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        execute: async (args) => `(contents of ${(args as { path: string }).path})`,
      },
    ],
  },
});

try {
  const history: Anthropic.MessageParam[] = [
    { role: "user", content: process.argv[2] ?? "What does this repository do?" },
  ];
  for (let turn = 0; turn < 20; turn++) {
    const step = await ctx.buildContext(fromAnthropicMessages(history));
    const response = await anthropic.messages.create({ model, max_tokens: 4096, ...toAnthropicRequest(step) });
    history.push({ role: "assistant", content: response.content });
    console.log(`turn ${turn + 1}: ${response.usage.cache_read_input_tokens ?? 0} input tokens read from the cache`);
    if (response.stop_reason !== "tool_use") break;
    history.push({ role: "user", content: await runAnthropicToolUses(ctx, response.content) });
  }
  const last = history.at(-1)!;
  console.log(
    typeof last.content === "string"
      ? last.content
      : last.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n"),
  );
} finally {
  await ctx.close();
}
