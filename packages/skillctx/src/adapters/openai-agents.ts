import type { AgentInputItem, CallModelInputFilter, FunctionTool, tool as agentsTool } from "@openai/agents";
import type { AgentContext, ContextStep } from "../engine/agent-context.js";
import type { Message } from "../messages.js";
import { appendedTexts, withTexts } from "./appended-text.js";

/**
 * Adapters for the OpenAI Agents SDK (`@openai/agents`). This file imports only its types; the SDK's
 * `tool` function is passed in, so skillctx never loads the SDK itself.
 */

/** Options of {@link toOpenAIAgentsTools}. */
export interface OpenAIAgentsToolsOptions {
  /** The `tool` function of `@openai/agents`. */
  tool: typeof agentsTool;
}

/**
 * The context's tools as Agents SDK function tools. Each calls `ctx.callTool` (error results reach the
 * model as text); `isEnabled` follows the active skill's allowed-tools, so the runner offers only the
 * allowed tools on each turn (run with `toolNotFoundBehavior: "return_error_to_model"` so a call to a
 * hidden tool is answered instead of ending the run). Pair with {@link skillctxInputFilter}.
 *
 * @example
 * import { Agent, Runner, tool } from "@openai/agents";
 * const agent = new Agent({ name: "agent", tools: toOpenAIAgentsTools(ctx, { tool }) });
 * await new Runner({ callModelInputFilter: skillctxInputFilter(ctx), toolNotFoundBehavior: "return_error_to_model" }).run(agent, "…");
 */
export function toOpenAIAgentsTools(ctx: AgentContext, options: OpenAIAgentsToolsOptions): FunctionTool[] {
  return ctx.listTools({ all: true }).map((definition) => {
    const name = definition.name;
    return options.tool({
      name,
      description: definition.description,
      parameters: definition.inputSchema as Parameters<typeof agentsTool>[0]["parameters"] & Record<string, never>,
      strict: false,
      isEnabled: () => ctx.listTools().some((tool) => tool.name === name),
      execute: async (input: unknown, _runContext: unknown, details?: { signal?: AbortSignal }) => {
        const result = await ctx.callTool(name, input, details?.signal === undefined ? {} : { signal: details.signal });
        return result.content;
      },
    } as Parameters<typeof agentsTool>[0]) as FunctionTool;
  });
}

/**
 * A `callModelInputFilter` (Runner option) that runs `ctx.buildContext` before every model call: the
 * instructions become the context's `system` (put the host prompt in `systemPrompt` of the context) and
 * triggered skill text is attached to the items it belongs to. `onStep` sees each step.
 */
export function skillctxInputFilter(
  ctx: AgentContext,
  options: { signal?: AbortSignal; onStep?: (step: ContextStep) => void } = {},
): CallModelInputFilter {
  return async ({ modelData }) => {
    const items = modelData.input;
    const neutral = items.map(fromAgentItem);
    const step = await ctx.buildContext(neutral, options.signal === undefined ? {} : { signal: options.signal });
    options.onStep?.(step);
    const input: AgentInputItem[] = [];
    items.forEach((item, i) => {
      const texts = appendedTexts(neutral[i]!, step.messages[i]!);
      if (texts.length === 0) input.push(item);
      else input.push(...attach(item, texts));
    });
    return { input, instructions: step.system };
  };
}

/** Agents SDK input items as skillctx messages, one per item (items skillctx does not read become empty assistant turns). */
export function fromAgentItems(items: readonly AgentInputItem[]): Message[] {
  return items.map(fromAgentItem);
}

// ---------------------------------------------------------------------------------------------

type Loose = { type?: string; role?: string; [key: string]: unknown };

function fromAgentItem(item: AgentInputItem): Message {
  const loose = item as Loose;
  if (loose.role === "user" || loose.role === "system") {
    return { role: loose.role, content: partsText(loose.content) };
  }
  if (loose.role === "assistant") return { role: "assistant", content: partsText(loose.content) };
  if (loose.type === "function_call") {
    const call = item as Extract<AgentInputItem, { type: "function_call" }>;
    return { role: "assistant", content: "", toolCalls: [{ id: call.callId, name: call.name, args: parseArguments(call.arguments) }] };
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
  return content
    .flatMap((part: { type?: string; text?: unknown; refusal?: unknown }) =>
      typeof part.text === "string" ? [part.text] : typeof part.refusal === "string" ? [part.refusal] : [],
    )
    .join("\n");
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return partsText(output);
  const single = output as { type?: string; text?: unknown };
  return single?.type === "text" && typeof single.text === "string" ? single.text : "";
}

// The item with `texts` attached: user items get input_text parts, tool results get the text appended;
// an output skillctx cannot extend (an image) is kept, followed by a user item with the texts.
function attach(item: AgentInputItem, texts: string[]): AgentInputItem[] {
  const loose = item as Loose;
  const parts = texts.map((text) => ({ type: "input_text" as const, text }));
  if (loose.role === "user") {
    const base = typeof loose.content === "string" ? [{ type: "input_text" as const, text: loose.content }] : (loose.content as unknown[]);
    return [{ ...item, content: [...base, ...parts] } as AgentInputItem];
  }
  if (loose.type === "function_call_result") {
    const output = loose.output as unknown;
    if (typeof output === "string") return [{ ...item, output: withTexts(output, texts) } as AgentInputItem];
    if (Array.isArray(output)) return [{ ...item, output: [...output, ...parts] } as AgentInputItem];
    const single = output as { type?: string; text?: unknown };
    if (single?.type === "text" && typeof single.text === "string") {
      return [{ ...item, output: { ...single, text: withTexts(single.text, texts) } } as AgentInputItem];
    }
  }
  return [item, { role: "user", content: parts } as AgentInputItem];
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
