/**
 * skillctx with the Vercel AI SDK 6: one `generateText` call runs the whole tool loop, and before every
 * model call `prepareStep` rebuilds the context — the system prompt, the messages with triggered skill
 * text attached (inside the user message or tool result that triggered it), and the tools, including
 * the MCP tools of a skill the model loads mid-run.
 *
 * Run: `npx tsx examples/ai-sdk.ts "Add a tags column to notes"` in a repository with skills
 * (`fixtures/demo-repo` has some). With `AI_GATEWAY_API_KEY` set, the model is `AI_MODEL` (default
 * `openai/gpt-5-mini`) through the AI Gateway; without it, a scripted model that loads the first skill
 * of the catalog and answers, so the loop runs offline.
 */
import { generateText, stepCountIs } from "ai";
import type { LanguageModel, ModelMessage } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { AgentContext } from "skillctx";
import { createAiSdkLoop } from "skillctx/ai-sdk";

const question = process.argv[2] ?? "What does this repository do?";

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
  const loop = createAiSdkLoop(ctx, {
    onStep: (step) => {
      for (const a of step.activated)
        console.log(`[skillctx] ${a.skill} (${a.trigger}${a.match === undefined ? "" : `: ${a.match}`})`);
    },
  });
  const messages: ModelMessage[] = [{ role: "user", content: question }];
  const result = await generateText({ model: chooseModel(), ...loop, stopWhen: stepCountIs(20), messages });
  messages.push(...result.response.messages); // the next turn appends a user message and calls again
  console.log(result.text);
  // To resume later: save `ctx.state` with `messages`, and pass it back as AgentContext.create({ ..., state }).
  console.log(`conversation state: ${JSON.stringify(ctx.state).length} bytes`);
} finally {
  await ctx.close();
}

function chooseModel(): LanguageModel {
  if (process.env.AI_GATEWAY_API_KEY !== undefined) return process.env.AI_MODEL ?? "openai/gpt-5-mini";
  // Offline: load the first skill of the catalog, then answer with what was loaded.
  const skill = ctx.catalog?.included[0];
  let calls = 0;
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 0, text: 0, reasoning: 0 },
  };
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      calls++;
      if (calls === 1 && skill !== undefined) {
        const input = JSON.stringify({ name: skill });
        return {
          content: [{ type: "tool-call", toolCallId: "call-1", toolName: "load_skill", input }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        };
      }
      const text = `(scripted model) ${prompt.length} messages in the prompt${skill === undefined ? "; no skill in the catalog" : `; loaded ${skill}`}.`;
      return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
}
