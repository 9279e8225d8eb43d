import type { CallSettings, LanguageModel, ModelMessage, Tool, ToolSet } from "ai";
import type { RunSubAgent, SubAgentRequest, SubAgentResponse, SubAgentTool } from "@skillctx/engine";
import type { ToolResult } from "@skillctx/engine";
import { fromAiSdkMessages, toAiSdkMessages } from "./ai-sdk.js";

/**
 * A sub-agent runner for `execute_skill` on the Vercel AI SDK (`ai` v6). `ai` is loaded on the first
 * run (it is the host's: a peer dependency), so importing `skillctx/ai-sdk` stays light.
 */

/** A model for a sub-agent, from the model id the skill (`model:`) or `subAgents.model` names (undefined: none named). */
export type AiSdkModelResolver = (modelId: string | undefined) => LanguageModel | Promise<LanguageModel>;

/** Options of {@link aiSdkSubAgent}. */
export interface AiSdkSubAgentOptions {
  /** Call settings for every sub-agent's `generateText` (temperature, maxOutputTokens, maxRetries, headers, ...). */
  settings?: Omit<CallSettings, "abortSignal">;
}

/**
 * A `subAgents.run` that runs each sub-agent with `generateText`: the request's system prompt, messages
 * and tools (each `execute` runs the sub-agent tool and shows the model its text, an `error-text`
 * output when it failed), `stopWhen: stepCountIs(maxSteps)`, and the request's signal as `abortSignal`.
 * `model` is a model for every sub-agent, or a function from the model id a skill names to a model. The
 * answer is the last step's text; a run still calling tools at its last step reports `stepLimitReached`.
 *
 * @example
 * const ctx = await AgentContext.create({
 *   cwd,
 *   runSubAgent: aiSdkSubAgent((id) => (id === "haiku" ? anthropic("claude-haiku-4-5") : openai("gpt-4o"))),
 * });
 */
export function aiSdkSubAgent(
  model: LanguageModel | AiSdkModelResolver,
  options: AiSdkSubAgentOptions = {},
): RunSubAgent {
  const resolve: AiSdkModelResolver = typeof model === "function" ? model : () => model;
  return async (request: SubAgentRequest): Promise<SubAgentResponse> => {
    const { generateText, jsonSchema, stepCountIs } = await import("ai");
    const languageModel = await resolve(request.model);
    const tools = Object.create(null) as ToolSet;
    for (const tool of request.tools) tools[tool.name] = aiSdkTool(tool, request.signal, jsonSchema);
    const result = await generateText({
      ...options.settings,
      model: languageModel,
      system: request.system,
      messages: toAiSdkMessages(request.messages),
      tools,
      stopWhen: stepCountIs(request.maxSteps),
      abortSignal: request.signal,
    });
    const last = result.steps.at(-1);
    const stepLimitReached = result.steps.length >= request.maxSteps && last?.finishReason === "tool-calls";
    return {
      text: result.text,
      messages: [...request.messages, ...fromAiSdkMessages(result.response.messages as ModelMessage[])],
      ...(stepLimitReached && { stepLimitReached }),
    };
  };
}

function aiSdkTool(
  tool: SubAgentTool,
  signal: AbortSignal,
  jsonSchema: typeof import("ai").jsonSchema,
): Tool<unknown, ToolResult> {
  return {
    description: tool.description,
    inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
    execute: (input, options) => tool.execute(input, { signal: options.abortSignal ?? signal }),
    toModelOutput: ({ output }) =>
      output.isError === true ? { type: "error-text", value: output.content } : { type: "text", value: output.content },
  };
}
