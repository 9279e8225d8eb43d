import type { AgentMiddleware } from "langchain";
import type {
  BaseMessage,
  ContentBlock,
  MessageContent,
  ToolCall as LangChainToolCall,
} from "@langchain/core/messages";
import { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { DynamicStructuredTool } from "@langchain/core/tools";
import type { ClientTool, ServerTool, ToolRunnableConfig } from "@langchain/core/tools";
import { lazySchemas } from "@skillctx/core/internal";
import type { AgentContext, ContextStep, ToolDefinition } from "@skillctx/engine";
import type { ContentPart, Message, ToolCall } from "@skillctx/engine";
import type { ToolResult } from "@skillctx/engine";
import { serialized } from "@skillctx/engine/internal";
import { ItemHistory } from "./item-history.js";
import type { ItemCodec } from "./item-history.js";
import { withHostSystem } from "./host-system.js";
import { boundedArguments } from "./json-values.js";

/**
 * Adapters for LangChain.js v1: `skillctxMiddleware` for `createAgent` (from `langchain`), and tools and
 * message converters over `@langchain/core`. This module loads `@langchain/core` (messages and tools) at
 * run time and only the types of `langchain`, so the root `skillctx` entry never loads either.
 */

/** Options of {@link skillctxMiddleware}. */
export interface LangChainMiddlewareOptions {
  /** Aborts the context's steps, with the agent run's own signal. */
  signal?: AbortSignal;
  /** Sees each step (activations, diagnostics) before the model call it prepares. */
  onStep?: (step: ContextStep) => void;
}

/**
 * A middleware for `createAgent` that runs `ctx.buildContext` before every model call (`wrapModelCall`):
 * the system message becomes the context's `system` (put the host prompt in `systemPrompt` of the
 * context; a `systemPrompt` given to `createAgent` is kept, before it and a blank line), triggered skill text is attached to the message it belongs to as extra text content (inside
 * the `ToolMessage` for a tool result), and the tools are the step's, so the active skill's allowed-tools
 * apply. The tools known at creation are registered as the middleware's `tools`; a tool that appears
 * mid-run (an MCP server started by `load_skill` or a keyword) is added to the model request, and
 * `wrapToolCall` runs it, like every skillctx tool, through `ctx.callTool` (which checks the arguments
 * and answers bad calls with an error `ToolMessage`). Tools given to `createAgent` directly pass through.
 *
 * @example
 * const agent = createAgent({ model, middleware: [skillctxMiddleware(ctx)] });
 * const result = await agent.invoke({ messages: [new HumanMessage("Fill the tax form")] });
 */
export function skillctxMiddleware(ctx: AgentContext, options: LangChainMiddlewareOptions = {}): AgentMiddleware {
  const registry = new ToolRegistry(ctx);
  const tools = ctx.listTools({ all: true }).map((definition) => registry.toolFor(definition));
  // The conversation as skillctx reads it, across model calls: a call converts only the messages new to it.
  const history = new ItemHistory<BaseMessage>(LANGCHAIN_MESSAGES);
  let system: SystemMessage | undefined;
  // One step at a time (the history is shared); the engine runs its steps one at a time anyway.
  const prepare = serialized(
    async ({ messages, signal }: { messages: BaseMessage[]; signal: AbortSignal | undefined }) => {
      const step = await ctx.buildContext(history.read(messages), signal === undefined ? {} : { signal });
      options.onStep?.(step);
      return { step, messages: history.attach(messages, step, false) };
    },
  );

  const middleware: AgentMiddleware = {
    name: "skillctx",
    tools,
    wrapModelCall: async (request, handler) => {
      const { step, messages } = await prepare({
        messages: request.messages,
        signal: anySignal(options.signal, request.runtime.signal),
      });
      // The agent's own systemPrompt is kept, first (withHostSystem): never replaced without a word.
      const text = withHostSystem(request.systemMessage?.text, step.system);
      if (system?.content !== text) system = new SystemMessage(text);
      return handler({
        ...request,
        systemMessage: system,
        messages,
        tools: registry.requestTools(step.tools, request.tools),
      });
    },
    wrapToolCall: (request, handler) => {
      const tool = request.tool;
      // A tool given to createAgent directly runs as it is; skillctx's names and unknown ones go to ctx.callTool.
      if (tool !== undefined && !registry.owns(tool) && !registry.knows(request.toolCall.name)) return handler(request);
      return handler({ ...request, tool: registry.executorFor(request.toolCall.name) });
    },
  };
  // createMiddleware adds only this brand (a registered symbol); building the object here keeps `langchain` unloaded.
  Object.defineProperty(middleware, Symbol.for("AgentMiddleware"), { value: true, enumerable: true });
  return middleware;
}

/**
 * The context's tools as LangChain tools (JSON Schema input), for a loop of your own (`model.bindTools`,
 * then {@link runLangChainToolCalls} or each tool's `invoke`). Invoked with a tool call, a tool returns a
 * `ToolMessage` (`status: "error"` for skillctx error results); invoked with plain arguments, the text.
 * Every tool is included, ignoring allowed-tools: bind `toLangChainTools(ctx, step.tools)` for one step.
 * Note that `invoke` checks the arguments against the schema first (LangChain's validator); inside
 * `createAgent`, {@link skillctxMiddleware} leaves that check to `ctx.callTool`.
 */
export function toLangChainTools(
  ctx: AgentContext,
  tools: readonly ToolDefinition[] = ctx.listTools({ all: true }),
): DynamicStructuredTool[] {
  const registry = new ToolRegistry(ctx);
  return tools.map((definition) => registry.toolFor(definition));
}

/**
 * Runs the tool calls of an `AIMessage` through `ctx.callTool`, in order, and returns one `ToolMessage`
 * each (`status: "error"` for error results: unknown tool, bad arguments, a tool the active skill does not allow).
 */
export async function runLangChainToolCalls(
  ctx: AgentContext,
  toolCalls: readonly LangChainToolCall[],
  options: { signal?: AbortSignal } = {},
): Promise<ToolMessage[]> {
  const out: ToolMessage[] = [];
  for (const call of toolCalls) {
    const result = await ctx.callTool(call.name, call.args, options);
    out.push(toolMessage(call.name, call.id ?? "", result));
  }
  return out;
}

/**
 * LangChain messages as skillctx messages, one for one: human → user, ai → assistant (with its tool
 * calls), tool → tool (its `tool_call_id`), system → system; content blocks pass through as parts.
 */
export function fromLangChainMessages(messages: readonly BaseMessage[]): Message[] {
  return messages.map(fromLangChainMessage);
}

/**
 * skillctx messages as LangChain messages. Text that skillctx attached (the trailing text parts of
 * `step.messages`) stays extra text content of its message, inside the `ToolMessage` for a tool result.
 */
export function toLangChainMessages(messages: readonly Message[]): BaseMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): BaseMessage => {
    const content = message.content as MessageContent;
    switch (message.role) {
      case "system":
        return new SystemMessage({ content });
      case "user":
        return new HumanMessage({ content });
      case "assistant": {
        const calls = message.toolCalls ?? [];
        for (const call of calls) toolNames.set(call.id, call.name);
        if (calls.length === 0) return new AIMessage({ content });
        return new AIMessage({
          content,
          tool_calls: calls.map((call) => ({
            id: call.id,
            name: call.name,
            args: call.args as Record<string, unknown>,
            type: "tool_call" as const,
          })),
        });
      }
      case "tool": {
        const id = message.toolCallId ?? "";
        const name = toolNames.get(id);
        return new ToolMessage(
          name === undefined ? { content, tool_call_id: id } : { content, tool_call_id: id, name },
        );
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------

/** How the conversation history reads a LangChain message (one skillctx message) and attaches text to it. */
const LANGCHAIN_MESSAGES: ItemCodec<BaseMessage> = {
  read: (message) => [{ message: fromLangChainMessage(message), part: 0 }],
  attach: (message, texts) => [withTextContent(message, texts.get(0) ?? [])],
};

/** One LangChain tool per name, kept across steps (createAgent refuses a registered tool replaced by another instance). */
class ToolRegistry {
  private readonly tools = new Map<string, { tool: DynamicStructuredTool; definition: ToolDefinition }>();
  private readonly instances = new WeakSet<object>();
  private readonly executors = new Map<string, DynamicStructuredTool>();

  constructor(private readonly ctx: AgentContext) {}

  /** The tool for `definition`'s name; when the definition changed, the same instance takes its new description and schema. */
  toolFor(definition: ToolDefinition): DynamicStructuredTool {
    const entry = this.tools.get(definition.name);
    if (entry === undefined) {
      const tool = new DynamicStructuredTool({
        name: definition.name,
        description: definition.description,
        schema: structuredClone(definition.inputSchema),
        func: callFunction(this.ctx, definition.name),
      });
      this.tools.set(definition.name, { tool, definition });
      this.instances.add(tool);
      return tool;
    }
    if (entry.definition !== definition) {
      entry.tool.description = definition.description;
      entry.tool.schema = structuredClone(definition.inputSchema);
      entry.definition = definition;
    }
    return entry.tool;
  }

  owns(tool: ClientTool | ServerTool): boolean {
    return this.instances.has(tool);
  }

  knows(name: string): boolean {
    return this.tools.has(name);
  }

  /** A step's tools for the model request, then the request's other tools (given to createAgent directly) whose names are free. */
  requestTools(
    step: readonly ToolDefinition[],
    current: readonly (ClientTool | ServerTool)[],
  ): (ClientTool | ServerTool)[] {
    const out: (ClientTool | ServerTool)[] = step.map((definition) => this.toolFor(definition));
    let names: Set<string> | undefined;
    for (const tool of current) {
      if (this.instances.has(tool)) continue;
      names ??= new Set(step.map((definition) => definition.name));
      const name = (tool as { name?: unknown }).name;
      if (typeof name === "string" && names.has(name)) continue;
      out.push(tool);
    }
    return out;
  }

  /**
   * What runs a call to `name` inside createAgent: a tool that accepts any arguments (ctx.callTool checks
   * them, so a hostile schema of an MCP server is never run by LangChain's validator). Kept for names the
   * registry knows; a name the model made up gets one that is not kept.
   */
  executorFor(name: string): DynamicStructuredTool {
    let executor = this.executors.get(name);
    if (executor !== undefined) return executor;
    executor = new DynamicStructuredTool({
      name,
      description: this.tools.get(name)?.definition.description ?? "",
      schema: anyArguments(),
      func: callFunction(this.ctx, name),
    });
    if (this.tools.has(name)) this.executors.set(name, executor);
    return executor;
  }
}

const anyArguments = lazySchemas((z) => z.unknown());

// A tool's function: ctx.callTool, then a ToolMessage when the tool was invoked with a tool call, else the text.
function callFunction(ctx: AgentContext, name: string) {
  return async (args: unknown, _runManager?: unknown, config?: ToolRunnableConfig): Promise<ToolMessage | string> => {
    const signal = config?.signal;
    const result = await ctx.callTool(name, args, signal === undefined ? {} : { signal });
    const id = config?.toolCall?.id;
    return id === undefined ? result.content : toolMessage(name, id, result);
  };
}

function toolMessage(name: string, id: string, result: ToolResult): ToolMessage {
  return new ToolMessage({
    content: result.content,
    tool_call_id: id,
    name,
    status: result.isError === true ? "error" : "success",
  });
}

function fromLangChainMessage(message: BaseMessage): Message {
  const content = neutralContent(message.content);
  switch (message.type) {
    case "human":
      return { role: "user", content };
    case "system":
    case "developer":
      return { role: "system", content };
    case "tool":
      return { role: "tool", content, toolCallId: (message as ToolMessage).tool_call_id };
    case "ai": {
      const calls = (message as AIMessage).tool_calls ?? [];
      if (calls.length === 0) return { role: "assistant", content };
      const toolCalls: ToolCall[] = calls.map((call) => ({
        id: call.id ?? "",
        name: call.name,
        args: boundedArguments(call.args),
      }));
      return { role: "assistant", content, toolCalls };
    }
    case "generic": {
      const role = (message as ChatMessage).role;
      if (role === "user" || role === "human") return { role: "user", content };
      if (role === "system") return { role: "system", content };
      return { role: "assistant", content };
    }
    default:
      // Other kinds (function, remove, custom) carry no user text or tool result that skillctx reads.
      return { role: "assistant", content };
  }
}

// Content as skillctx reads it: a string, or the blocks that have a type (text blocks are what it matches).
function neutralContent(content: unknown): string | ContentPart[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: ContentPart[] = [];
  for (const block of content as unknown[]) {
    if (typeof block === "string") parts.push({ type: "text", text: block });
    else if (typeof block === "object" && block !== null && typeof (block as { type?: unknown }).type === "string")
      parts.push(block as ContentPart);
  }
  return parts;
}

// A copy of `message` with `texts` as extra text blocks after its own content.
function withTextContent(message: BaseMessage, texts: readonly string[]): BaseMessage {
  const own: ContentBlock[] =
    typeof message.content === "string"
      ? message.content === ""
        ? []
        : [{ type: "text", text: message.content }]
      : [...(message.content as ContentBlock[])];
  const content = [...own, ...texts.map((text): ContentBlock => ({ type: "text", text }))];
  const fields = {
    content,
    id: message.id,
    name: message.name,
    additional_kwargs: message.additional_kwargs,
    response_metadata: message.response_metadata,
  };
  switch (message.type) {
    case "human":
      return new HumanMessage(fields);
    case "tool": {
      const tool = message as ToolMessage;
      return new ToolMessage({
        ...fields,
        tool_call_id: tool.tool_call_id,
        status: tool.status,
        artifact: tool.artifact,
        metadata: tool.metadata,
      });
    }
    case "ai": {
      const ai = message as AIMessage;
      return new AIMessage({
        ...fields,
        tool_calls: ai.tool_calls,
        invalid_tool_calls: ai.invalid_tool_calls,
        usage_metadata: ai.usage_metadata,
      });
    }
    case "system":
      return new SystemMessage(fields);
    default:
      return new ChatMessage({ ...fields, role: (message as ChatMessage).role ?? message.type });
  }
}

function anySignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return AbortSignal.any([a, b]);
}
