/**
 * The live prefix session of `prefix-stability-live.test.ts` (30 requests, hot reload, a nested reveal,
 * allowed-tools, a resume after skills changed) through the framework adapters, each with its own real
 * client pointed at the local fake provider:
 *
 * - the AI SDK (`createAiSdkLoop`, `generateText` with the SDK's OpenAI provider `@ai-sdk/openai` on Chat Completions);
 * - OpenAI Agents JS (`createOpenAIAgentsLoop`, the real `Runner` with its `OpenAIProvider` on the Responses API);
 * - LangChain.js (`skillctxMiddleware` in `createAgent` from `langchain`, the model `ChatOpenAI` of
 *   `@langchain/openai` on Chat Completions).
 *
 * Each framework run makes one model request (the AI SDK stops after one step, the agent stops on its
 * first tool call, LangChain's agent ends before a second model call), so the shared driver makes the
 * mid-session changes between requests. Every request must begin with the previous one: system /
 * instructions and tools the same bytes throughout, the message list element for element (issue 37).
 */
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { HumanMessage } from "@langchain/core/messages";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import { createAgent, createMiddleware } from "langchain";
import { expect, it } from "vitest";
import { createAiSdkLoop } from "skillctx/ai-sdk";
import { createOpenAIAgentsLoop } from "skillctx/openai-agents";
import { skillctxMiddleware } from "skillctx/langchain";
import type { ContextStep } from "skillctx";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import { FIRST_USER_TEXT, perContext } from "./helpers/prefix-clients.js";
import type { PrefixClient } from "./helpers/prefix-clients.js";
import { usePrefixLiveSession } from "./helpers/prefix-live-session.js";
import { describeWithTool } from "./helpers/tools-present.js";

const ai = skillctxDependency<typeof import("ai")>("ai");
const agents = skillctxDependency<typeof import("@openai/agents")>("@openai/agents");
const { default: OpenAI } = skillctxDependency<typeof import("openai")>("openai");
type ModelMessage = import("ai").ModelMessage;
type AgentInputItem = import("@openai/agents").AgentInputItem;

/** The step the adapter's hook made during one framework run (each run makes exactly one). */
function stepSeen() {
  let last: ContextStep | undefined;
  return {
    record: (step: ContextStep) => void (last = step),
    take(): ContextStep {
      expect(last, "the adapter ran buildContext").toBeDefined();
      const step = last!;
      last = undefined;
      return step;
    },
  };
}

const aiSdk: PrefixClient = {
  api: "chat",
  connect(provider) {
    const model = createOpenAI({ baseURL: provider.openaiURL, apiKey: "test" }).chat("gpt-test");
    const messages: ModelMessage[] = [{ role: "user", content: FIRST_USER_TEXT }];
    const seen = stepSeen();
    const loopOf = perContext((ctx) => createAiSdkLoop(ctx, { onStep: seen.record }));
    return async (ctx, followUp) => {
      const run = { model, ...loopOf(ctx), messages, stopWhen: ai.stepCountIs(1), maxRetries: 0 };
      const result = await ai.generateText(run);
      messages.push(...result.response.messages);
      if (result.toolCalls.length === 0) messages.push({ role: "user", content: followUp() });
      return seen.take();
    };
  },
};

const openaiAgents: PrefixClient = {
  api: "responses",
  connect(provider) {
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const modelProvider = new agents.OpenAIProvider({ openAIClient: client, useResponses: true });
    const runner = new agents.Runner({ modelProvider, model: "gpt-test", tracingDisabled: true });
    let items: AgentInputItem[] = [{ role: "user", content: FIRST_USER_TEXT }];
    const seen = stepSeen();
    const setup = perContext((ctx) => {
      const loop = createOpenAIAgentsLoop(ctx, { tool: agents.tool, onStep: seen.record });
      const agent = new agents.Agent({
        name: "forms",
        instructions: "ignored: skillctx gives the instructions",
        tools: loop.tools,
        toolUseBehavior: "stop_on_first_tool",
      });
      return { loop, agent };
    });
    return async (ctx, followUp) => {
      const { loop, agent } = setup(ctx);
      const result = await runner.run(agent, items, {
        callModelInputFilter: loop.callModelInputFilter,
        toolNotFoundBehavior: "return_error_to_model",
      });
      items = result.history;
      if (!result.newItems.some((item) => item.type === "tool_call_item"))
        items = [...items, { role: "user", content: followUp() }];
      return seen.take();
    };
  },
};

const langchainAgent: PrefixClient = {
  api: "chat",
  connect(provider) {
    const model = new ChatOpenAI({
      model: "gpt-test",
      apiKey: "test",
      maxRetries: 0,
      configuration: { baseURL: provider.openaiURL },
    });
    let messages: BaseMessage[] = [new HumanMessage(FIRST_USER_TEXT)];
    const seen = stepSeen();
    // One model call per invoke: the tools of that call run, then the agent ends before calling the model again.
    let calls = 0;
    const oneModelCall = createMiddleware({
      name: "oneModelCall",
      beforeModel: { canJumpTo: ["end"], hook: () => (calls++ === 0 ? undefined : { jumpTo: "end" as const }) },
    });
    const agentOf = perContext((ctx) =>
      createAgent({ model, middleware: [oneModelCall, skillctxMiddleware(ctx, { onStep: seen.record })] }),
    );
    return async (ctx, followUp) => {
      calls = 0;
      const result = await agentOf(ctx).invoke({ messages });
      messages = result.messages;
      const reply = messages.findLast((m) => m.type === "ai") as AIMessage;
      if ((reply.tool_calls ?? []).length === 0) messages = [...messages, new HumanMessage(followUp())];
      return seen.take();
    };
  },
};

const session = usePrefixLiveSession();

describeWithTool("git")("the cached prefix survives the session through the framework adapters", () => {
  it("AI SDK generateText with @ai-sdk/openai (Chat Completions)", async () => {
    const { share } = await session.run("ai-sdk chat", aiSdk);
    expect(share).toBeGreaterThan(0.9);
  });

  it("OpenAI Agents JS Runner with OpenAIProvider (Responses API)", async () => {
    const { steps, requests, share } = await session.run("openai-agents responses", openaiAgents);
    // The host's instructions come first, then the context's system (the catalog), the same on every request.
    expect(String(requests[0]!.body.instructions)).toContain(steps[0]!.system);
    expect(share).toBeGreaterThan(0.9);
  });

  it("LangChain createAgent with ChatOpenAI of @langchain/openai (Chat Completions)", async () => {
    const { steps, requests, share } = await session.run("langchain chat", langchainAgent);
    const system = (requests[0]!.body.messages as Array<{ role: string; content: unknown }>)[0]!;
    expect(JSON.stringify(system.content)).toContain(JSON.stringify(steps[0]!.system).slice(1, -1));
    expect(share).toBeGreaterThan(0.9);
  });
});
