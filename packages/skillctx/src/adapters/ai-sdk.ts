import type { ModelMessage, PrepareStepFunction, Tool, ToolResultPart, ToolSet } from "ai";
import type { AgentContext, ContextStep } from "../engine/agent-context.js";
import type { ContentPart, Message } from "../messages.js";
import { messageText } from "../messages.js";
import type { ToolResult } from "../tools/tool-provider.js";
import { appendedTexts, withTexts } from "./appended-text.js";

/**
 * Adapters for the Vercel AI SDK (`ai` v6). This file imports only the SDK's types: the tool schemas are
 * Standard JSON Schema objects (`~standard.jsonSchema`), which the SDK accepts as `inputSchema`, so
 * skillctx needs `ai` at run time only in the host that already has it.
 */

/** A tool set entry made by {@link toAiSdkTools}: it returns the skillctx result and shows the model its text. */
export type AiSdkSkillTool = Tool<unknown, ToolResult>;

/**
 * The context's tools as an AI SDK tool set: each `execute` calls `ctx.callTool`, and the model sees the
 * result text (an `error-text` output when `isError`). Every tool is included, ignoring allowed-tools;
 * pass {@link skillctxPrepareStep} as `prepareStep` so each step lists only the allowed ones.
 * Tools that appear later (an MCP server started by a skill) need a new tool set for the next call.
 *
 * @example
 * const result = await generateText({ model, tools: toAiSdkTools(ctx), prepareStep: skillctxPrepareStep(ctx),
 *   stopWhen: stepCountIs(10), messages: [{ role: "user", content: "Fill the form" }] });
 */
export function toAiSdkTools(ctx: AgentContext): ToolSet {
  const tools: Record<string, AiSdkSkillTool> = {};
  for (const definition of ctx.listTools({ all: true })) {
    const name = definition.name;
    tools[name] = {
      description: definition.description,
      inputSchema: standardJsonSchema(definition.inputSchema) as AiSdkSkillTool["inputSchema"],
      execute: (input, options) => ctx.callTool(name, input, options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
      toModelOutput: ({ output }) => (output.isError === true ? { type: "error-text", value: output.content } : { type: "text", value: output.content }),
    };
  }
  return tools;
}

/**
 * A `prepareStep` for `generateText` / `streamText` that runs `ctx.buildContext` before every model call:
 * it replaces `system` with the context's (put the host prompt in `systemPrompt` of the context), attaches
 * triggered skill text to the messages (keeping every other part as it was), and sets `activeTools` to
 * the step's tools, so the active skill's allowed-tools apply. `onStep` sees each step (activations,
 * diagnostics).
 */
export function skillctxPrepareStep(
  ctx: AgentContext,
  options: { signal?: AbortSignal; onStep?: (step: ContextStep) => void } = {},
): PrepareStepFunction<ToolSet> {
  const converted = new WeakMap<ModelMessage, Message[]>();
  return async ({ messages }) => {
    const neutral: Message[] = [];
    const owner: number[] = [];
    messages.forEach((message, index) => {
      let parts = converted.get(message);
      if (parts === undefined) {
        parts = fromAiSdkMessage(message);
        converted.set(message, parts);
      }
      for (const part of parts) {
        neutral.push(part);
        owner.push(index);
      }
    });
    const step = await ctx.buildContext(neutral, options.signal === undefined ? {} : { signal: options.signal });
    options.onStep?.(step);
    const out = messages.slice();
    step.messages.forEach((after, i) => {
      const texts = appendedTexts(neutral[i]!, after);
      if (texts.length > 0) out[owner[i]!] = attach(out[owner[i]!]!, neutral[i]!, texts);
    });
    return { system: step.system, messages: out, activeTools: step.tools.map((tool) => tool.name) };
  };
}

/** AI SDK messages as skillctx messages. A tool message becomes one skillctx message per tool result. */
export function fromAiSdkMessages(messages: readonly ModelMessage[]): Message[] {
  return messages.flatMap(fromAiSdkMessage);
}

/** skillctx messages as AI SDK messages; a tool result's tool name is taken from the call it answers. */
export function toAiSdkMessages(messages: readonly Message[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case "system":
        return { role: "system", content: messageText(message) };
      case "user":
        return typeof message.content === "string"
          ? { role: "user", content: message.content }
          : { role: "user", content: message.content as Extract<ModelMessage, { role: "user" }>["content"] };
      case "assistant": {
        const calls = message.toolCalls ?? [];
        for (const call of calls) toolNames.set(call.id, call.name);
        if (calls.length === 0 && typeof message.content === "string") return { role: "assistant", content: message.content };
        const parts: ContentPart[] = typeof message.content === "string" ? textParts(message.content) : [...message.content];
        for (const call of calls) parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.args });
        return { role: "assistant", content: parts as Extract<ModelMessage, { role: "assistant" }>["content"] };
      }
      case "tool":
        return {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: message.toolCallId ?? "",
              toolName: toolNames.get(message.toolCallId ?? "") ?? "unknown",
              output: { type: "text", value: messageText(message) },
            },
          ],
        };
    }
  });
}

// ---------------------------------------------------------------------------------------------

// Which tool-result part of its AI SDK message a converted tool message came from.
const resultIndex = new WeakMap<Message, number>();

function fromAiSdkMessage(message: ModelMessage): Message[] {
  switch (message.role) {
    case "system":
      return [{ role: "system", content: message.content }];
    case "user":
      return [{ role: "user", content: typeof message.content === "string" ? message.content : (message.content as ContentPart[]) }];
    case "assistant": {
      if (typeof message.content === "string") return [{ role: "assistant", content: message.content }];
      const content: ContentPart[] = [];
      const toolCalls: NonNullable<Message["toolCalls"]> = [];
      for (const part of message.content) {
        if (part.type === "tool-call") toolCalls.push({ id: part.toolCallId, name: part.toolName, args: part.input });
        else content.push(part as ContentPart);
      }
      return [toolCalls.length === 0 ? { role: "assistant", content } : { role: "assistant", content, toolCalls }];
    }
    case "tool": {
      const out: Message[] = [];
      message.content.forEach((part, index) => {
        if (part.type !== "tool-result") return;
        const converted: Message = { role: "tool", content: outputText(part.output), toolCallId: part.toolCallId };
        resultIndex.set(converted, index);
        out.push(converted);
      });
      return out;
    }
  }
}

/** The text of a tool output, as the model would read it. */
function outputText(output: ToolResultPart["output"]): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "json":
    case "error-json":
      return JSON.stringify(output.value);
    case "execution-denied":
      return output.reason ?? "Execution denied.";
    case "content":
      return output.value.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  }
}

// A copy of `message` with `texts` attached to the part that `source` came from.
function attach(message: ModelMessage, source: Message, texts: string[]): ModelMessage {
  if (message.role === "user") {
    const base = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
    return { ...message, content: [...base, ...texts.map((text) => ({ type: "text" as const, text }))] };
  }
  if (message.role === "tool") {
    const index = resultIndex.get(source);
    if (index === undefined) return message;
    const content = message.content.map((part, i) => {
      if (i !== index || part.type !== "tool-result") return part;
      const output = part.output;
      const merged: ToolResultPart["output"] =
        output.type === "content"
          ? { ...output, value: [...output.value, ...texts.map((text) => ({ type: "text" as const, text }))] }
          : { type: output.type === "error-text" || output.type === "error-json" ? "error-text" : "text", value: withTexts(outputText(output), texts) };
      return { ...part, output: merged };
    });
    return { ...message, content };
  }
  return message;
}

function textParts(text: string): ContentPart[] {
  return text === "" ? [] : [{ type: "text", text }];
}

/**
 * A Standard Schema (v1) carrying a JSON Schema, the interop form the AI SDK accepts as `inputSchema`.
 * It accepts any value: `ctx.callTool` checks arguments itself and answers bad ones with an error result.
 */
function standardJsonSchema(schema: Record<string, unknown>): unknown {
  const input = () => structuredClone(schema);
  return {
    "~standard": {
      version: 1,
      vendor: "skillctx",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input, output: input },
    },
  };
}
