/**
 * The prefix a provider caches, under the defaults, through a session that changes things: 30 requests
 * through the official OpenAI (Chat Completions, Responses) and Anthropic clients pointed at the local
 * fake provider, with hot reload on (a skill edited and one added mid-session), a nested skill folder
 * revealed by a tool call, a skill with `allowed-tools` loaded (and a call outside them refused), and a
 * resume from `ctx.state` in a new context after a skill changed while no context ran. Every request
 * must begin with the previous one: `system` and `tools` the same bytes from the first request to the
 * last, the message list element for element (issue 37, "a prefix that survives").
 */
import { expect, it } from "vitest";
import { fromOpenAIInput, fromOpenAIMessages, runOpenAIResponsesCalls, runOpenAIToolCalls } from "skillctx/openai";
import { toOpenAIChatRequest, toOpenAIResponsesRequest } from "skillctx/openai";
import type { OpenAIResponsesItem } from "skillctx/openai";
import { fromAnthropicMessages, runAnthropicToolUses, toAnthropicRequest } from "skillctx/anthropic";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import { withoutCacheControl } from "./helpers/adapter-requests.js";
import type { breakpoints } from "./helpers/adapter-requests.js";
import { expectPrefixes, rawPrefixShare, report, serialise } from "./helpers/prefix-compare.js";
import { REQUESTS, usePrefixLiveSession } from "./helpers/prefix-live-session.js";
import { describeWithTool } from "./helpers/tools-present.js";

const { default: OpenAI } = skillctxDependency<typeof import("openai")>("openai");
const { default: Anthropic } = skillctxDependency<typeof import("@anthropic-ai/sdk")>("@anthropic-ai/sdk");
type ChatMessage = import("openai").OpenAI.Chat.ChatCompletionMessageParam;
type MessageParam = import("@anthropic-ai/sdk").Anthropic.MessageParam;

const { drive, started, expectSessionChanged } = usePrefixLiveSession();

describeWithTool("git")("the cached prefix survives hot reload, a nested reveal, allowed-tools and a resume", () => {
  it("Chat Completions", async () => {
    const provider = await started();
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const history: ChatMessage[] = [{ role: "user", content: "Please fill the tax form for Ada." }];
    const steps = await drive(async (ctx, followUp) => {
      const step = await ctx.buildContext(fromOpenAIMessages(history));
      const message = (await client.chat.completions.create({ model: "gpt-test", ...toOpenAIChatRequest(step) }))
        .choices[0]!.message;
      history.push(message);
      if (message.tool_calls !== undefined && message.tool_calls.length > 0)
        history.push(...(await runOpenAIToolCalls(ctx, message.tool_calls)));
      else history.push({ role: "user", content: followUp() });
      return step;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    const result = expectPrefixes(
      requests.map((r) => {
        const [system, ...messages] = r.body.messages as unknown[];
        return { fixed: JSON.stringify([system, r.body.tools]), messages: serialise(messages) };
      }),
    );
    report("chat, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });

  it("Responses API", async () => {
    const provider = await started();
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const items: OpenAIResponsesItem[] = [{ role: "user", content: "Please fill the tax form for Ada." }];
    const steps = await drive(async (ctx, followUp) => {
      const step = await ctx.buildContext(fromOpenAIInput(items));
      const response = await client.responses.create({ model: "gpt-test", ...toOpenAIResponsesRequest(step) });
      const outputs = await runOpenAIResponsesCalls(ctx, response.output);
      items.push(...response.output, ...outputs);
      if (outputs.length === 0) items.push({ role: "user", content: followUp() });
      return step;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    const result = expectPrefixes(
      requests.map((r) => ({
        fixed: JSON.stringify([r.body.instructions, r.body.tools]),
        messages: serialise(r.body.input as unknown[]),
      })),
    );
    report("responses, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });

  it("Anthropic", async () => {
    const provider = await started();
    const client = new Anthropic({ baseURL: provider.url, apiKey: "test", maxRetries: 0 });
    const history: MessageParam[] = [{ role: "user", content: "Please fill the tax form for Ada." }];
    const steps = await drive(async (ctx, followUp) => {
      const step = await ctx.buildContext(fromAnthropicMessages(history));
      const response = await client.messages.create({
        model: "claude-test",
        max_tokens: 1024,
        ...toAnthropicRequest(step),
      });
      history.push({ role: "assistant", content: response.content });
      if (response.stop_reason === "tool_use")
        history.push({ role: "user", content: await runAnthropicToolUses(ctx, response.content) });
      else history.push({ role: "user", content: followUp() });
      return step;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    type Messages = Parameters<typeof breakpoints>[0];
    const result = expectPrefixes(
      requests.map((r) => ({
        fixed: JSON.stringify([r.body.system, r.body.tools]),
        messages: serialise(withoutCacheControl(r.body.messages as Messages)),
      })),
    );
    report("anthropic, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });
});
