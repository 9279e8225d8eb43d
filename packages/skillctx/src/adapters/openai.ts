import type OpenAI from "openai";
import type { AgentContext, ContextStep, ToolDefinition } from "@skillctx/engine";
import type { ContentPart, Message, ToolCall } from "@skillctx/engine";
import { messageText } from "@skillctx/engine";
import { attachmentsByMessage, withoutAttachments } from "./attachments.js";
import {
  atLeastOnePart,
  cached,
  checkToolCalls,
  convertMessages,
  duplicateIdText,
  errorText,
  InvalidMessage,
  isRecord,
  originOf,
  ownOrigin,
  textPart,
  withOrigin,
} from "./host-messages.js";
import { convertEach, PrefixCache } from "./prefix-cache.js";

/**
 * The OpenAI Chat Completions adapter, typed against the `openai` package (an optional peer: this file
 * imports its types only, so nothing of it loads at run time). The Responses API is in
 * `openai-responses.ts`; both are exported from `skillctx/openai`.
 */

/** A Chat Completions message (`messages` of `chat.completions.create`). */
export type OpenAIChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
/** A Chat Completions function tool. */
export type OpenAIChatTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
/** A tool call of an assistant message (`message.tool_calls` of a completion). */
export type OpenAIToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;
/** The `tool` message that answers a tool call. */
export type OpenAIToolMessage = OpenAI.Chat.Completions.ChatCompletionToolMessageParam;

/** Options of {@link toOpenAIChatRequest}. */
export interface OpenAIChatRequestOptions {
  /** The role of the message that carries `step.system`: `developer` for reasoning models that want it. @default "system" */
  systemRole?: "system" | "developer";
}

/** The request body parts that {@link toOpenAIChatRequest} fills in; spread it into `chat.completions.create`. */
export interface OpenAIChatRequest {
  /** `step.system` first (as `systemRole`), then the step's messages with attached skill text in place. */
  messages: OpenAIChatMessage[];
  /** Left out when the step has no tools (the API refuses an empty list). */
  tools?: OpenAIChatTool[];
}

/** The tools of a step (or any definitions) as Chat Completions function tools. */
export function toOpenAITools(tools: readonly ToolDefinition[]): OpenAIChatTool[] {
  return tools.map((tool) =>
    cached(chatTools, tool, () => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    })),
  );
}

/**
 * The `messages` and `tools` of a Chat Completions request for a step: `step.system` as the first message,
 * then the step's messages, then its tools. A message converted by {@link fromOpenAIMessages} is sent as
 * the host's own object; one the step attached skill text to is a copy with the texts in it (a user message
 * gets them as text parts, a tool message after its text, separated by a blank line, or as text parts when
 * its content is a list). Only what is new since the previous step is converted.
 *
 * @example
 * const step = await ctx.buildContext(fromOpenAIMessages(history));
 * const completion = await client.chat.completions.create({ model: "gpt-5", ...toOpenAIChatRequest(step) });
 */
export function toOpenAIChatRequest(step: ContextStep, options: OpenAIChatRequestOptions = {}): OpenAIChatRequest {
  const texts = attachmentsByMessage(step);
  const converted = convertEach(chatSteps, step.messages, (message, index) =>
    chatMessageFor(message, texts.get(index) ?? []),
  );
  if (step.system !== "") converted.unshift({ role: options.systemRole ?? "system", content: step.system });
  return step.tools.length === 0 ? { messages: converted } : { messages: converted, tools: toOpenAITools(step.tools) };
}

/**
 * Chat Completions messages as skillctx messages, one for one: `developer` counts as `system`; a user or
 * tool message's content becomes text parts (other parts pass as they are); tool-call arguments stay JSON
 * text (the engine reads paths from it; `ctx.callTool` parses it). A call of another kind than `function`
 * (a custom tool call) stays in the message as a part of type `openai_tool_call`, and a deprecated
 * `function` message as a part of type `openai_message`. The same message object converts to the same
 * skillctx message every step, so the engine's work stays proportional to what is new.
 *
 * @throws SkillctxError `MESSAGES_INVALID` naming the message and field that is not a Chat Completions message.
 */
export function fromOpenAIMessages(messages: readonly OpenAIChatMessage[]): Message[] {
  return convertMessages("fromOpenAIMessages", messages, (list) =>
    convertEach(chatInputs, list as readonly OpenAIChatMessage[], fromChatMessage),
  );
}

/**
 * skillctx messages as Chat Completions messages. A message made by {@link fromOpenAIMessages} converts back
 * to the very object it came from; others are written from their fields (tool-call arguments as JSON text).
 */
export function toOpenAIMessages(messages: readonly Message[]): OpenAIChatMessage[] {
  return messages.map(
    (message) => ownOrigin<OpenAIChatMessage>(message, "openai-chat")?.host ?? chatMessageOf(message),
  );
}

/**
 * Runs an assistant message's tool calls through `ctx.callTool`, in order, and returns the `tool` messages
 * that answer them, one per call. Function calls run (their JSON text is checked by the tool: bad JSON or
 * bad arguments are error results); a call of another kind and a second call with an id already used are
 * answered with an error result and not run. Error results start with `Error:`.
 *
 * @example
 * const message = completion.choices[0]!.message;
 * history.push(message, ...(await runOpenAIToolCalls(ctx, message.tool_calls)));
 * @throws SkillctxError `TOOL_CALLS_INVALID` (before anything runs) for a list that is not tool calls with ids.
 */
export async function runOpenAIToolCalls(
  ctx: AgentContext,
  toolCalls: readonly OpenAIToolCall[] | null | undefined,
  options: { signal?: AbortSignal } = {},
): Promise<OpenAIToolMessage[]> {
  if (toolCalls === undefined || toolCalls === null) return [];
  const calls = checkToolCalls("runOpenAIToolCalls", toolCalls, () => true, "id");
  const seen = new Set<string>();
  const out: OpenAIToolMessage[] = [];
  for (const call of calls) {
    const id = call.id as string;
    out.push({ role: "tool", tool_call_id: id, content: await answer(ctx, call, seen, options) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

const chatTools = new WeakMap<ToolDefinition, OpenAIChatTool>();
const chatInputs = new PrefixCache<OpenAIChatMessage, Message>();
const chatSteps = new PrefixCache<Message, OpenAIChatMessage>();

async function answer(
  ctx: AgentContext,
  call: Record<string, unknown>,
  seen: Set<string>,
  options: { signal?: AbortSignal },
): Promise<string> {
  const id = call.id as string;
  if (seen.has(id)) return duplicateIdText(id);
  seen.add(id);
  const fn = call.function;
  if (call.type !== "function")
    return `Error: skillctx runs function tool calls only; this call (type ${JSON.stringify(call.type)}) was not run.`;
  if (!isRecord(fn) || typeof fn.name !== "string")
    return "Error: this function call names no function; it was not run.";
  const result = await ctx.callTool(fn.name, fn.arguments, options);
  return result.isError === true ? errorText(result.content) : result.content;
}

function fromChatMessage(message: unknown, index: number): Message {
  if (!isRecord(message)) throw new InvalidMessage(index, ` must be an object`);
  const origin = { format: "openai-chat", host: message, slot: 0 } as const;
  switch (message.role) {
    case "system":
    case "developer":
      return withOrigin({ role: "system", content: joinedText(message.content, index) }, origin);
    case "user":
      return withOrigin({ role: "user", content: atLeastOnePart(partsOf(message.content, index)) }, origin);
    case "tool":
      if (typeof message.tool_call_id !== "string") throw new InvalidMessage(index, `.tool_call_id must be a string`);
      return withOrigin(
        { role: "tool", content: atLeastOnePart(partsOf(message.content, index)), toolCallId: message.tool_call_id },
        origin,
      );
    case "assistant":
      return withOrigin(fromAssistant(message, index), origin);
    case "function":
      return withOrigin({ role: "assistant", content: [{ type: "openai_message", message }] }, origin);
    default:
      throw new InvalidMessage(
        index,
        `.role must be system, developer, user, assistant, tool or function; got ${JSON.stringify(message.role)}`,
      );
  }
}

function fromAssistant(message: Record<string, unknown>, index: number): Message {
  const content: string | ContentPart[] =
    message.content === undefined || message.content === null
      ? ""
      : typeof message.content === "string"
        ? message.content
        : partsOf(message.content, index);
  if (message.tool_calls === undefined || message.tool_calls === null) return { role: "assistant", content };
  if (!Array.isArray(message.tool_calls)) throw new InvalidMessage(index, `.tool_calls must be an array`);
  const toolCalls: ToolCall[] = [];
  const others: ContentPart[] = [];
  message.tool_calls.forEach((call: unknown, k) => {
    if (!isRecord(call) || typeof call.id !== "string")
      throw new InvalidMessage(index, `.tool_calls[${k}] must be an object with a string id`);
    const fn = call.function;
    if (call.type === "function" && isRecord(fn) && typeof fn.name === "string")
      toolCalls.push({ id: call.id, name: fn.name, args: fn.arguments });
    else others.push({ type: "openai_tool_call", call });
  });
  const withOthers =
    others.length === 0
      ? content
      : [...(typeof content === "string" ? (content === "" ? [] : [textPart(content)]) : content), ...others];
  return toolCalls.length === 0
    ? { role: "assistant", content: withOthers }
    : { role: "assistant", content: withOthers, toolCalls };
}

// Text parts become fresh text parts; other parts are shallow copies (so every part is the message's own).
function partsOf(content: unknown, index: number): ContentPart[] {
  if (typeof content === "string") return [textPart(content)];
  if (!Array.isArray(content)) throw new InvalidMessage(index, `.content must be a string or an array of parts`);
  return content.map((part: unknown, k) => {
    if (!isRecord(part) || typeof part.type !== "string")
      throw new InvalidMessage(index, `.content[${k}] must be a part with a type`);
    if (part.type !== "text") return { ...part } as ContentPart;
    if (typeof part.text !== "string") throw new InvalidMessage(index, `.content[${k}].text must be a string`);
    return textPart(part.text);
  });
}

function joinedText(content: unknown, index: number): string {
  if (typeof content === "string") return content;
  return messageText({ role: "system", content: partsOf(content, index) });
}

// The message to send for `message` of the step, with `texts` attached to it.
function chatMessageFor(message: Message, texts: readonly string[]): OpenAIChatMessage {
  const origin = originOf<OpenAIChatMessage>(message, "openai-chat");
  if (texts.length === 0) return origin?.host ?? chatMessageOf(message);
  return withChatTexts(origin?.host ?? chatMessageOf(withoutAttachments(message, texts.length)), texts);
}

// A copy of `message` with `texts` attached: text parts on a user message; on other messages, after
// the text (blank line between) when the content is a string, as text parts when it is a list.
function withChatTexts(message: OpenAIChatMessage, texts: readonly string[]): OpenAIChatMessage {
  const parts = texts.map((text) => ({ type: "text" as const, text }));
  switch (message.role) {
    case "user": {
      const base =
        typeof message.content === "string"
          ? message.content === ""
            ? []
            : [{ type: "text" as const, text: message.content }]
          : message.content;
      return { ...message, content: [...base, ...parts] };
    }
    case "tool":
    case "system":
    case "developer":
      return typeof message.content === "string"
        ? { ...message, content: [message.content, ...texts].join("\n\n") }
        : { ...message, content: [...message.content, ...parts] };
    case "assistant":
    case "function":
      // The engine attaches to user and tool messages only; anything else keeps its text visible.
      return {
        ...message,
        content: [typeof message.content === "string" ? message.content : "", ...texts].join("\n\n"),
      } as OpenAIChatMessage;
  }
}

// A skillctx message written as a Chat Completions message, from its fields.
function chatMessageOf(message: Message): OpenAIChatMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: messageText(message) };
    case "user":
      return {
        role: "user",
        content: typeof message.content === "string" ? message.content : message.content.map(chatUserPart),
      };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId ?? "", content: messageText(message) };
    case "assistant": {
      const parts = typeof message.content === "string" ? [] : message.content;
      const kept = parts.find((part) => part.type === "openai_message");
      if (kept !== undefined) return (kept as Record<string, unknown>).message as OpenAIChatMessage;
      const text = messageText(message);
      const calls: OpenAIToolCall[] = (message.toolCalls ?? []).map((call) => ({
        id: call.id,
        type: "function",
        function: {
          name: call.name,
          arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
        },
      }));
      for (const part of parts)
        if (part.type === "openai_tool_call") calls.push((part as Record<string, unknown>).call as OpenAIToolCall);
      return calls.length === 0
        ? { role: "assistant", content: text }
        : { role: "assistant", content: text === "" ? null : text, tool_calls: calls };
    }
  }
}

function chatUserPart(part: ContentPart): OpenAI.Chat.Completions.ChatCompletionContentPart {
  return part.type === "text"
    ? { type: "text", text: String(part.text) }
    : (part as unknown as OpenAI.Chat.Completions.ChatCompletionContentPart);
}
