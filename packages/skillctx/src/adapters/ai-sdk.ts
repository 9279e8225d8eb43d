import type {
  ModelMessage,
  PrepareStepFunction,
  PrepareStepResult,
  SystemModelMessage,
  Tool,
  ToolModelMessage,
  ToolResultPart,
  ToolSet,
  UserModelMessage,
} from "ai";
import type { AgentContext, ContextStep, ToolDefinition } from "@skillctx/engine";
import type { ContentPart, Message } from "@skillctx/engine";
import { messageText } from "@skillctx/engine";
import type { ToolResult } from "@skillctx/engine";
import { serialized } from "@skillctx/engine/internal";
import { ItemHistory, textWithAttachments } from "./item-history.js";
import { boundedArguments } from "./json-values.js";
import type { ConvertedMessage, ItemCodec } from "./item-history.js";

/**
 * Adapters for the Vercel AI SDK (`ai` v6). This file imports only the SDK's types: the tool schemas are
 * Standard JSON Schema objects (`~standard.jsonSchema`), which the SDK accepts as `inputSchema`, so
 * skillctx needs `ai` at run time only in the host that already has it.
 */

/** A tool set entry made by skillctx: it returns the skillctx result and shows the model its text. */
export type AiSdkSkillTool = Tool<unknown, ToolResult>;

/** Options of {@link createAiSdkLoop} and {@link skillctxPrepareStep}. */
export interface AiSdkStepOptions {
  /** Aborts the `buildContext` of a step (the SDK's own `abortSignal` does not reach `prepareStep`). */
  signal?: AbortSignal;
  /** Sees each step: what fired (`activated`), what was attached (`attachments`), diagnostics. */
  onStep?: (step: ContextStep) => void;
}

/** What {@link createAiSdkLoop} returns: spread it into `generateText`, `streamText` or a `ToolLoopAgent`'s settings. */
export interface AiSdkLoop {
  /** The tools of the current step; `prepareStep` keeps this object current (tools that appear mid-run are added to it). */
  tools: ToolSet;
  /** Runs `ctx.buildContext` before every model call: system, messages and tools follow it. */
  prepareStep: PrepareStepFunction<ToolSet>;
}

/**
 * Everything one AI SDK run needs: a tool set and a `prepareStep` that, before each model call of a
 * multi-step `generateText` / `streamText` (or `ToolLoopAgent`), runs `ctx.buildContext` on the step's
 * messages and returns its `system` and the messages with attached skill text in place (inside the user
 * message or the tool result it belongs to), and sets `tools` to the step's tools: the active skill's
 * allowed-tools apply, and tools that appear during the run — the MCP servers of a skill the model loads
 * or a keyword fires — are in the set from the step that lists them, so the model can call them in the
 * same run. (The SDK reads the `tools` object it was given at every step, after `prepareStep`.)
 *
 * The host's own system prompt: put it in the context's `systemPrompt` (it comes first in every step's
 * `system`). A `system` given to `generateText` / `streamText` (or a `ToolLoopAgent`'s `instructions`)
 * is kept too, never dropped: `prepareStep` returns the step's `system` as a system message at the start
 * of `messages` and leaves the SDK's `system` alone, so the model reads the host's `system` first, then
 * skillctx's (the SDK sends its `system` before the messages). Tools of the host's own that are not
 * skillctx's may be added to `tools`; they stay, after skillctx's. One loop per context (a context is one
 * conversation).
 *
 * @example
 * const loop = createAiSdkLoop(ctx);
 * const result = await generateText({ model, ...loop, stopWhen: stepCountIs(20), messages });
 * messages.push(...result.response.messages);
 */
export function createAiSdkLoop(ctx: AgentContext, options: AiSdkStepOptions = {}): AiSdkLoop {
  const tools = Object.create(null) as ToolSet;
  new ToolSetSync(ctx, tools).update(ctx.listTools());
  return { tools, prepareStep: skillctxPrepareStep(ctx, { ...options, tools }) };
}

/**
 * The context's tools as an AI SDK tool set, as they are now: each `execute` calls `ctx.callTool`, and
 * the model sees the result text (an `error-text` output when `isError`). Every tool is included,
 * ignoring allowed-tools: a {@link skillctxPrepareStep} without `tools` narrows each step with
 * `activeTools`. Tools that appear later are not added; {@link createAiSdkLoop} keeps its set current.
 */
export function toAiSdkTools(ctx: AgentContext): ToolSet {
  // No prototype: the SDK looks a called name up with `tools[name]`, and "constructor" must not be found.
  const tools = Object.create(null) as ToolSet;
  for (const definition of ctx.listTools({ all: true })) tools[definition.name] = aiSdkTool(ctx, definition);
  return tools;
}

/**
 * A `prepareStep` for `generateText` / `streamText` that runs `ctx.buildContext` before every model call
 * (see {@link createAiSdkLoop}). The step's `system` is the first message of the returned `messages` (a
 * system message), so a `system` the host gave the SDK is sent before it, not replaced. With `tools` (the object passed to the SDK as `tools`), the set is kept
 * equal to the step's tools, the host's own entries after them. Without, each step returns `activeTools`
 * (the step's tool names) to narrow a set made by {@link toAiSdkTools}; tools that appear mid-run are then
 * not callable until the next call, and the SDK's filtered copy of the set is a plain object, in which a
 * call to a name such as "constructor" finds `Object.prototype` (the run stops with that call unanswered).
 */
export function skillctxPrepareStep(
  ctx: AgentContext,
  options: AiSdkStepOptions & { tools?: ToolSet } = {},
): PrepareStepFunction<ToolSet> {
  const history = new ItemHistory<ModelMessage>(modelMessageCodec);
  const sync = options.tools === undefined ? undefined : new ToolSetSync(ctx, options.tools);
  let active: { from: readonly ToolDefinition[]; names: string[] } | undefined;
  // One object while the text is the same, so the first message of each step is the same object.
  let system: SystemModelMessage | undefined;
  return serialized(async ({ messages }): Promise<PrepareStepResult<ToolSet>> => {
    const step = await ctx.buildContext(
      history.read(messages),
      options.signal === undefined ? {} : { signal: options.signal },
    );
    options.onStep?.(step);
    // Not `system`: that would replace the host's own `system` without a word. A leading system message
    // is sent after the SDK's `system` (when the host gave one), before the conversation.
    const attached = history.attach(messages, step, false);
    if (system?.content !== step.system) system = { role: "system", content: step.system };
    const result = { messages: step.system === "" ? attached : [system, ...attached] };
    if (sync !== undefined) {
      sync.update(step.tools);
      return result;
    }
    if (active === undefined || !sameList(active.from, step.tools))
      active = { from: step.tools, names: step.tools.map((tool) => tool.name) };
    return { ...result, activeTools: active.names.slice() };
  });
}

/** AI SDK messages as skillctx messages. A tool message becomes one skillctx message per tool result. */
export function fromAiSdkMessages(messages: readonly ModelMessage[]): Message[] {
  return messages.flatMap((message) => readModelMessage(message).map((converted) => converted.message));
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
          : { role: "user", content: message.content as UserModelMessage["content"] };
      case "assistant": {
        const calls = message.toolCalls ?? [];
        for (const call of calls) toolNames.set(call.id, call.name);
        if (calls.length === 0 && typeof message.content === "string")
          return { role: "assistant", content: message.content };
        const parts: ContentPart[] =
          typeof message.content === "string" ? textParts(message.content) : [...message.content];
        for (const call of calls)
          parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.args });
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

function aiSdkTool(ctx: AgentContext, definition: ToolDefinition): AiSdkSkillTool {
  const name = definition.name;
  const tool: AiSdkSkillTool = {
    description: definition.description,
    inputSchema: standardJsonSchema(definition.inputSchema) as AiSdkSkillTool["inputSchema"],
    execute: (input, options) =>
      ctx.callTool(name, input, options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
    toModelOutput: ({ output }) =>
      output.isError === true ? { type: "error-text", value: output.content } : { type: "text", value: output.content },
  };
  madeFrom.set(tool, definition);
  return tool;
}

// The definition each tool set entry made by skillctx was made from; entries not in here are the host's.
const madeFrom = new WeakMap<Tool, ToolDefinition>();

/** Keeps a tool set equal to the step's tools (skillctx's entries first, in the context's order; the host's after). */
class ToolSetSync {
  private seen: readonly ToolDefinition[] | undefined;
  /** skillctx's entries by name, kept while their definition is the same, so an entry is one object across steps. */
  private readonly made = new Map<string, Tool>();

  constructor(
    private readonly ctx: AgentContext,
    private readonly tools: ToolSet,
  ) {}

  update(definitions: readonly ToolDefinition[]): void {
    if (this.seen !== undefined && sameList(this.seen, definitions)) return;
    this.seen = definitions;
    const host: [string, Tool][] = [];
    for (const [name, tool] of Object.entries(this.tools)) {
      if (!madeFrom.has(tool)) host.push([name, tool]);
      else if (!this.made.has(name)) this.made.set(name, tool); // made by another sync of this set (createAiSdkLoop's first fill)
      delete this.tools[name];
    }
    const hostNames = new Set(host.map(([name]) => name));
    for (const definition of definitions) {
      // A tool the host put in the set under a skillctx name stays the host's.
      if (hostNames.has(definition.name)) continue;
      let tool = this.made.get(definition.name);
      if (tool === undefined || madeFrom.get(tool) !== definition) {
        tool = aiSdkTool(this.ctx, definition);
        this.made.set(definition.name, tool);
      }
      this.tools[definition.name] = tool;
    }
    for (const [name, tool] of host) this.tools[name] = tool;
  }
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const modelMessageCodec: ItemCodec<ModelMessage> = { read: readModelMessage, attach: attachToModelMessage };

function readModelMessage(message: ModelMessage): ConvertedMessage[] {
  switch (message.role) {
    case "system":
      return [{ message: { role: "system", content: message.content }, part: 0 }];
    case "user":
      return [
        {
          message: {
            role: "user",
            content: typeof message.content === "string" ? message.content : (message.content as ContentPart[]),
          },
          part: 0,
        },
      ];
    case "assistant": {
      if (typeof message.content === "string")
        return [{ message: { role: "assistant", content: message.content }, part: 0 }];
      const content: ContentPart[] = [];
      const toolCalls: NonNullable<Message["toolCalls"]> = [];
      for (const part of message.content) {
        if (part.type === "tool-call")
          toolCalls.push({ id: part.toolCallId, name: part.toolName, args: boundedArguments(part.input) });
        else content.push(part as ContentPart);
      }
      return [
        {
          message: toolCalls.length === 0 ? { role: "assistant", content } : { role: "assistant", content, toolCalls },
          part: 0,
        },
      ];
    }
    case "tool": {
      const out: ConvertedMessage[] = [];
      message.content.forEach((part, index) => {
        if (part.type === "tool-result")
          out.push({
            message: { role: "tool", content: outputText(part.output), toolCallId: part.toolCallId },
            part: index,
          });
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
      return JSON.stringify(output.value) ?? "";
    case "execution-denied":
      return output.reason ?? "Execution denied.";
    case "content":
      return output.value.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  }
}

// The message with attached texts: extra text parts of a user message; inside the tool result they belong to.
function attachToModelMessage(message: ModelMessage, texts: ReadonlyMap<number, readonly string[]>): ModelMessage[] {
  if (message.role === "user") {
    const attached = texts.get(0) ?? [];
    const base: Exclude<UserModelMessage["content"], string> =
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    return [{ ...message, content: [...base, ...attached.map((text) => ({ type: "text" as const, text }))] }];
  }
  if (message.role === "tool") {
    const content: ToolModelMessage["content"] = message.content.map((part, index) => {
      const attached = texts.get(index);
      return attached === undefined || part.type !== "tool-result"
        ? part
        : { ...part, output: withAttachedOutput(part.output, attached) };
    });
    return [{ ...message, content }];
  }
  return [message];
}

function withAttachedOutput(output: ToolResultPart["output"], texts: readonly string[]): ToolResultPart["output"] {
  if (output.type === "content")
    return { ...output, value: [...output.value, ...texts.map((text) => ({ type: "text" as const, text }))] };
  const isError = output.type === "error-text" || output.type === "error-json";
  return { type: isError ? "error-text" : "text", value: textWithAttachments(outputText(output), texts) };
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
