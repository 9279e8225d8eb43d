/**
 * skillctx with the official `openai` client: a Chat Completions tool loop, or the same loop on the
 * Responses API. Each turn, `buildContext` gives the system prompt, the messages with triggered skill text
 * attached and the tools (MCP tools that a skill starts mid-run included); the model's tool calls run
 * through `ctx.callTool`.
 *
 * Run: `OPENAI_API_KEY=… npx tsx examples/openai.ts "What does this repository do?"`
 * (add `--responses` for the Responses API; `OPENAI_MODEL` picks the model).
 */
import OpenAI from "openai";
import { AgentContext } from "skillctx";
import {
  fromOpenAIInput,
  fromOpenAIMessages,
  runOpenAIResponsesCalls,
  runOpenAIToolCalls,
  toOpenAIChatRequest,
  toOpenAIResponsesRequest,
} from "skillctx/openai";
import type { OpenAIResponsesItem } from "skillctx/openai";

const client = new OpenAI(); // reads OPENAI_API_KEY (and OPENAI_BASE_URL, for compatible servers)
const model = process.env.OPENAI_MODEL ?? "gpt-4.1-mini";
const question = process.argv.filter((arg) => !arg.startsWith("--"))[2] ?? "What does this repository do?";

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

/** Chat Completions: the history is the host's own `OpenAI.Chat.ChatCompletionMessageParam[]`. */
async function chatLoop(history: OpenAI.Chat.ChatCompletionMessageParam[]): Promise<string> {
  for (let turn = 0; turn < 20; turn++) {
    const step = await ctx.buildContext(fromOpenAIMessages(history));
    const completion = await client.chat.completions.create({ model, ...toOpenAIChatRequest(step) });
    const message = completion.choices[0]!.message;
    history.push(message);
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content ?? "";
    history.push(...(await runOpenAIToolCalls(ctx, message.tool_calls)));
  }
  return "(stopped after 20 turns)";
}

/** Responses API: the history is input items plus the output items of each response, sent whole each turn. */
async function responsesLoop(items: OpenAIResponsesItem[]): Promise<string> {
  for (let turn = 0; turn < 20; turn++) {
    const step = await ctx.buildContext(fromOpenAIInput(items));
    const response = await client.responses.create({ model, ...toOpenAIResponsesRequest(step) });
    const outputs = await runOpenAIResponsesCalls(ctx, response.output);
    items.push(...response.output, ...outputs);
    if (outputs.length === 0) return response.output_text;
  }
  return "(stopped after 20 turns)";
}

try {
  const answer = process.argv.includes("--responses")
    ? await responsesLoop([{ role: "user", content: question }])
    : await chatLoop([{ role: "user", content: question }]);
  console.log(answer);
  // To resume later: save `ctx.state` with the history, and pass it back as AgentContext.create({ ..., state }).
  console.log(`conversation state: ${JSON.stringify(ctx.state).length} bytes`);
} finally {
  await ctx.close();
}
