/**
 * Agent loops through the official `openai` client, pointed at a local server that answers like the Chat
 * Completions and Responses APIs (test/helpers/fake-provider.ts), so the real client serialises every
 * request: what the model received on each request is asserted from the raw bodies.
 */
import { describe, expect, it } from "vitest";
import {
  fromOpenAIInput,
  fromOpenAIMessages,
  runOpenAIResponsesCalls,
  runOpenAIToolCalls,
  toOpenAIChatRequest,
  toOpenAIResponsesRequest,
} from "skillctx/openai";
import type { OpenAIResponsesItem } from "skillctx/openai";
import type { AgentContext, ContextStep } from "skillctx";
import { skillctxDependency } from "./helpers/tools-fixture.js";
import { scriptOf } from "./helpers/fake-provider.js";
import { useFakeProvider } from "./helpers/adapter-requests.js";
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

/** allowed-tools narrowing the listed tools (`tools.filter: "filter"`; the default, "refuse", keeps them). */
const FILTER = { tools: { filter: "filter" } } as const;

const { default: OpenAI } = skillctxDependency<typeof import("openai")>("openai");
type ChatMessage = import("openai").OpenAI.Chat.ChatCompletionMessageParam;
type Client = InstanceType<typeof OpenAI>;

const scenario = useScenario();
const providers = useFakeProvider();

async function setup(): Promise<{ client: Client; provider: FakeProvider }> {
  const provider = await providers.start();
  return { client: new OpenAI({ baseURL: provider.openaiURL, apiKey: "test", maxRetries: 0 }), provider };
}

const REFUSAL =
  'The tool "Write" is not allowed while the skill "notes" is active (its allowed-tools: Read, mcp__notes__echo).';

/** The Chat Completions loop of the README. */
async function chatLoop(
  ctx: AgentContext,
  client: Client,
  history: ChatMessage[],
  steps: ContextStep[] = [],
): Promise<string | null> {
  for (let turn = 0; turn < 10; turn++) {
    const step = await ctx.buildContext(fromOpenAIMessages(history));
    steps.push(step);
    const completion = await client.chat.completions.create({ model: "gpt-test", ...toOpenAIChatRequest(step) });
    const message = completion.choices[0]!.message;
    history.push(message);
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content;
    history.push(...(await runOpenAIToolCalls(ctx, message.tool_calls)));
  }
  throw new Error("the loop did not end");
}

/** The Responses API loop of the README. */
async function responsesLoop(
  ctx: AgentContext,
  client: Client,
  items: OpenAIResponsesItem[],
  steps: ContextStep[] = [],
): Promise<string> {
  for (let turn = 0; turn < 10; turn++) {
    const step = await ctx.buildContext(fromOpenAIInput(items));
    steps.push(step);
    const response = await client.responses.create({ model: "gpt-test", ...toOpenAIResponsesRequest(step) });
    const outputs = await runOpenAIResponsesCalls(ctx, response.output);
    items.push(...response.output, ...outputs);
    if (outputs.length === 0) return response.output_text;
  }
  throw new Error("the loop did not end");
}

type Json = Record<string, unknown>;
const chatMessages = (request: RecordedRequest) => request.body.messages as Json[];
const chatTools = (request: RecordedRequest) =>
  ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
const responsesTools = (request: RecordedRequest) =>
  ((request.body.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
const inputOf = (request: RecordedRequest) => request.body.input as Json[];

/** Each request's list begins with the previous request's list, element for element, byte for byte. */
function expectGrowingPrefix(lists: Json[][]): void {
  for (let k = 1; k < lists.length; k++) {
    const before = lists[k - 1]!.map((element) => JSON.stringify(element));
    const after = lists[k]!.slice(0, before.length).map((element) => JSON.stringify(element));
    expect(after, `request ${k + 1} begins with request ${k}`).toEqual(before);
    expect(lists[k]!.length).toBeGreaterThan(before.length);
  }
}

describe("Chat Completions loop through the official client", () => {
  it("keyword attachment, path rule in the tool message, load_skill with its MCP tool mid-run, a refused tool, a resumed context", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log, FILTER);
    const { client, provider } = await setup();
    provider.script(...scriptOf(RUN));
    const history: ChatMessage[] = [{ role: "user", content: USER_TEXT }];
    const steps: ContextStep[] = [];
    expect(await chatLoop(ctx, client, history, steps)).toBe("Done: noted.");
    const requests = provider.requests;
    expect(requests.map((r) => r.api)).toEqual(Array(5).fill("chat"));

    // system: the context's, first, the same bytes every request.
    for (const request of requests) expect(chatMessages(request)[0]).toEqual(chatMessages(requests[0]!)[0]);
    expect(chatMessages(requests[0]!)[0]).toEqual({ role: "system", content: expect.stringContaining(HOST_PROMPT) });

    // The keyword skill as a second text part of the user message; the host's history is left as it was.
    const user = chatMessages(requests[0]!)[1] as { role: string; content: Array<{ type: string; text: string }> };
    expect(user.role).toBe("user");
    expect(user.content[0]).toEqual({ type: "text", text: USER_TEXT });
    expect(user.content[1]!.text).toMatch(/^<skill name="tax-terms" trigger="keyword" match="tax form">/);
    expect(user.content[1]!.text).toContain(KEYWORD_TEXT);
    expect(history[0]).toEqual({ role: "user", content: USER_TEXT });

    // The path rule after the text of the tool message whose call read src/db/schema.ts.
    const read = chatMessages(requests[1]!).at(-1) as { role: string; tool_call_id: string; content: string };
    expect(read.role).toBe("tool");
    expect(read.tool_call_id).toBe("call_1_0");
    expect(
      read.content.startsWith(`${SCHEMA_TEXT}\n\n<skill name="db-rules" trigger="path" match="src/db/schema.ts">`),
    ).toBe(true);
    expect(read.content).toContain(PATH_RULE_TEXT);

    // load_skill: its body answers the call; the notes server's tool is offered in the next request.
    expect(chatTools(requests[0]!)).toEqual(ALL_TOOLS);
    expect(chatTools(requests[1]!)).toEqual(ALL_TOOLS);
    expect(requests.slice(2).map(chatTools)).toEqual([NOTES_TOOLS, NOTES_TOOLS, NOTES_TOOLS]);
    expect(String(chatMessages(requests[2]!).at(-1)!.content)).toMatch(/^<skill-loaded name="notes">/);
    expect(chatMessages(requests[3]!).at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_3_0",
      content: "remember Ada",
    });

    // Write, refused by the notes skill's allowed-tools: an error result, and the host tool never ran.
    expect(String(chatMessages(requests[4]!).at(-1)!.content)).toContain(`Error: ${REFUSAL}`);
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);

    expect(steps.map((step) => step.activated.map((a) => `${a.skill}:${a.trigger}`))).toEqual([
      ["tax-terms:keyword"],
      ["db-rules:path"],
      ["notes:load"],
      [],
      [],
    ]);
    expectGrowingPrefix(requests.map(chatMessages));

    // A resumed context: the same request bytes, the loaded skill's MCP tool offered again.
    const saved = ctx.state;
    await ctx.close();
    const resumed = await scenario.context(log, { ...FILTER, conversation: { state: saved } });
    provider.script(...scriptOf(RESUMED_RUN));
    history.push({ role: "user", content: RESUMED_USER_TEXT });
    expect(await chatLoop(resumed, client, history)).toBe("Echoed.");
    const again = requests.slice(5);
    expectGrowingPrefix([chatMessages(requests[4]!), ...again.map(chatMessages)]);
    expect(chatMessages(again[0]!).slice(-2)).toEqual([
      { role: "assistant", content: "Done: noted.", refusal: null },
      { role: "user", content: RESUMED_USER_TEXT },
    ]);
    expect(again.map(chatTools)).toEqual([NOTES_TOOLS, NOTES_TOOLS]);
    expect(chatMessages(again[1]!).at(-1)).toEqual({ role: "tool", tool_call_id: "call_6_0", content: "again" });
  });

  it("answers a call of another kind with an error, and sends the system prompt as a developer message when asked", async () => {
    const ctx = await scenario.context([]);
    const { client, provider } = await setup();
    provider.script({ body: customCallCompletion() });
    const completion = await client.chat.completions.create({
      model: "gpt-test",
      ...toOpenAIChatRequest(await ctx.buildContext([]), { systemRole: "developer" }),
    });
    expect(chatMessages(provider.requests[0]!)[0]).toEqual({
      role: "developer",
      content: expect.stringContaining(HOST_PROMPT),
    });
    const message = completion.choices[0]!.message;
    const answers = await runOpenAIToolCalls(ctx, message.tool_calls);
    expect(answers).toEqual([
      {
        role: "tool",
        tool_call_id: "custom_1",
        content: 'Error: skillctx runs function tool calls only; this call (type "custom") was not run.',
      },
      { role: "tool", tool_call_id: "fn_1", content: expect.stringMatching(/^<skill-loaded name="notes">/) },
    ]);
    // The custom call goes back to the API as it came, with its answer after it.
    provider.script({ text: "ok" });
    const history: ChatMessage[] = [{ role: "user", content: "hi" }, message, ...answers];
    await client.chat.completions.create({
      model: "gpt-test",
      ...toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages(history))),
    });
    expect(chatMessages(provider.requests[1]!).slice(1)).toEqual(JSON.parse(JSON.stringify(history)));
  });
});

describe("Responses API loop through the official client", () => {
  it("keyword attachment, path rule in the function call output, load_skill with its MCP tool mid-run, a refused tool, a resumed context", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log, FILTER);
    const { client, provider } = await setup();
    provider.script(...scriptOf(RUN));
    const items: OpenAIResponsesItem[] = [{ role: "user", content: USER_TEXT }];
    expect(await responsesLoop(ctx, client, items)).toBe("Done: noted.");
    const requests = provider.requests;
    expect(requests.map((r) => r.api)).toEqual(Array(5).fill("responses"));

    for (const request of requests) expect(request.body.instructions).toBe(requests[0]!.body.instructions);
    expect(requests[0]!.body.instructions).toContain(HOST_PROMPT);

    const user = inputOf(requests[0]!)[0] as { role: string; content: Array<{ type: string; text: string }> };
    expect(user.role).toBe("user");
    expect(user.content[0]).toEqual({ type: "input_text", text: USER_TEXT });
    expect(user.content[1]!.type).toBe("input_text");
    expect(user.content[1]!.text).toContain(KEYWORD_TEXT);

    const output = inputOf(requests[1]!).at(-1) as { type: string; call_id: string; output: string };
    expect(output.type).toBe("function_call_output");
    expect(output.call_id).toBe("call_1_0");
    expect(
      output.output.startsWith(`${SCHEMA_TEXT}\n\n<skill name="db-rules" trigger="path" match="src/db/schema.ts">`),
    ).toBe(true);
    expect(output.output).toContain(PATH_RULE_TEXT);
    // The function call item goes back as the API sent it.
    expect(inputOf(requests[1]!).at(-2)).toEqual({
      type: "function_call",
      id: "fc_1_0",
      call_id: "call_1_0",
      name: "Read",
      arguments: '{"path":"src/db/schema.ts"}',
      status: "completed",
    });

    expect(requests.map(responsesTools)).toEqual([ALL_TOOLS, ALL_TOOLS, NOTES_TOOLS, NOTES_TOOLS, NOTES_TOOLS]);
    expect((requests[0]!.body.tools as Json[])[0]).toEqual({
      type: "function",
      name: "Read",
      description: "Read a file",
      parameters: {
        type: "object",
        properties: { path: { type: "string" } },
        required: ["path"],
        additionalProperties: false,
      },
      strict: false,
    });
    expect(String(inputOf(requests[2]!).at(-1)!.output)).toMatch(/^<skill-loaded name="notes">/);
    expect(inputOf(requests[3]!).at(-1)).toEqual({
      type: "function_call_output",
      call_id: "call_3_0",
      output: "remember Ada",
    });
    expect(String(inputOf(requests[4]!).at(-1)!.output)).toContain(`Error: ${REFUSAL}`);
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);
    expectGrowingPrefix(requests.map(inputOf));

    const saved = ctx.state;
    await ctx.close();
    const resumed = await scenario.context(log, { ...FILTER, conversation: { state: saved } });
    provider.script(...scriptOf(RESUMED_RUN));
    items.push({ role: "user", content: RESUMED_USER_TEXT });
    expect(await responsesLoop(resumed, client, items)).toBe("Echoed.");
    const again = requests.slice(5);
    expectGrowingPrefix([inputOf(requests[4]!), ...again.map(inputOf)]);
    expect(again.map(responsesTools)).toEqual([NOTES_TOOLS, NOTES_TOOLS]);
    expect(inputOf(again[1]!).at(-1)).toEqual({ type: "function_call_output", call_id: "call_6_0", output: "again" });
  });

  it("passes reasoning and custom tool call items through, and answers a custom tool call with an error output", async () => {
    const ctx = await scenario.context([]);
    const { client, provider } = await setup();
    const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque" };
    const custom = { type: "custom_tool_call", id: "ctc_1", call_id: "custom_1", name: "grammar", input: "x" };
    provider.script({ body: { ...responseShell(), output: [reasoning, custom] } }, { text: "ok" });
    const items: OpenAIResponsesItem[] = [{ role: "user", content: "hi" }];
    const response = await client.responses.create({
      model: "gpt-test",
      ...toOpenAIResponsesRequest(await ctx.buildContext(fromOpenAIInput(items))),
    });
    const outputs = await runOpenAIResponsesCalls(ctx, response.output);
    expect(outputs).toEqual([
      {
        type: "custom_tool_call_output",
        call_id: "custom_1",
        output: 'Error: skillctx runs function calls only; this custom tool call ("grammar") was not run.',
      },
    ]);
    items.push(...response.output, ...outputs);
    await client.responses.create({
      model: "gpt-test",
      ...toOpenAIResponsesRequest(await ctx.buildContext(fromOpenAIInput(items))),
    });
    expect(inputOf(provider.requests[1]!)).toEqual([{ role: "user", content: "hi" }, reasoning, custom, outputs[0]]);
  });
});

function customCallCompletion(): unknown {
  return {
    id: "chatcmpl-custom",
    object: "chat.completion",
    created: 0,
    model: "gpt-test",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        logprobs: null,
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            { id: "custom_1", type: "custom", custom: { name: "grammar", input: "x" } },
            { id: "fn_1", type: "function", function: { name: "load_skill", arguments: '{"name":"notes"}' } },
          ],
        },
      },
    ],
  };
}

function responseShell(): Json {
  return {
    id: "resp_x",
    object: "response",
    created_at: 0,
    status: "completed",
    model: "gpt-test",
    tool_choice: "auto",
    tools: [],
    parallel_tool_calls: true,
  };
}
