import type {
  Agent,
  AgentInputItem,
  CallModelInputFilter,
  FunctionTool,
  ModelInputData,
  Tool,
  tool as agentsTool,
} from "@openai/agents";
import type { AgentContext, ContextStep, ToolDefinition } from "@skillctx/engine";
import type { Message } from "@skillctx/engine";
import { serialized } from "@skillctx/engine/internal";
import { withHostSystem } from "./host-system.js";
import { ItemHistory, textWithAttachments } from "./item-history.js";
import { parseArguments } from "./json-values.js";
import type { ItemCodec } from "./item-history.js";

/**
 * Adapters for the OpenAI Agents SDK (`@openai/agents`). This file imports only its types; the SDK's
 * `tool` function is passed in, so skillctx never loads the SDK itself.
 */

/** The `tool` function of `@openai/agents`, which makes the function tools. */
export type AgentsToolFactory = typeof agentsTool;

/** Options of {@link createOpenAIAgentsLoop} and {@link skillctxInputFilter}. */
export interface OpenAIAgentsStepOptions {
  /** Aborts the `buildContext` of a turn. */
  signal?: AbortSignal;
  /** Sees each step: what fired (`activated`), what was attached (`attachments`), diagnostics. */
  onStep?: (step: ContextStep) => void;
}

/** What {@link createOpenAIAgentsLoop} returns. */
export interface OpenAIAgentsLoop {
  /** The context's function tools, for `new Agent({ tools })`; kept current during a run (see {@link createOpenAIAgentsLoop}). */
  tools: FunctionTool[];
  /** The Runner's `callModelInputFilter`: runs `ctx.buildContext` before every model call. */
  callModelInputFilter: CallModelInputFilter;
}

/**
 * Everything an Agents JS run needs: function tools for the agent and a `callModelInputFilter` (a Runner
 * or `run` option) that runs `ctx.buildContext` before every model call. The instructions become the
 * context's `system` (put the host prompt in `systemPrompt` of the context); an agent's own `instructions`
 * are kept, before the context's `system` and a blank line, never replaced. Skill text is attached
 * inside the items it belongs to (the user message, the function result).
 *
 * Tools follow the conversation: each tool's `isEnabled` follows the active skill's allowed-tools, and
 * tools that appear mid-run (the MCP servers of a skill the model loads or a trigger fires) are added
 * to `tools` and to the running agent's `tools`, which the runner reads at the start of every turn.
 * After each tool call the adapter waits for servers being started, so a skill's MCP tools are offered on
 * the turn right after `load_skill`. Run with `toolNotFoundBehavior: "return_error_to_model"`, so a call
 * to a tool that is not offered is answered instead of ending the run. One loop per context.
 *
 * @example
 * import { Agent, run, tool } from "@openai/agents";
 * const loop = createOpenAIAgentsLoop(ctx, { tool });
 * const agent = new Agent({ name: "assistant", tools: loop.tools });
 * const result = await run(agent, "Fill the tax form", { callModelInputFilter: loop.callModelInputFilter, toolNotFoundBehavior: "return_error_to_model" });
 */
export function createOpenAIAgentsLoop(
  ctx: AgentContext,
  options: OpenAIAgentsStepOptions & { tool: AgentsToolFactory },
): OpenAIAgentsLoop {
  const sync = new AgentToolSync(ctx, options.tool);
  return { tools: sync.live, callModelInputFilter: inputFilter(ctx, options, sync) };
}

/**
 * The context's tools as Agents SDK function tools, as they are now. Each calls `ctx.callTool` (error
 * results reach the model as text); `isEnabled` follows the active skill's allowed-tools. Tools that
 * appear later are not added: use {@link createOpenAIAgentsLoop} for that.
 */
export function toOpenAIAgentsTools(ctx: AgentContext, options: { tool: AgentsToolFactory }): FunctionTool[] {
  return new AgentToolSync(ctx, options.tool).live.slice();
}

/**
 * A `callModelInputFilter` that runs `ctx.buildContext` before every model call (see
 * {@link createOpenAIAgentsLoop}, which also keeps the tools current). The runner passes fresh copies
 * of the items every turn; the filter recognises them by position and content, so a turn costs time in
 * proportion to the new items.
 */
export function skillctxInputFilter(ctx: AgentContext, options: OpenAIAgentsStepOptions = {}): CallModelInputFilter {
  return inputFilter(ctx, options, undefined);
}

/** Agents SDK input items as skillctx messages, one per item (items skillctx does not read become empty assistant turns). */
export function fromAgentItems(items: readonly AgentInputItem[]): Message[] {
  return items.map(readAgentItem);
}

// ---------------------------------------------------------------------------------------------

function inputFilter(
  ctx: AgentContext,
  options: OpenAIAgentsStepOptions,
  sync: AgentToolSync | undefined,
): CallModelInputFilter {
  const history = new ItemHistory<AgentInputItem>(agentItemCodec);
  return serialized(async ({ modelData, agent }): Promise<ModelInputData> => {
    const items = modelData.input;
    const step = await ctx.buildContext(
      history.read(items),
      options.signal === undefined ? {} : { signal: options.signal },
    );
    sync?.update(agent, step.tools);
    options.onStep?.(step);
    // The runner hands the filter its own copy of the items for this turn: attached items replace them in it.
    // The agent's own instructions are kept, first (withHostSystem): never replaced without a word.
    return {
      input: history.attach(items, step, true),
      instructions: withHostSystem(modelData.instructions, step.system),
    };
  });
}

// The definition each function tool made by skillctx was made from, and for which context.
const madeFrom = new WeakMap<object, { ctx: AgentContext; definition: ToolDefinition }>();

/**
 * Keeps function tools current with the context's tools: in `live` (the array handed to the host) and in
 * the `tools` of the agent the runner is running, which it reads at the start of every turn.
 */
class AgentToolSync {
  readonly live: FunctionTool[] = [];
  private allowed = new Set<string>();
  private allowedSeen: readonly ToolDefinition[] | undefined;
  private agent: Agent<any, any> | undefined;
  private seen: readonly ToolDefinition[] = [];
  private readonly byName = new Map<string, FunctionTool>();

  constructor(
    private readonly ctx: AgentContext,
    private readonly tool: AgentsToolFactory,
  ) {
    this.update(undefined, ctx.listTools());
  }

  /**
   * Brings the tools up to date; `allowed` are the tools of the next step (after allowed-tools). While
   * they stay the same definitions, nothing the model is offered can have changed, and nothing is done.
   */
  update(agent: Agent<any, any> | undefined, allowed: readonly ToolDefinition[]): void {
    const newAgent = agent !== undefined && agent !== this.agent;
    if (!newAgent && this.allowedSeen !== undefined && sameList(this.allowedSeen, allowed)) return;
    this.allowedSeen = allowed;
    this.allowed = new Set(allowed.map((definition) => definition.name));
    const all = this.ctx.listTools({ all: true });
    const changed = !sameList(this.seen, all);
    if (changed) {
      this.seen = all;
      const wanted: FunctionTool[] = [];
      for (const definition of all) {
        let made = this.byName.get(definition.name);
        if (made === undefined || madeFrom.get(made)?.definition !== definition) {
          made = this.functionTool(definition);
          this.byName.set(definition.name, made);
        }
        wanted.push(made);
      }
      const names = new Set(all.map((definition) => definition.name));
      for (const name of [...this.byName.keys()]) if (!names.has(name)) this.byName.delete(name);
      this.live.splice(0, this.live.length, ...wanted);
    }
    if (newAgent) this.agent = agent;
    const tools = this.agent?.tools;
    if ((changed || newAgent) && tools !== undefined && tools !== (this.live as Tool[]))
      replaceOwn(tools, this.live, this.ctx);
  }

  // After a tool call: servers a skill tool started are waited for, so the next turn lists their tools.
  private async afterCall(signal: AbortSignal | undefined): Promise<void> {
    const allowed = await this.ctx.listToolsSettled(signal === undefined ? {} : { signal });
    this.update(undefined, allowed);
  }

  private functionTool(definition: ToolDefinition): FunctionTool {
    const name = definition.name;
    const made = this.tool({
      name,
      description: definition.description,
      parameters: definition.inputSchema as Parameters<AgentsToolFactory>[0]["parameters"] & Record<string, never>,
      strict: false,
      isEnabled: () => this.allowed.has(name),
      execute: async (input: unknown, _runContext: unknown, details?: { signal?: AbortSignal }) => {
        const signal = details?.signal;
        const result = await this.ctx.callTool(name, input, signal === undefined ? {} : { signal });
        await this.afterCall(signal);
        return result.content;
      },
    } as Parameters<AgentsToolFactory>[0]) as FunctionTool;
    madeFrom.set(made, { ctx: this.ctx, definition });
    return made;
  }
}

// Replaces, in an agent's tool list that holds function tools skillctx made for `ctx`, those with `wanted`
// (kept in place where they were, new ones at the end); the host's own tools are left as they are.
function replaceOwn(tools: Tool[], wanted: readonly FunctionTool[], ctx: AgentContext): void {
  if (!tools.some((tool) => madeFrom.get(tool)?.ctx === ctx)) return;
  const names = new Map(wanted.map((tool) => [tool.name, tool]));
  const placed = new Set<string>();
  for (let i = tools.length - 1; i >= 0; i--) {
    const tool = tools[i]!;
    if (madeFrom.get(tool)?.ctx !== ctx) continue;
    const name = (tool as FunctionTool).name;
    const replacement = names.get(name);
    if (replacement === undefined || placed.has(name)) tools.splice(i, 1);
    else {
      tools[i] = replacement;
      placed.add(name);
    }
  }
  for (const tool of wanted) if (!placed.has(tool.name)) tools.push(tool);
}

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const agentItemCodec: ItemCodec<AgentInputItem> = {
  read: (item) => [{ message: readAgentItem(item), part: 0 }],
  attach: (item, texts) => attachToItem(item, texts.get(0) ?? []),
};

type Loose = { type?: string; role?: string; [key: string]: unknown };

function readAgentItem(item: AgentInputItem): Message {
  const loose = item as Loose;
  if (loose.role === "user" || loose.role === "system") return { role: loose.role, content: partsText(loose.content) };
  if (loose.role === "assistant") return { role: "assistant", content: partsText(loose.content) };
  if (loose.type === "function_call") {
    const call = item as Extract<AgentInputItem, { type: "function_call" }>;
    return {
      role: "assistant",
      content: "",
      toolCalls: [{ id: call.callId, name: call.name, args: parseArguments(call.arguments) }],
    };
  }
  if (loose.type === "function_call_result") {
    const result = item as Extract<AgentInputItem, { type: "function_call_result" }>;
    return { role: "tool", content: outputText(result.output), toolCallId: result.callId };
  }
  return { role: "assistant", content: "" };
}

function partsText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const part of content as { text?: unknown; refusal?: unknown }[]) {
    const value =
      typeof part?.text === "string" ? part.text : typeof part?.refusal === "string" ? part.refusal : undefined;
    if (value !== undefined) text = text === "" ? value : `${text}\n${value}`;
  }
  return text;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return partsText(output);
  const single = output as { type?: string; text?: unknown } | null | undefined;
  return single?.type === "text" && typeof single.text === "string" ? single.text : "";
}

// The item with `texts` attached: user items get input_text parts, function results get the text in their
// output; an output skillctx cannot extend (an image, a file) is kept, followed by a user item with the texts.
function attachToItem(item: AgentInputItem, texts: readonly string[]): AgentInputItem[] {
  const loose = item as Loose;
  const parts = texts.map((text) => ({ type: "input_text" as const, text }));
  if (loose.role === "user") {
    const base =
      typeof loose.content === "string"
        ? [{ type: "input_text" as const, text: loose.content }]
        : (loose.content as unknown[]);
    return [{ ...item, content: [...base, ...parts] } as AgentInputItem];
  }
  if (loose.type === "function_call_result") {
    const output = loose.output as unknown;
    if (typeof output === "string") return [{ ...item, output: textWithAttachments(output, texts) } as AgentInputItem];
    if (Array.isArray(output)) return [{ ...item, output: [...output, ...parts] } as AgentInputItem];
    const single = output as { type?: string; text?: unknown } | null;
    if (single?.type === "text" && typeof single.text === "string") {
      return [{ ...item, output: { ...single, text: textWithAttachments(single.text, texts) } } as AgentInputItem];
    }
  }
  return [item, { role: "user", content: parts } as AgentInputItem];
}
