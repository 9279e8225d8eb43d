import type OpenAI from "openai";
import type { AgentContext, ContextStep, ToolDefinition } from "@skillctx/engine";
import type { ContentPart, Message } from "@skillctx/engine";
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
 * The OpenAI Responses API adapter, typed against the `openai` package (types only). Exported from
 * `skillctx/openai` with the Chat Completions adapter.
 */

/** An input item of `responses.create`. */
export type OpenAIInputItem = OpenAI.Responses.ResponseInputItem;
/**
 * An item of a Responses conversation as the host keeps it: an input item, or an output item of a
 * response (`response.output`), which the API takes back as input.
 */
export type OpenAIResponsesItem = OpenAI.Responses.ResponseInputItem | OpenAI.Responses.ResponseOutputItem;
/** A Responses API function tool. */
export type OpenAIResponsesTool = OpenAI.Responses.FunctionTool;
/** An item that answers a call: a function call output, or the error output of a custom tool call. */
export type OpenAICallOutput =
  | OpenAI.Responses.ResponseInputItem.FunctionCallOutput
  | OpenAI.Responses.ResponseCustomToolCallOutput;

/** The request body parts that {@link toOpenAIResponsesRequest} fills in; spread it into `responses.create`. */
export interface OpenAIResponsesRequest {
  /** `step.system`; left out when empty. */
  instructions?: string;
  /** The step's messages as input items, attached skill text in place (sent whole every turn). */
  input: OpenAIInputItem[];
  /** Left out when the step has no tools. */
  tools?: OpenAIResponsesTool[];
}

/** The tools as Responses API function tools (`strict: false`: skillctx checks arguments itself). */
export function toOpenAIResponsesTools(tools: readonly ToolDefinition[]): OpenAIResponsesTool[] {
  return tools.map((tool) =>
    cached(responsesTools, tool, () => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      strict: false,
    })),
  );
}

/**
 * `instructions`, `input` and `tools` of a Responses API request for a step. An item converted by
 * {@link fromOpenAIInput} is sent as the host's own object; one the step attached skill text to is a copy
 * with the texts in it (`input_text` parts of a user message; after the output of a function call output,
 * separated by a blank line, or as `input_text` parts when its output is a list). Send the whole history
 * each turn (no `previous_response_id`): only what is new since the previous step is converted.
 *
 * @example
 * const step = await ctx.buildContext(fromOpenAIInput(items));
 * const response = await client.responses.create({ model: "gpt-5", ...toOpenAIResponsesRequest(step) });
 */
export function toOpenAIResponsesRequest(step: ContextStep): OpenAIResponsesRequest {
  const texts = attachmentsByMessage(step);
  const input = convertEach(responsesSteps, step.messages, (message, index) =>
    itemsFor(message, texts.get(index) ?? []),
  );
  const request: OpenAIResponsesRequest = step.system === "" ? { input } : { instructions: step.system, input };
  if (step.tools.length > 0) request.tools = toOpenAIResponsesTools(step.tools);
  return request;
}

/**
 * Responses API items (input items and `response.output` items) as skillctx messages, one for one: a
 * message item by its role (`developer` counts as `system`; content becomes text parts, other parts pass
 * as they are); a `function_call` as an assistant message with one tool call (arguments stay JSON text);
 * a `function_call_output` as a tool message. Any other item (reasoning, hosted tool calls, custom tool
 * calls and their outputs, ...) becomes an assistant message holding it as a part of type `openai_item`,
 * and goes back to the API unchanged. A string input is one user message.
 *
 * @throws SkillctxError `MESSAGES_INVALID` naming the item and field that is not a Responses item.
 */
export function fromOpenAIInput(input: string | readonly OpenAIResponsesItem[]): Message[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  return convertMessages("fromOpenAIInput", input, (list) =>
    convertEach(responsesInputs, list as readonly OpenAIResponsesItem[], fromItem),
  );
}

/**
 * skillctx messages as Responses API input items. A message made by {@link fromOpenAIInput} converts back
 * to the very item it came from; others are written from their fields (an assistant message with tool
 * calls becomes its text, if any, then one `function_call` item per call).
 */
export function toOpenAIInput(messages: readonly Message[]): OpenAIInputItem[] {
  return messages.flatMap((message) => {
    const own = ownOrigin<OpenAIResponsesItem>(message, "openai-responses");
    return own === undefined ? itemsOf(message) : [own.host as OpenAIInputItem];
  });
}

/**
 * Runs the function calls among `items` (pass `response.output`) through `ctx.callTool`, in order, and
 * returns a `function_call_output` for each. A custom tool call is answered with an error output and not
 * run, and so is a second call with a `call_id` already used. Other items need no answer from the host
 * (messages, reasoning, tool calls the API runs itself) and are passed over. Error outputs start with `Error:`.
 *
 * @example
 * items.push(...response.output, ...(await runOpenAIResponsesCalls(ctx, response.output)));
 * @throws SkillctxError `TOOL_CALLS_INVALID` (before anything runs) for a list that is not items, or a call without a `call_id`.
 */
export async function runOpenAIResponsesCalls(
  ctx: AgentContext,
  items: readonly OpenAIResponsesItem[],
  options: { signal?: AbortSignal } = {},
): Promise<OpenAICallOutput[]> {
  const isCall = (entry: Record<string, unknown>) =>
    entry.type === "function_call" || entry.type === "custom_tool_call";
  const checked = checkToolCalls("runOpenAIResponsesCalls", items, isCall, "call_id");
  const seen = new Set<string>();
  const out: OpenAICallOutput[] = [];
  for (const item of checked) {
    if (!isCall(item)) continue;
    const id = item.call_id as string;
    if (seen.has(id)) {
      out.push(
        item.type === "function_call"
          ? { type: "function_call_output", call_id: id, output: duplicateIdText(id) }
          : customOutput(id, duplicateIdText(id)),
      );
      continue;
    }
    seen.add(id);
    if (item.type === "custom_tool_call") {
      out.push(
        customOutput(
          id,
          `Error: skillctx runs function calls only; this custom tool call (${JSON.stringify(item.name)}) was not run.`,
        ),
      );
      continue;
    }
    const name = typeof item.name === "string" ? item.name : "";
    const result = await ctx.callTool(name, item.arguments, options);
    out.push({
      type: "function_call_output",
      call_id: id,
      output: result.isError === true ? errorText(result.content) : result.content,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

const responsesTools = new WeakMap<ToolDefinition, OpenAIResponsesTool>();
const responsesInputs = new PrefixCache<OpenAIResponsesItem, Message>();
const responsesSteps = new PrefixCache<Message, OpenAIInputItem>();

function customOutput(id: string, output: string): OpenAI.Responses.ResponseCustomToolCallOutput {
  return { type: "custom_tool_call_output", call_id: id, output };
}

function fromItem(item: unknown, index: number): Message {
  if (!isRecord(item)) throw new InvalidMessage(index, ` must be an object`);
  const origin = { format: "openai-responses", host: item, slot: 0 } as const;
  const type = item.type ?? (item.role !== undefined ? "message" : undefined);
  switch (type) {
    case "message":
      return withOrigin(fromMessageItem(item, index), origin);
    case "function_call":
      if (typeof item.call_id !== "string" || typeof item.name !== "string")
        throw new InvalidMessage(index, ` (function_call) needs a string call_id and name`);
      return withOrigin(
        { role: "assistant", content: "", toolCalls: [{ id: item.call_id, name: item.name, args: item.arguments }] },
        origin,
      );
    case "function_call_output":
      if (typeof item.call_id !== "string")
        throw new InvalidMessage(index, ` (function_call_output) needs a string call_id`);
      return withOrigin(
        { role: "tool", content: atLeastOnePart(partsOf(item.output, index, ".output")), toolCallId: item.call_id },
        origin,
      );
    default:
      if (typeof type !== "string") throw new InvalidMessage(index, ` must have a type (or a role)`);
      return withOrigin({ role: "assistant", content: [{ type: "openai_item", item }] }, origin);
  }
}

function fromMessageItem(item: Record<string, unknown>, index: number): Message {
  switch (item.role) {
    case "system":
    case "developer":
      return {
        role: "system",
        content: messageText({ role: "system", content: partsOf(item.content, index, ".content") }),
      };
    case "user":
      return { role: "user", content: atLeastOnePart(partsOf(item.content, index, ".content")) };
    case "assistant":
      return {
        role: "assistant",
        content: typeof item.content === "string" ? item.content : partsOf(item.content, index, ".content"),
      };
    default:
      throw new InvalidMessage(
        index,
        `.role must be user, assistant, system or developer; got ${JSON.stringify(item.role)}`,
      );
  }
}

// `input_text` and `output_text` parts become fresh text parts; other parts are shallow copies.
function partsOf(content: unknown, index: number, field: string): ContentPart[] {
  if (typeof content === "string") return [textPart(content)];
  if (!Array.isArray(content)) throw new InvalidMessage(index, `${field} must be a string or an array of parts`);
  return content.map((part: unknown, k) => {
    if (!isRecord(part) || typeof part.type !== "string")
      throw new InvalidMessage(index, `${field}[${k}] must be a part with a type`);
    if (part.type !== "input_text" && part.type !== "output_text") return { ...part } as ContentPart;
    if (typeof part.text !== "string") throw new InvalidMessage(index, `${field}[${k}].text must be a string`);
    return textPart(part.text);
  });
}

// The items to send for `message` of the step, with `texts` attached to it.
function itemsFor(message: Message, texts: readonly string[]): OpenAIInputItem[] {
  const origin = originOf<OpenAIResponsesItem>(message, "openai-responses");
  if (texts.length === 0) return origin === undefined ? itemsOf(message) : [origin.host as OpenAIInputItem];
  const base =
    origin === undefined ? itemsOf(withoutAttachments(message, texts.length)) : [origin.host as OpenAIInputItem];
  // A user or tool message is one item; the texts go into the last item written for it.
  const last = base[base.length - 1];
  return last === undefined ? [textsItem(texts)] : [...base.slice(0, -1), ...withItemTexts(last, texts)];
}

// A copy of `item` with `texts` attached: `input_text` parts of a message item; after the output of a
// function call output (blank line between), or `input_text` parts when the output is a list.
function withItemTexts(item: OpenAIInputItem, texts: readonly string[]): OpenAIInputItem[] {
  const parts = texts.map((text) => ({ type: "input_text" as const, text }));
  if (item.type === "function_call_output") {
    return [
      typeof item.output === "string"
        ? { ...item, output: [item.output, ...texts].join("\n\n") }
        : { ...item, output: [...item.output, ...parts] },
    ];
  }
  if ((item.type === undefined || item.type === "message") && "role" in item && item.role !== "assistant") {
    const base =
      typeof item.content === "string"
        ? item.content === ""
          ? []
          : [{ type: "input_text" as const, text: item.content }]
        : item.content;
    return [{ ...item, content: [...base, ...parts] } as OpenAIInputItem];
  }
  // The engine attaches to user and tool messages only; anything else keeps the texts visible in a user message after it.
  return [item, textsItem(texts)];
}

function textsItem(texts: readonly string[]): OpenAIInputItem {
  return { role: "user", content: texts.map((text) => ({ type: "input_text" as const, text })) };
}

// A skillctx message written as Responses input items, from its fields.
function itemsOf(message: Message): OpenAIInputItem[] {
  switch (message.role) {
    case "system":
      return [{ role: "system", content: messageText(message) }];
    case "user":
      return [
        {
          role: "user",
          content: typeof message.content === "string" ? message.content : message.content.map(inputPart),
        },
      ];
    case "tool":
      return [{ type: "function_call_output", call_id: message.toolCallId ?? "", output: messageText(message) }];
    case "assistant": {
      const parts = typeof message.content === "string" ? [] : message.content;
      const items: OpenAIInputItem[] = parts
        .filter((part) => part.type === "openai_item")
        .map((part) => (part as Record<string, unknown>).item as OpenAIInputItem);
      const text = messageText(message);
      if (text !== "") items.unshift({ role: "assistant", content: text });
      for (const call of message.toolCalls ?? []) {
        items.push({
          type: "function_call",
          call_id: call.id,
          name: call.name,
          arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
        });
      }
      return items;
    }
  }
}

function inputPart(part: ContentPart): OpenAI.Responses.ResponseInputContent {
  return part.type === "text"
    ? { type: "input_text", text: String(part.text) }
    : (part as unknown as OpenAI.Responses.ResponseInputContent);
}
