import type Anthropic from "@anthropic-ai/sdk";
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
  InvalidMessage,
  isRecord,
  originOf,
  ownOrigin,
  textPart,
  withOrigin,
} from "./host-messages.js";
import type { Origin } from "./host-messages.js";
import { convertEach, PrefixCache } from "./prefix-cache.js";
import { withBreakpoints } from "./anthropic-cache.js";
import { decodeToolArguments } from "@skillctx/core/internal";

/**
 * The Anthropic Messages API adapter, typed against `@anthropic-ai/sdk` (an optional peer: this file
 * imports its types only).
 */

/** Options of {@link toAnthropicRequest}. */
export interface AnthropicRequestOptions {
  /**
   * The `cache_control` put on each breakpoint (the end of `system`, of `tools`, of the last message, and
   * of the message the previous request ended with); `false` adds none.
   * @default { type: "ephemeral" }
   */
  cacheControl?: Anthropic.CacheControlEphemeral | false;
}

/** The request body parts that {@link toAnthropicRequest} fills in; spread it into `messages.create`. */
export interface AnthropicRequest {
  /** `step.system` as one text block; left out when empty. */
  system?: Anthropic.TextBlockParam[];
  /** The step's messages, attached skill text in place (inside the `tool_result` it belongs to), with cache breakpoints. */
  messages: Anthropic.MessageParam[];
  /** Left out when the step has no tools. */
  tools?: Anthropic.Tool[];
}

/** The tools as Messages API tool definitions. */
export function toAnthropicTools(tools: readonly ToolDefinition[]): Anthropic.Tool[] {
  return tools.map((tool) =>
    cached(anthropicTools, tool, () => ({
      name: tool.name,
      description: tool.description,
      input_schema: (tool.inputSchema.type === "object"
        ? tool.inputSchema
        : { ...tool.inputSchema, type: "object" }) as Anthropic.Tool.InputSchema,
    })),
  );
}

/**
 * `system`, `messages` and `tools` of a Messages API request for a step, with prompt-cache breakpoints.
 * A message converted by {@link fromAnthropicMessages} is sent as the host's own object; the step's
 * attachments go into a copy of it: text blocks inside the `tool_result` block of the tool message they
 * belong to, and text blocks at the end of a user message. skillctx keeps every earlier byte of the
 * request as it was, so `cache_control` breakpoints sit at the end of `system`, the end of `tools`, the
 * last message and the message the previous request ended with (the one before the last assistant
 * message): at most the four the API allows. Only what is new since the previous step is converted.
 *
 * @example
 * const step = await ctx.buildContext(fromAnthropicMessages(history));
 * const response = await anthropic.messages.create({ model: "claude-sonnet-4-6", max_tokens: 4096, ...toAnthropicRequest(step) });
 */
export function toAnthropicRequest(step: ContextStep, options: AnthropicRequestOptions = {}): AnthropicRequest {
  const texts = attachmentsByMessage(step);
  const messages = anthropicSteps.convert(step.messages, (start, out, ends) =>
    convertStep(step.messages, texts, start, out, ends),
  );
  const control = options.cacheControl ?? EPHEMERAL;
  if (control !== false) withBreakpoints(messages, control);
  // Keys in the order the API reads the prompt after tools: system, then messages.
  const request: AnthropicRequest =
    step.system === ""
      ? { messages }
      : {
          system: [
            control === false
              ? { type: "text", text: step.system }
              : { type: "text", text: step.system, cache_control: control },
          ],
          messages,
        };
  if (step.tools.length > 0) {
    const tools = toAnthropicTools(step.tools);
    if (control !== false) tools[tools.length - 1] = { ...tools[tools.length - 1]!, cache_control: control };
    request.tools = tools;
  }
  return request;
}

/**
 * Messages API messages as skillctx messages. A user message becomes one tool message per `tool_result`
 * block (its text, other blocks kept as parts) and, when it has other blocks, one user message with them;
 * an assistant message becomes one message whose `tool_use` blocks are its tool calls (thinking and other
 * blocks are kept as parts). The same message object converts to the same skillctx messages every step.
 *
 * @throws SkillctxError `MESSAGES_INVALID` naming the message and field that is not a Messages API message.
 */
export function fromAnthropicMessages(messages: readonly Anthropic.MessageParam[]): Message[] {
  return convertMessages("fromAnthropicMessages", messages, (list) =>
    convertEach(anthropicInputs, list as readonly Anthropic.MessageParam[], fromAnthropicMessage),
  );
}

/**
 * skillctx messages as Messages API messages, one for one: a tool message becomes a user message with one
 * `tool_result` block (the API joins consecutive user turns). An assistant or system message made by
 * {@link fromAnthropicMessages}, or a user message made from string content, converts back to its own
 * object. Use {@link toAnthropicRequest} for a step: it also puts split user messages back together.
 */
export function toAnthropicMessages(messages: readonly Message[]): Anthropic.MessageParam[] {
  return messages.map((message) => {
    const own = ownOrigin<Anthropic.MessageParam>(message, "anthropic");
    return own !== undefined && isWhole(own) ? own.host : anthropicMessageOf(message);
  });
}

/**
 * Runs the `tool_use` blocks of `content` (pass `response.content`) through `ctx.callTool`, in order, and
 * returns the `tool_result` blocks for the next user message (`is_error` on failures). A second block with
 * an id already used is answered with an error and not run; other blocks are passed over.
 *
 * @example
 * history.push({ role: "assistant", content: response.content });
 * history.push({ role: "user", content: await runAnthropicToolUses(ctx, response.content) });
 * @throws SkillctxError `TOOL_CALLS_INVALID` (before anything runs) for a list that is not blocks, or a `tool_use` without an id.
 */
export async function runAnthropicToolUses(
  ctx: AgentContext,
  content: string | readonly (Anthropic.ContentBlock | Anthropic.ContentBlockParam)[],
  options: { signal?: AbortSignal } = {},
): Promise<Anthropic.ToolResultBlockParam[]> {
  if (typeof content === "string") return [];
  const isUse = (entry: Record<string, unknown>) => entry.type === "tool_use";
  const blocks = checkToolCalls("runAnthropicToolUses", content, isUse, "id");
  const seen = new Set<string>();
  const out: Anthropic.ToolResultBlockParam[] = [];
  for (const block of blocks) {
    if (!isUse(block)) continue;
    const id = block.id as string;
    if (seen.has(id)) {
      out.push({ type: "tool_result", tool_use_id: id, content: duplicateIdText(id), is_error: true });
      continue;
    }
    seen.add(id);
    const result = await ctx.callTool(typeof block.name === "string" ? block.name : "", block.input, options);
    out.push(
      result.isError === true
        ? { type: "tool_result", tool_use_id: id, content: result.content, is_error: true }
        : { type: "tool_result", tool_use_id: id, content: result.content },
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: "ephemeral" };
const USER_BLOCKS = -1;
const anthropicTools = new WeakMap<ToolDefinition, Anthropic.Tool>();
const anthropicInputs = new PrefixCache<Anthropic.MessageParam, Message>();
const anthropicSteps = new PrefixCache<Message, Anthropic.MessageParam>();

type Block = Anthropic.ContentBlockParam;
type ToolResultContent = Exclude<Anthropic.ToolResultBlockParam["content"], string | undefined>;

function fromAnthropicMessage(message: unknown, index: number): Message[] {
  if (!isRecord(message)) throw new InvalidMessage(index, ` must be an object`);
  const origin = (slot: number): Origin<unknown> => ({ format: "anthropic", host: message, slot });
  const content = message.content;
  if (typeof content !== "string" && !Array.isArray(content))
    throw new InvalidMessage(index, `.content must be a string or an array of blocks`);
  switch (message.role) {
    case "system":
      return [
        withOrigin(
          { role: "system", content: messageText({ role: "system", content: partsOf(content, index, ".content") }) },
          origin(0),
        ),
      ];
    case "assistant":
      return [withOrigin(fromAssistant(content, index), origin(0))];
    case "user": {
      if (typeof content === "string")
        return [withOrigin({ role: "user", content: [textPart(content)] }, origin(USER_BLOCKS))];
      const out: Message[] = [];
      const others: unknown[] = [];
      content.forEach((block: unknown, k) => {
        if (!isRecord(block) || block.type !== "tool_result") return void others.push(block);
        if (typeof block.tool_use_id !== "string")
          throw new InvalidMessage(index, `.content[${k}].tool_use_id must be a string`);
        const parts = block.content === undefined ? [] : partsOf(block.content, index, `.content[${k}].content`);
        out.push(
          withOrigin({ role: "tool", content: atLeastOnePart(parts), toolCallId: block.tool_use_id }, origin(k)),
        );
      });
      if (others.length > 0 || out.length === 0) {
        out.push(
          withOrigin(
            { role: "user", content: atLeastOnePart(partsOf(others, index, ".content")) },
            origin(USER_BLOCKS),
          ),
        );
      }
      return out;
    }
    default:
      throw new InvalidMessage(index, `.role must be user, assistant or system; got ${JSON.stringify(message.role)}`);
  }
}

function fromAssistant(content: string | unknown[], index: number): Message {
  if (typeof content === "string") return { role: "assistant", content };
  const parts: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  content.forEach((block: unknown, k) => {
    if (isRecord(block) && block.type === "tool_use") {
      if (typeof block.id !== "string" || typeof block.name !== "string")
        throw new InvalidMessage(index, `.content[${k}] (tool_use) needs a string id and name`);
      toolCalls.push({ id: block.id, name: block.name, args: block.input });
    } else {
      parts.push(...partsOf([block], index, `.content[${k}]`));
    }
  });
  return toolCalls.length === 0
    ? { role: "assistant", content: parts }
    : { role: "assistant", content: parts, toolCalls };
}

// Text blocks become fresh text parts; other blocks are shallow copies.
function partsOf(content: unknown, index: number, field: string): ContentPart[] {
  if (typeof content === "string") return [textPart(content)];
  if (!Array.isArray(content)) throw new InvalidMessage(index, `${field} must be a string or an array of blocks`);
  return content.map((block: unknown, k) => {
    if (!isRecord(block) || typeof block.type !== "string")
      throw new InvalidMessage(index, `${field}[${k}] must be a block with a type`);
    if (block.type !== "text") return { ...block } as ContentPart;
    if (typeof block.text !== "string") throw new InvalidMessage(index, `${field}[${k}].text must be a string`);
    return textPart(block.text);
  });
}

// Converts `messages[start..]`: the skillctx messages made from one host message go back into it.
function convertStep(
  messages: readonly Message[],
  texts: Map<number, string[]>,
  start: number,
  out: Anthropic.MessageParam[],
  ends: number[],
): void {
  let index = start;
  while (index < messages.length) {
    const origin = originOf<Anthropic.MessageParam>(messages[index]!, "anthropic");
    if (origin === undefined) {
      const attached = texts.get(index) ?? [];
      const message = messages[index]!;
      out.push(
        attached.length === 0
          ? anthropicMessageOf(message)
          : withTexts(
              anthropicMessageOf(withoutAttachments(message, attached.length)),
              new Map([[slotOfMade(message), attached]]),
            ),
      );
      ends.push(++index);
      continue;
    }
    // The messages made from one host message follow each other, tool results in block order, then the rest.
    const bySlot = new Map<number, string[]>();
    let last = order(origin.slot) - 1;
    while (index < messages.length) {
      const next = originOf<Anthropic.MessageParam>(messages[index]!, "anthropic");
      if (next === undefined || next.host !== origin.host || order(next.slot) <= last) break;
      last = order(next.slot);
      const attached = texts.get(index);
      if (attached !== undefined && attached.length > 0) bySlot.set(next.slot, attached);
      index++;
    }
    out.push(bySlot.size === 0 ? origin.host : withTexts(origin.host, bySlot));
    ends.push(index);
  }
}

function order(slot: number): number {
  return slot === USER_BLOCKS ? Number.MAX_SAFE_INTEGER : slot;
}

// Where the texts of a message made by `anthropicMessageOf` go: its tool_result block, or the end.
function slotOfMade(message: Message): number {
  return message.role === "tool" ? 0 : USER_BLOCKS;
}

// A copy of `message` with texts attached: inside the tool_result block of a slot, or at the end.
function withTexts(
  message: Anthropic.MessageParam,
  bySlot: ReadonlyMap<number, readonly string[]>,
): Anthropic.MessageParam {
  const blocks: Block[] =
    typeof message.content === "string"
      ? message.content === ""
        ? []
        : [{ type: "text", text: message.content }]
      : [...message.content];
  const textBlocks = (texts: readonly string[]) =>
    texts.map((text): Anthropic.TextBlockParam => ({ type: "text", text }));
  for (const [slot, texts] of bySlot) {
    const block = blocks[slot];
    if (slot !== USER_BLOCKS && block?.type === "tool_result") {
      const content: ToolResultContent =
        block.content === undefined || block.content === ""
          ? []
          : typeof block.content === "string"
            ? [{ type: "text", text: block.content }]
            : block.content;
      blocks[slot] = { ...block, content: [...content, ...textBlocks(texts)] };
    } else {
      blocks.push(...textBlocks(texts));
    }
  }
  return { ...message, content: blocks } as Anthropic.MessageParam;
}

// A skillctx message written as a Messages API message, from its fields.
function anthropicMessageOf(message: Message): Anthropic.MessageParam {
  switch (message.role) {
    case "system":
      return { role: "system", content: messageText(message) };
    case "user":
      return {
        role: "user",
        content: typeof message.content === "string" ? message.content : message.content.map(blockOf),
      };
    case "tool":
      return {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: message.toolCallId ?? "",
            content:
              typeof message.content === "string"
                ? message.content
                : (message.content.map(blockOf) as ToolResultContent),
          },
        ],
      };
    case "assistant": {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0 && typeof message.content === "string")
        return { role: "assistant", content: message.content };
      const blocks: Block[] = (typeof message.content === "string" ? [textPart(message.content)] : message.content)
        .map(blockOf)
        .filter((block) => block.type !== "text" || block.text !== "");
      for (const call of calls)
        blocks.push({ type: "tool_use", id: call.id, name: call.name, input: toolInput(call.args) });
      return { role: "assistant", content: blocks };
    }
  }
}

function blockOf(part: ContentPart): Block {
  return part.type === "text" ? { type: "text", text: String(part.text) } : (part as unknown as Block);
}

// tool_use input is an object; arguments kept as JSON text (from another format) are parsed.
function toolInput(args: unknown): unknown {
  const decoded = decodeToolArguments(args, { emptyAsObject: true });
  return decoded.ok ? decoded.value : {};
}

// Whether the converted message stands for its whole host message (no tool_result blocks were split off).
function isWhole(origin: Origin<Anthropic.MessageParam>): boolean {
  const content = origin.host.content;
  return (
    origin.host.role !== "user" || typeof content === "string" || !content.some((block) => block.type === "tool_result")
  );
}
