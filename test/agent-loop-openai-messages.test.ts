/**
 * The OpenAI adapter's conversions, without a server: Chat Completions messages and Responses items both
 * ways, tools, the request builders (attachments in native form, the host's objects sent as they are,
 * only new messages converted) and the tool-call runners.
 */
import { describe, expect, it } from "vitest";
import {
  fromOpenAIInput,
  fromOpenAIMessages,
  runOpenAIToolCalls,
  toOpenAIChatRequest,
  toOpenAIInput,
  toOpenAIMessages,
  toOpenAIResponsesRequest,
  toOpenAIResponsesTools,
  toOpenAITools,
} from "skillctx/openai";
import type { OpenAIChatMessage, OpenAIResponsesItem } from "skillctx/openai";
import { PATH_RULE_TEXT, useScenario } from "./helpers/agent-scenario.js";
import { stepWith } from "./helpers/adapter-requests.js";

const scenario = useScenario();

const CHAT: OpenAIChatMessage[] = [
  { role: "developer", content: "dev" },
  {
    role: "user",
    content: [
      { type: "text", text: "hi" },
      { type: "image_url", image_url: { url: "https://x/y.png" } },
    ],
    name: "ada",
  },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "c1", type: "function", function: { name: "Read", arguments: '{"path":"src/db/schema.ts"}' } },
      { id: "c2", type: "custom", custom: { name: "grammar", input: "x" } },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: "text of schema" },
  { role: "tool", tool_call_id: "c2", content: "custom answer" },
  { role: "assistant", content: "done" },
];

describe("Chat Completions messages", () => {
  it("converts to skillctx messages: developer as system, text parts, JSON text arguments, other call kinds kept as parts", () => {
    expect(fromOpenAIMessages(CHAT)).toEqual([
      { role: "system", content: "dev" },
      {
        role: "user",
        content: [
          { type: "text", text: "hi" },
          { type: "image_url", image_url: { url: "https://x/y.png" } },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "openai_tool_call", call: (CHAT[2] as { tool_calls: unknown[] }).tool_calls[1] }],
        toolCalls: [{ id: "c1", name: "Read", args: '{"path":"src/db/schema.ts"}' }],
      },
      { role: "tool", content: [{ type: "text", text: "text of schema" }], toolCallId: "c1" },
      { role: "tool", content: [{ type: "text", text: "custom answer" }], toolCallId: "c2" },
      { role: "assistant", content: "done" },
    ]);
  });

  it("converts back to the very objects it came from; hand-made messages are written from their fields", () => {
    const neutral = fromOpenAIMessages(CHAT);
    const back = toOpenAIMessages(neutral);
    back.forEach((message, i) => expect(message).toBe(CHAT[i]));
    expect(
      toOpenAIMessages([
        { role: "system", content: "s" },
        { role: "user", content: "u" },
        { role: "assistant", content: "", toolCalls: [{ id: "x", name: "Read", args: { path: "a" } }] },
        { role: "tool", content: [{ type: "text", text: "r" }], toolCallId: "x" },
        { role: "assistant", content: [{ type: "text", text: "a" }] },
      ]),
    ).toEqual([
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "x", type: "function", function: { name: "Read", arguments: '{"path":"a"}' } }],
      },
      { role: "tool", tool_call_id: "x", content: "r" },
      { role: "assistant", content: "a" },
    ]);
  });

  it("gives the same skillctx message objects for the same history every step, and new ones from a changed message on", () => {
    const history = CHAT.slice();
    const first = fromOpenAIMessages(history);
    history.push({ role: "user", content: "more" });
    const second = fromOpenAIMessages(history);
    expect(second.slice(0, first.length).every((m, i) => m === first[i])).toBe(true);
    expect(second).not.toBe(first);
    history[3] = { role: "tool", tool_call_id: "c1", content: "edited" };
    const third = fromOpenAIMessages(history);
    expect(third.slice(0, 3).every((m, i) => m === first[i])).toBe(true);
    expect(third[3]).not.toBe(first[3]);
    expect(third[3]).toEqual({ role: "tool", content: [{ type: "text", text: "edited" }], toolCallId: "c1" });
    // A fresh array of the same objects is recognised too.
    expect(fromOpenAIMessages([...history]).every((m, i) => m === third[i])).toBe(true);
  });

  it("sends the host's objects, and copies with attachments: text parts on a user message, after the text of a tool message", () => {
    const neutral = fromOpenAIMessages(CHAT);
    const request = toOpenAIChatRequest(
      stepWith(neutral, [
        { messageIndex: 1, text: "KEYWORD" },
        { messageIndex: 3, text: "RULE A" },
        { messageIndex: 3, text: "RULE B" },
      ]),
    );
    expect(request.tools).toBeUndefined();
    expect(request.messages[0]).toEqual({ role: "system", content: "sys" });
    expect(request.messages[1]).toBe(CHAT[0]);
    expect(request.messages[2]).toEqual({
      role: "user",
      name: "ada",
      content: [
        { type: "text", text: "hi" },
        { type: "image_url", image_url: { url: "https://x/y.png" } },
        { type: "text", text: "KEYWORD" },
      ],
    });
    expect(request.messages[3]).toBe(CHAT[2]);
    expect(request.messages[4]).toEqual({
      role: "tool",
      tool_call_id: "c1",
      content: "text of schema\n\nRULE A\n\nRULE B",
    });
    expect(request.messages.slice(5)).toEqual(CHAT.slice(4));
    expect(CHAT[3]).toEqual({ role: "tool", tool_call_id: "c1", content: "text of schema" });
  });

  it("attaches to hand-made messages too, and leaves the system message out when system is empty", () => {
    const request = toOpenAIChatRequest(
      stepWith([{ role: "user", content: "plain" }], [{ messageIndex: 0, text: "K" }], ""),
    );
    expect(request.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "plain" },
          { type: "text", text: "K" },
        ],
      },
    ]);
  });
});

describe("Responses items", () => {
  const ITEMS: OpenAIResponsesItem[] = [
    { role: "developer", content: "dev" },
    {
      role: "user",
      content: [
        { type: "input_text", text: "hi" },
        { type: "input_image", image_url: "https://x/y.png", detail: "auto" },
      ],
    },
    { type: "reasoning", id: "rs_1", summary: [] },
    { type: "function_call", call_id: "f1", name: "Read", arguments: '{"path":"src/db/schema.ts"}' },
    { type: "function_call_output", call_id: "f1", output: "text of schema" },
    {
      type: "message",
      id: "m1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "done", annotations: [] }],
    },
  ];

  it("converts items to skillctx messages, keeping items skillctx does not read as parts", () => {
    expect(fromOpenAIInput(ITEMS)).toEqual([
      { role: "system", content: "dev" },
      {
        role: "user",
        content: [
          { type: "text", text: "hi" },
          { type: "input_image", image_url: "https://x/y.png", detail: "auto" },
        ],
      },
      { role: "assistant", content: [{ type: "openai_item", item: ITEMS[2] }] },
      { role: "assistant", content: "", toolCalls: [{ id: "f1", name: "Read", args: '{"path":"src/db/schema.ts"}' }] },
      { role: "tool", content: [{ type: "text", text: "text of schema" }], toolCallId: "f1" },
      { role: "assistant", content: [{ type: "text", text: "done" }] },
    ]);
    expect(fromOpenAIInput("just text")).toEqual([{ role: "user", content: "just text" }]);
  });

  it("converts back to the same items; an assistant message with text and calls becomes a message and function_call items", () => {
    toOpenAIInput(fromOpenAIInput(ITEMS)).forEach((item, i) => expect(item).toBe(ITEMS[i]));
    expect(
      toOpenAIInput([
        {
          role: "assistant",
          content: "reading",
          toolCalls: [
            { id: "a", name: "Read", args: { path: "x" } },
            { id: "b", name: "Read", args: "{}" },
          ],
        },
      ]),
    ).toEqual([
      { role: "assistant", content: "reading" },
      { type: "function_call", call_id: "a", name: "Read", arguments: '{"path":"x"}' },
      { type: "function_call", call_id: "b", name: "Read", arguments: "{}" },
    ]);
  });

  it("puts attachments in input_text parts of a user item and after the output of a function call output", () => {
    const request = toOpenAIResponsesRequest(
      stepWith(fromOpenAIInput(ITEMS), [
        { messageIndex: 1, text: "K" },
        { messageIndex: 4, text: "R" },
      ]),
    );
    expect(request.instructions).toBe("sys");
    expect(request.input[1]).toEqual({
      role: "user",
      content: [
        { type: "input_text", text: "hi" },
        { type: "input_image", image_url: "https://x/y.png", detail: "auto" },
        { type: "input_text", text: "K" },
      ],
    });
    expect(request.input[4]).toEqual({ type: "function_call_output", call_id: "f1", output: "text of schema\n\nR" });
    for (const i of [0, 2, 3, 5]) expect(request.input[i]).toBe(ITEMS[i]);
  });
});

describe("tools and tool calls", () => {
  it("writes Chat Completions and Responses function tools", async () => {
    const ctx = await scenario.context([]);
    const tools = (await ctx.buildContext([])).tools;
    expect(toOpenAITools(tools)[0]).toEqual({
      type: "function",
      function: { name: "Read", description: "Read a file", parameters: tools[0]!.inputSchema },
    });
    expect(toOpenAIResponsesTools(tools)[2]).toEqual({
      type: "function",
      name: "load_skill",
      description: tools[2]!.description,
      parameters: tools[2]!.inputSchema,
      strict: false,
    });
    // The same definition gives the same tool object every step.
    expect(toOpenAITools(tools)[0]).toBe(toOpenAITools((await ctx.buildContext([])).tools)[0]);
  });

  it("runs tool calls through the context: results, error results, and the path rule in the next request", async () => {
    const log: string[] = [];
    const ctx = await scenario.context(log);
    expect(await runOpenAIToolCalls(ctx, undefined)).toEqual([]);
    const calls = [
      { id: "c1", type: "function" as const, function: { name: "Read", arguments: '{"path":"src/db/schema.ts"}' } },
      {
        id: "c2",
        type: "function" as const,
        function: { name: "read_skill_resource", arguments: '{"name": "pdf-forms", "path"' },
      },
    ];
    const history: OpenAIChatMessage[] = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: calls },
    ];
    history.push(...(await runOpenAIToolCalls(ctx, calls)));
    expect(history[3]).toEqual({
      role: "tool",
      tool_call_id: "c2",
      content: "Error: Invalid arguments for read_skill_resource: arguments must be a JSON object",
    });
    expect(log).toEqual(['Read {"path":"src/db/schema.ts"}']);
    const request = toOpenAIChatRequest(await ctx.buildContext(fromOpenAIMessages(history)));
    expect(request.messages[3]).toEqual({
      role: "tool",
      tool_call_id: "c1",
      content: expect.stringContaining(PATH_RULE_TEXT),
    });
    expect(request.messages[4]).toBe(history[3]);
  });
});
