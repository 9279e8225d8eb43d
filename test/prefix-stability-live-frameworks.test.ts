/**
 * The live prefix session of `prefix-stability-live.test.ts` (30 requests, hot reload, a nested reveal,
 * allowed-tools, a resume) through the framework adapters, each with its own real client pointed at the
 * local fake provider: the AI SDK (`createAiSdkLoop`, `generateText` with the SDK's OpenAI provider
 * `@ai-sdk/openai` on Chat Completions) and OpenAI Agents JS (`createOpenAIAgentsLoop`, the real `Runner`
 * with its `OpenAIProvider` on the Responses API). Each framework run makes one model request (the AI SDK
 * stops after one step, the agent stops on its first tool call), so the driver can make the mid-session
 * changes between requests. Every request must begin with the previous one: system / instructions and
 * tools the same bytes throughout, the message list element for element (issue 37).
 */
import { createOpenAI } from "@ai-sdk/openai";
import { expect, it } from "vitest";
import { createAiSdkLoop } from "skillctx/ai-sdk";
import type { AiSdkLoop } from "skillctx/ai-sdk";
import { createOpenAIAgentsLoop } from "skillctx/openai-agents";
import type { AgentContext, ContextStep } from "skillctx";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import { expectPrefixes, rawPrefixShare, report, serialise } from "./helpers/prefix-compare.js";
import { REQUESTS, usePrefixLiveSession } from "./helpers/prefix-live-session.js";
import { describeWithTool } from "./helpers/tools-present.js";

const ai = skillctxDependency<typeof import("ai")>("ai");
const agents = skillctxDependency<typeof import("@openai/agents")>("@openai/agents");
const { default: OpenAI } = skillctxDependency<typeof import("openai")>("openai");
type ModelMessage = import("ai").ModelMessage;
type AgentInputItem = import("@openai/agents").AgentInputItem;

const FIRST = "Please fill the tax form for Ada.";
const { drive, started, expectSessionChanged } = usePrefixLiveSession();

/** One value per context (the driver opens a new one at the resume), made on first use. */
function perContext<T>(make: (ctx: AgentContext) => T): (ctx: AgentContext) => T {
  const made = new Map<AgentContext, T>();
  return (ctx) => {
    if (!made.has(ctx)) made.set(ctx, make(ctx));
    return made.get(ctx)!;
  };
}

describeWithTool("git")("the cached prefix survives the session through the framework adapters", () => {
  it("AI SDK generateText with @ai-sdk/openai (Chat Completions)", async () => {
    const provider = await started();
    const model = createOpenAI({ baseURL: provider.openaiURL, apiKey: "test" }).chat("gpt-test");
    const messages: ModelMessage[] = [{ role: "user", content: FIRST }];
    let last: ContextStep | undefined;
    const loopOf = perContext<AiSdkLoop>((ctx) => createAiSdkLoop(ctx, { onStep: (step) => (last = step) }));
    const steps = await drive(async (ctx, followUp) => {
      last = undefined;
      const result = await ai.generateText({
        model,
        ...loopOf(ctx),
        messages,
        stopWhen: ai.stepCountIs(1),
        maxRetries: 0,
      });
      messages.push(...result.response.messages);
      if (result.toolCalls.length === 0) messages.push({ role: "user", content: followUp() });
      expect(last, "prepareStep ran buildContext").toBeDefined();
      return last!;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    expect(requests.every((r) => r.api === "chat")).toBe(true);
    const result = expectPrefixes(
      requests.map((r) => {
        const [system, ...rest] = r.body.messages as unknown[];
        expect(system).toMatchObject({ role: "system" });
        return { fixed: JSON.stringify([system, r.body.tools]), messages: serialise(rest) };
      }),
    );
    report("ai-sdk chat, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });

  it("OpenAI Agents JS Runner with OpenAIProvider (Responses API)", async () => {
    const provider = await started();
    const client = new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 });
    const modelProvider = new agents.OpenAIProvider({
      openAIClient: client,
      useResponses: true,
    });
    const runner = new agents.Runner({ modelProvider, model: "gpt-test", tracingDisabled: true });
    let items: AgentInputItem[] = [{ role: "user", content: FIRST }];
    let last: ContextStep | undefined;
    const setup = perContext((ctx) => {
      const loop = createOpenAIAgentsLoop(ctx, { tool: agents.tool, onStep: (step) => (last = step) });
      const agent = new agents.Agent({
        name: "forms",
        instructions: "ignored: skillctx gives the instructions",
        tools: loop.tools,
        toolUseBehavior: "stop_on_first_tool",
      });
      return { loop, agent };
    });
    const steps = await drive(async (ctx, followUp) => {
      const { loop, agent } = setup(ctx);
      last = undefined;
      const result = await runner.run(agent, items, {
        callModelInputFilter: loop.callModelInputFilter,
        toolNotFoundBehavior: "return_error_to_model",
      });
      items = result.history;
      if (!result.newItems.some((item) => item.type === "tool_call_item"))
        items = [...items, { role: "user", content: followUp() }];
      expect(last, "the input filter ran buildContext").toBeDefined();
      return last!;
    });
    const requests = provider.requests;
    expect(requests).toHaveLength(REQUESTS);
    expect(requests.every((r) => r.api === "responses")).toBe(true);
    const result = expectPrefixes(
      requests.map((r) => ({
        fixed: JSON.stringify([r.body.instructions, r.body.tools]),
        messages: serialise(r.body.input as unknown[]),
      })),
    );
    // The host's instructions come first, then the context's system (the catalog), the same on every request.
    expect(String(requests[0]!.body.instructions)).toContain(steps[0]!.system);
    report("openai-agents responses, live", requests, result, rawPrefixShare(requests));
    expectSessionChanged(steps);
  });
});
