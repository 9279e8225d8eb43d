import type { AgentContext, ContextStep, ToolDefinition } from "../engine/agent-context.js";
import type { ContentPart, Message, TextPart } from "../messages.js";
import { messageText } from "../messages.js";

/**
 * Adapters for the OpenAI APIs, as plain JSON: no dependency on the `openai` package. The shapes below are
 * the subset of `ChatCompletionMessageParam`, `ChatCompletionTool` and the Responses API `FunctionTool`
 * that skillctx reads and writes; other fields pass through untouched where noted.
 */

/** A Chat Completions function tool (`tools` of `chat.completions.create`). */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

/** A Responses API function tool (`tools` of `responses.create`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** A tool call of an assistant message. */
export interface OpenAIToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A Chat Completions message. Content parts other than text (images, audio, files) pass through as they are. */
export type OpenAIChatMessage =
  | { role: "system" | "developer"; content: string | Array<{ type: "text"; text: string }>; name?: string }
  | { role: "user"; content: string | Array<{ type: string; [key: string]: unknown }>; name?: string }
  | {
      role: "assistant";
      content?: string | null | Array<{ type: string; [key: string]: unknown }>;
      tool_calls?: OpenAIToolCall[];
      refusal?: string | null;
      name?: string;
    }
  | { role: "tool"; tool_call_id: string; content: string | Array<{ type: "text"; text: string }> };

/** The tools of a step (or any definitions) as Chat Completions function tools. */
export function toOpenAITools(tools: readonly ToolDefinition[]): OpenAIChatTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}

/** The tools as Responses API function tools (`strict: false`: skillctx checks arguments itself). */
export function toOpenAIResponsesTools(tools: readonly ToolDefinition[]): OpenAIResponsesTool[] {
  return tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: false }));
}

/**
 * A Chat Completions request body for a step: `system` as the first message, then the step's messages,
 * and its tools (left out when there are none).
 *
 * @example
 * const step = await ctx.buildContext(fromOpenAIMessages(history));
 * const reply = await openai.chat.completions.create({ model: "gpt-4o", ...toOpenAIChatRequest(step) });
 */
export function toOpenAIChatRequest(step: ContextStep): { messages: OpenAIChatMessage[]; tools?: OpenAIChatTool[] } {
  const messages: OpenAIChatMessage[] = [];
  if (step.system !== "") messages.push({ role: "system", content: step.system });
  messages.push(...toOpenAIMessages(step.messages));
  return step.tools.length === 0 ? { messages } : { messages, tools: toOpenAITools(step.tools) };
}

/** Chat Completions messages as skillctx messages (`developer` counts as `system`; arguments are parsed JSON). */
export function fromOpenAIMessages(messages: readonly OpenAIChatMessage[]): Message[] {
  return messages.map((message): Message => {
    switch (message.role) {
      case "system":
      case "developer":
        return { role: "system", content: joinText(message.content) };
      case "user":
        return { role: "user", content: typeof message.content === "string" ? message.content : message.content.map(fromOpenAIPart) };
      case "assistant": {
        const content =
          message.content === undefined || message.content === null
            ? ""
            : typeof message.content === "string"
              ? message.content
              : message.content.map(fromOpenAIPart);
        const calls = message.tool_calls ?? [];
        if (calls.length === 0) return { role: "assistant", content };
        return {
          role: "assistant",
          content,
          toolCalls: calls.map((call) => ({ id: call.id, name: call.function.name, args: parseArguments(call.function.arguments) })),
        };
      }
      case "tool":
        return { role: "tool", content: joinText(message.content), toolCallId: message.tool_call_id };
    }
  });
}

/** skillctx messages as Chat Completions messages (tool-call arguments as JSON text). */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIChatMessage[] {
  return messages.map((message): OpenAIChatMessage => {
    switch (message.role) {
      case "system":
        return { role: "system", content: messageText(message) };
      case "user":
        return { role: "user", content: typeof message.content === "string" ? message.content : message.content.map(toOpenAIPart) };
      case "assistant": {
        const text = typeof message.content === "string" ? message.content : messageText(message);
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: "assistant", content: text };
        return {
          role: "assistant",
          content: text === "" ? null : text,
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}) },
          })),
        };
      }
      case "tool":
        return { role: "tool", tool_call_id: message.toolCallId ?? "", content: messageText(message) };
    }
  });
}

/**
 * Runs an assistant message's tool calls through `ctx.callTool`, in order, and returns the `tool`
 * messages to append. Error results are marked with a leading `Error:` line unless they say so already.
 */
export async function runOpenAIToolCalls(
  ctx: AgentContext,
  toolCalls: readonly OpenAIToolCall[],
  options: { signal?: AbortSignal } = {},
): Promise<Array<Extract<OpenAIChatMessage, { role: "tool" }>>> {
  const out: Array<Extract<OpenAIChatMessage, { role: "tool" }>> = [];
  for (const call of toolCalls) {
    const result = await ctx.callTool(call.function.name, call.function.arguments, options);
    out.push({ role: "tool", tool_call_id: call.id, content: result.isError === true ? errorText(result.content) : result.content });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

function errorText(content: string): string {
  return /^error\b/i.test(content) ? content : `Error: ${content}`;
}

function joinText(content: string | ReadonlyArray<{ type: string; text?: unknown }>): string {
  if (typeof content === "string") return content;
  return content.flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : [])).join("\n");
}

function fromOpenAIPart(part: { type: string; [key: string]: unknown }): ContentPart {
  return part.type === "text" && typeof part.text === "string" ? { type: "text", text: part.text } : (part as ContentPart);
}

function toOpenAIPart(part: ContentPart): { type: string; [key: string]: unknown } {
  return part.type === "text" ? { type: "text", text: (part as TextPart).text } : (part as { type: string; [key: string]: unknown });
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // callTool answers unparsable arguments with an error result
  }
}
