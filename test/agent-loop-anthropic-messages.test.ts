/**
 * The Anthropic adapter's conversions, without a server: messages both ways (a user message split into
 * one skillctx message per tool_result and put back together), attachments inside the tool_result they
 * belong to, cache breakpoints, tools typed as `Anthropic.Tool[]`, and running tool uses.
 */
import { describe, expect, it } from "vitest";
import {
  fromAnthropicMessages,
  runAnthropicToolUses,
  toAnthropicMessages,
  toAnthropicRequest,
  toAnthropicTools,
} from "skillctx/anthropic";
import { useScenario } from "./helpers/agent-scenario.js";
import { stepWith } from "./helpers/adapter-requests.js";

type MessageParam = import("@anthropic-ai/sdk").Anthropic.MessageParam;
const scenario = useScenario();
const EPHEMERAL = { type: "ephemeral" };

const HISTORY: MessageParam[] = [
  { role: "user", content: "look at two files" },
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hmm", signature: "sig" },
      { type: "text", text: "Reading." },
      { type: "tool_use", id: "t1", name: "Read", input: { path: "README.md" } },
      { type: "tool_use", id: "t2", name: "Read", input: { path: "src/db/schema.ts" } },
    ],
  },
  {
    role: "user",
    content: [
      { type: "tool_result", tool_use_id: "t1", content: "readme", is_error: false },
      { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "schema" }], is_error: true },
      { type: "text", text: "and hurry" },
    ],
  },
];

describe("Anthropic messages", () => {
  it("splits a user message into one tool message per tool_result, then its other blocks", () => {
    expect(fromAnthropicMessages(HISTORY)).toEqual([
      { role: "user", content: [{ type: "text", text: "look at two files" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig" },
          { type: "text", text: "Reading." },
        ],
        toolCalls: [
          { id: "t1", name: "Read", args: { path: "README.md" } },
          { id: "t2", name: "Read", args: { path: "src/db/schema.ts" } },
        ],
      },
      { role: "tool", content: [{ type: "text", text: "readme" }], toolCallId: "t1" },
      { role: "tool", content: [{ type: "text", text: "schema" }], toolCallId: "t2" },
      { role: "user", content: [{ type: "text", text: "and hurry" }] },
    ]);
  });

  it("puts the split messages back into the host's objects, and attachments inside the tool_result they belong to", () => {
    const neutral = fromAnthropicMessages(HISTORY);
    const plain = toAnthropicRequest(stepWith(neutral), { cacheControl: false });
    plain.messages.forEach((message, i) => expect(message).toBe(HISTORY[i]));
    expect(plain.system).toEqual([{ type: "text", text: "sys" }]);

    const attached = toAnthropicRequest(
      stepWith(neutral, [
        { messageIndex: 0, text: "KEYWORD" },
        { messageIndex: 3, text: "RULE" },
        { messageIndex: 4, text: "LATE" },
      ]),
      { cacheControl: false },
    );
    expect(attached.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look at two files" },
        { type: "text", text: "KEYWORD" },
      ],
    });
    expect(attached.messages[1]).toBe(HISTORY[1]);
    expect(attached.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "readme", is_error: false },
        {
          type: "tool_result",
          tool_use_id: "t2",
          content: [
            { type: "text", text: "schema" },
            { type: "text", text: "RULE" },
          ],
          is_error: true,
        },
        { type: "text", text: "and hurry" },
        { type: "text", text: "LATE" },
      ],
    });
    // The host's history is left as it was.
    expect((HISTORY[2]!.content as unknown[]).length).toBe(3);
  });

  it("marks system, the last tool, the last message and the previous request's end; never a thinking block", async () => {
    const ctx = await scenario.context([]);
    const step = await ctx.buildContext(fromAnthropicMessages(HISTORY));
    const request = toAnthropicRequest(step);
    expect(request.system).toEqual([{ type: "text", text: step.system, cache_control: EPHEMERAL }]);
    expect(request.tools!.map((tool) => tool.cache_control)).toEqual([
      ...Array(request.tools!.length - 1).fill(undefined),
      EPHEMERAL,
    ]);
    expect(request.messages[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "look at two files", cache_control: EPHEMERAL }],
    });
    expect(request.messages[1]).toBe(HISTORY[1]);
    expect(
      (request.messages[2]!.content as Array<{ cache_control?: unknown }>).map((block) => block.cache_control),
    ).toEqual([undefined, undefined, EPHEMERAL]);
    // The previous request ended with an assistant prefill of thinking only: no block there can carry a breakpoint.
    const thinking: MessageParam[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s" }] },
    ];
    const marked = toAnthropicRequest(stepWith(fromAnthropicMessages(thinking)), {
      cacheControl: { type: "ephemeral", ttl: "1h" },
    });
    expect(marked.messages[0]).toEqual({
      role: "user",
      content: [{ type: "text", text: "q", cache_control: { type: "ephemeral", ttl: "1h" } }],
    });
    expect(marked.messages[1]).toBe(thinking[1]);
  });

  it("writes hand-made messages one for one: a tool message as a user message with one tool_result", () => {
    expect(
      toAnthropicMessages([
        { role: "user", content: "u" },
        { role: "assistant", content: "", toolCalls: [{ id: "a", name: "Read", args: '{"path":"x"}' }] },
        { role: "tool", content: "r", toolCallId: "a" },
      ]),
    ).toEqual([
      { role: "user", content: "u" },
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "Read", input: { path: "x" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "r" }] },
    ]);
    const neutral = fromAnthropicMessages(HISTORY);
    expect(toAnthropicMessages(neutral).slice(0, 2)).toEqual(HISTORY.slice(0, 2));
    expect(toAnthropicMessages(neutral)[1]).toBe(HISTORY[1]);
  });
});

describe("Anthropic tools and tool uses", () => {
  it("writes tools as Anthropic.Tool and answers tool_use blocks, errors with is_error", async () => {
    const ctx = await scenario.context([]);
    const tools = (await ctx.buildContext([])).tools;
    expect(toAnthropicTools(tools)[2]).toEqual({
      name: "load_skill",
      description: tools[2]!.description,
      input_schema: tools[2]!.inputSchema,
    });
    const results = await runAnthropicToolUses(ctx, [
      { type: "text", text: "calling", citations: null },
      { type: "tool_use", id: "t1", name: "load_skill", input: { name: "with-resources" }, caller: { type: "direct" } },
      { type: "tool_use", id: "t2", name: "Bash", input: {}, caller: { type: "direct" } },
    ]);
    expect(results[0]).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      content: expect.stringContaining('<skill-loaded name="with-resources">'),
    });
    expect(results[1]).toEqual({
      type: "tool_result",
      tool_use_id: "t2",
      content: expect.stringMatching(/^Unknown tool "Bash"/),
      is_error: true,
    });
    expect(await runAnthropicToolUses(ctx, "text only")).toEqual([]);
  });
});
