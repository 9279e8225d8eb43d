/**
 * The per-client parts of the prefix-stability tests: each makes one model request from the context
 * through a real client pointed at the local fake provider, runs the model's tool calls the way that
 * client's adapter does, and keeps the conversation. The session drivers (`prefix-live-session.ts`,
 * `prefix-stability.test.ts`) call `send` once per request; everything else is shared.
 */
import {
  fromOpenAIInput,
  fromOpenAIMessages,
  runOpenAIResponsesCalls,
  runOpenAIToolCalls,
  toOpenAIChatRequest,
  toOpenAIResponsesRequest,
} from "skillctx/openai";
import type { OpenAIResponsesItem } from "skillctx/openai";
import { fromAnthropicMessages, runAnthropicToolUses, toAnthropicRequest } from "skillctx/anthropic";
import type { AgentContext, ContextStep } from "skillctx";
import type { FakeProvider, ProviderApi } from "./fake-provider.js";
import { skillctxDependency } from "./tools-fixture.js";

const { default: OpenAI } = skillctxDependency<typeof import("openai")>("openai");
const { default: Anthropic } = skillctxDependency<typeof import("@anthropic-ai/sdk")>("@anthropic-ai/sdk");
type ChatMessage = import("openai").OpenAI.Chat.ChatCompletionMessageParam;
type MessageParam = import("@anthropic-ai/sdk").Anthropic.MessageParam;

/** The user's first message in every prefix session. */
export const FIRST_USER_TEXT = "Please fill the tax form for Ada.";

/**
 * One model request: from the context's next step, through the client; the model's tool calls are run,
 * or, after a text answer, the user writes `followUp()`. Returns the step the request was made from.
 */
export type Send = (ctx: AgentContext, followUp: () => string) => Promise<ContextStep>;

/** A client under test: the API its requests go to, and how it sends (a new conversation per `connect`). */
export interface PrefixClient {
  api: ProviderApi;
  connect(provider: FakeProvider): Send;
}

/** The official OpenAI client on Chat Completions. */
export const chatCompletions: PrefixClient = {
  api: "chat",
  connect(provider) {
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const history: ChatMessage[] = [{ role: "user", content: FIRST_USER_TEXT }];
    return async (ctx, followUp) => {
      const step = await ctx.buildContext(fromOpenAIMessages(history));
      const request = { model: "gpt-test", ...toOpenAIChatRequest(step) };
      const message = (await client.chat.completions.create(request)).choices[0]!.message;
      history.push(message);
      if (message.tool_calls !== undefined && message.tool_calls.length > 0)
        history.push(...(await runOpenAIToolCalls(ctx, message.tool_calls)));
      else history.push({ role: "user", content: followUp() });
      return step;
    };
  },
};

/** The official OpenAI client on the Responses API. */
export const openaiResponses: PrefixClient = {
  api: "responses",
  connect(provider) {
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const items: OpenAIResponsesItem[] = [{ role: "user", content: FIRST_USER_TEXT }];
    return async (ctx, followUp) => {
      const step = await ctx.buildContext(fromOpenAIInput(items));
      const response = await client.responses.create({ model: "gpt-test", ...toOpenAIResponsesRequest(step) });
      const outputs = await runOpenAIResponsesCalls(ctx, response.output);
      items.push(...response.output, ...outputs);
      if (outputs.length === 0) items.push({ role: "user", content: followUp() });
      return step;
    };
  },
};

/** The official Anthropic client on the Messages API. */
export const anthropicMessages: PrefixClient = {
  api: "anthropic",
  connect(provider) {
    const client = new Anthropic({ baseURL: provider.url, apiKey: "test", maxRetries: 0 });
    const history: MessageParam[] = [{ role: "user", content: FIRST_USER_TEXT }];
    return async (ctx, followUp) => {
      const step = await ctx.buildContext(fromAnthropicMessages(history));
      const request = { model: "claude-test", max_tokens: 1024, ...toAnthropicRequest(step) };
      const response = await client.messages.create(request);
      history.push({ role: "assistant", content: response.content });
      if (response.stop_reason === "tool_use")
        history.push({ role: "user", content: await runAnthropicToolUses(ctx, response.content) });
      else history.push({ role: "user", content: followUp() });
      return step;
    };
  },
};

/** One value per context (a session driver may open a new context at a resume), made on first use. */
export function perContext<T>(make: (ctx: AgentContext) => T): (ctx: AgentContext) => T {
  const made = new Map<AgentContext, T>();
  return (ctx) => {
    if (!made.has(ctx)) made.set(ctx, make(ctx));
    return made.get(ctx)!;
  };
}
