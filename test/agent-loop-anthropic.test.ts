/**
 * An agent loop through the official `@anthropic-ai/sdk` client, pointed at a local server that answers
 * like the Messages API (test/helpers/fake-provider.ts), so the real client serialises every request:
 * what the model received on each request, and where the cache breakpoints sit, is asserted from the raw bodies.
 */
import { describe, expect, it } from "vitest";
import { fromAnthropicMessages, runAnthropicToolUses, toAnthropicRequest } from "skillctx/anthropic";
import type { AgentContext, ContextStep } from "skillctx";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import { scriptOf } from "./helpers/fake-provider.js";
import type { FakeProvider, RecordedRequest } from "./helpers/fake-provider.js";
import {
  ALL_TOOLS,
  HOST_PROMPT,
  KEYWORD_TEXT,
  NOTES_TOOLS,
  PATH_RULE_TEXT,
  RESUMED_RUN,
  RESUMED_USER_TEXT,
  RUN,
  SCHEMA_TEXT,
  USER_TEXT,
  useScenario,
} from "./helpers/agent-scenario.js";
import { breakpoints, useFakeProvider, withoutCacheControl } from "./helpers/adapter-requests.js";

/** allowed-tools narrowing the listed tools (`tools.filter: "filter"`; the default, "refuse", keeps them). */
const FILTER = { tools: { filter: "filter" } } as const;

const { default: Anthropic } = skillctxDependency<typeof import("@anthropic-ai/sdk")>("@anthropic-ai/sdk");
type MessageParam = import("@anthropic-ai/sdk").Anthropic.MessageParam;
type Client = InstanceType<typeof Anthropic>;

const scenario = useScenario();
const providers = useFakeProvider();

async function setup(): Promise<{ client: Client; provider: FakeProvider }> {
  const provider = await providers.start();
  return { client: new Anthropic({ baseURL: provider.url, apiKey: "test", maxRetries: 0 }), provider };
}

/** The loop of the README. */
async function loop(
  ctx: AgentContext,
  client: Client,
  history: MessageParam[],
  steps: ContextStep[] = [],
): Promise<void> {
  for (let turn = 0; turn < 10; turn++) {
    const step = await ctx.buildContext(fromAnthropicMessages(history));
    steps.push(step);
    const response = await client.messages.create({
      model: "claude-test",
      max_tokens: 1024,
      ...toAnthropicRequest(step),
    });
    history.push({ role: "assistant", content: response.content });
    if (response.stop_reason !== "tool_use") return;
    history.push({ role: "user", content: await runAnthropicToolUses(ctx, response.content) });
  }
  throw new Error("the loop did not end");
}

type Json = Record<string, unknown>;
type Block = {
  type: string;
  text?: string;
  content?: Block[];
  tool_use_id?: string;
  is_error?: boolean;
  cache_control?: unknown;
};
const messagesOf = (request: RecordedRequest) =>
  request.body.messages as Array<{ role: string; content: string | Block[] }>;
const toolNames = (request: RecordedRequest) =>
  ((request.body.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
const lastResult = (request: RecordedRequest): Block => {
  const last = messagesOf(request).at(-1)!;
  expect(last.role).toBe("user");
  const block = (last.content as Block[]).at(-1)!;
  expect(block.type).toBe("tool_result");
  return block;
};

/** Request k+1 begins with request k, message for message, once the breakpoints are taken out; system and tools are the same bytes. */
function expectStablePrefix(requests: RecordedRequest[]): void {
  for (let k = 1; k < requests.length; k++) {
    const before = withoutCacheControl(messagesOf(requests[k - 1]!)).map((m) => JSON.stringify(m));
    const after = withoutCacheControl(messagesOf(requests[k]!))
      .slice(0, before.length)
      .map((m) => JSON.stringify(m));
    expect(after, `request ${k + 1} begins with request ${k}`).toEqual(before);
    expect(JSON.stringify(requests[k]!.body.system)).toBe(JSON.stringify(requests[k - 1]!.body.system));
    // The previous request's end carries a breakpoint again: the cache entry it wrote is read from there.
    expect(breakpoints(messagesOf(requests[k]!)).map((b) => b.message)).toContain(before.length - 1);
  }
}

describe("Messages API loop through the official client", () => {
  it("keyword attachment, path rule inside the tool_result, load_skill with its MCP tool mid-run, a refused tool, a resumed context", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log, FILTER);
    const { client, provider } = await setup();
    provider.script(...scriptOf(RUN));
    const history: MessageParam[] = [{ role: "user", content: USER_TEXT }];
    const steps: ContextStep[] = [];
    await loop(ctx, client, history, steps);
    expect(history.at(-1)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: "Done: noted.", citations: null }],
    });
    const requests = provider.requests;
    expect(requests.map((r) => r.api)).toEqual(Array(5).fill("anthropic"));

    // system: one text block with a breakpoint, the same bytes every request.
    expect(requests[0]!.body.system).toEqual([
      { type: "text", text: expect.stringContaining(HOST_PROMPT), cache_control: { type: "ephemeral" } },
    ]);

    // The keyword skill as a text block after the user's text.
    const user = messagesOf(requests[0]!)[0]!;
    expect(user.role).toBe("user");
    const blocks = user.content as Block[];
    expect(blocks[0]).toEqual({ type: "text", text: USER_TEXT });
    expect(blocks[1]!.text).toMatch(/^<skill name="tax-terms" trigger="keyword" match="tax form">/);
    expect(blocks[1]!.text).toContain(KEYWORD_TEXT);
    expect(history[0]).toEqual({ role: "user", content: USER_TEXT });

    // The path rule inside the tool_result block of the Read call, after its text.
    const read = lastResult(requests[1]!);
    expect(read.tool_use_id).toBe("toolu_1_0");
    expect(read.content![0]).toEqual({ type: "text", text: SCHEMA_TEXT });
    expect(read.content![1]!.text).toMatch(/^<skill name="db-rules" trigger="path" match="src\/db\/schema.ts">/);
    expect(read.content![1]!.text).toContain(PATH_RULE_TEXT);
    expect(read.is_error).toBeUndefined();

    // Tools: Anthropic.Tool definitions, a breakpoint on the last; the notes tool from request 3 on.
    expect(requests.map(toolNames)).toEqual([ALL_TOOLS, ALL_TOOLS, NOTES_TOOLS, NOTES_TOOLS, NOTES_TOOLS]);
    const tools = requests[0]!.body.tools as Json[];
    expect(tools[0]).toEqual({
      name: "Read",
      description: "Read a file",
      input_schema: {
        type: "object",
        properties: { path: { type: "string" } },
        required: ["path"],
        additionalProperties: false,
      },
    });
    expect(tools.map((tool) => tool.cache_control)).toEqual([
      ...Array(tools.length - 1).fill(undefined),
      { type: "ephemeral" },
    ]);

    expect(String(lastResult(requests[2]!).content)).toMatch(/^<skill-loaded name="notes">/);
    expect(lastResult(requests[3]!)).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_3_0",
      content: "remember Ada",
      cache_control: { type: "ephemeral" },
    });
    const refused = lastResult(requests[4]!);
    expect(refused.is_error).toBe(true);
    expect(String(refused.content)).toMatch(/^The tool "Write" is not allowed while the skill "notes" is active/);
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);
    expect(steps.map((step) => step.activated.map((a) => `${a.skill}:${a.trigger}`))).toEqual([
      ["tax-terms:keyword"],
      ["db-rules:path"],
      ["notes:load"],
      [],
      [],
    ]);

    // Breakpoints: at most four, on system, tools, the last message and the previous request's end.
    for (const request of requests) {
      const marks = breakpoints(messagesOf(request));
      expect(marks.length + 2).toBeLessThanOrEqual(4);
      expect(marks.at(-1)!.message).toBe(messagesOf(request).length - 1);
    }
    expectStablePrefix(requests);

    // A resumed context sends the same bytes, and the loaded skill's MCP tool again.
    const saved = ctx.state;
    await ctx.close();
    const resumed = await scenario.context(log, { ...FILTER, conversation: { state: saved } });
    provider.script(...scriptOf(RESUMED_RUN));
    history.push({ role: "user", content: RESUMED_USER_TEXT });
    await loop(resumed, client, history);
    const again = requests.slice(5);
    expectStablePrefix([requests[4]!, ...again]);
    expect(messagesOf(again[0]!).at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: RESUMED_USER_TEXT, cache_control: { type: "ephemeral" } }],
    });
    expect(again.map(toolNames)).toEqual([NOTES_TOOLS, NOTES_TOOLS]);
    expect(lastResult(again[1]!)).toMatchObject({ tool_use_id: "toolu_6_0", content: "again" });
  });

  it("two tool results in one user message: the rule goes inside the one whose call touched the path; cacheControl false adds no breakpoint", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log);
    const { client, provider } = await setup();
    provider.script(
      {
        calls: [
          { name: "Read", input: { path: "README.md" } },
          { name: "Read", input: { path: "src/db/schema.ts" } },
        ],
      },
      { text: "ok" },
    );
    const history: MessageParam[] = [{ role: "user", content: "look at two files" }];
    for (let turn = 0; turn < 2; turn++) {
      const step = await ctx.buildContext(fromAnthropicMessages(history));
      const response = await client.messages.create({
        model: "claude-test",
        max_tokens: 64,
        ...toAnthropicRequest(step, { cacheControl: false }),
      });
      history.push({ role: "assistant", content: response.content });
      if (response.stop_reason === "tool_use")
        history.push({ role: "user", content: await runAnthropicToolUses(ctx, response.content) });
    }
    const second = provider.requests[1]!;
    expect(second.raw).not.toContain("cache_control");
    const results = messagesOf(second)[2]!.content as Block[];
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({ type: "tool_result", tool_use_id: "toolu_1_0", content: SCHEMA_TEXT });
    expect(results[1]!.tool_use_id).toBe("toolu_1_1");
    expect(results[1]!.content![0]).toEqual({ type: "text", text: SCHEMA_TEXT });
    expect(results[1]!.content![1]!.text).toContain(PATH_RULE_TEXT);
  });
});
