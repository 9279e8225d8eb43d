import type { AgentContext, ToolDefinition } from "../engine/agent-context.js";

/** An Anthropic Messages API tool definition (`tools` of `messages.create`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUse {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** The `tool_result` content block that answers a `tool_use`. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/**
 * The tools as Anthropic Messages API definitions; plain JSON, no dependency on `@anthropic-ai/sdk`.
 * `input_schema` must be an object schema, which every skillctx tool has.
 *
 * @example
 * const step = await ctx.buildContext(history);
 * await anthropic.messages.create({ model, system: step.system, tools: toAnthropicTools(step.tools), messages, max_tokens: 1024 });
 */
export function toAnthropicTools(tools: readonly ToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
}

/** Runs `tool_use` blocks through `ctx.callTool`, in order, and returns the `tool_result` blocks for the next user message. */
export async function runAnthropicToolUses(
  ctx: AgentContext,
  blocks: readonly AnthropicToolUse[],
  options: { signal?: AbortSignal } = {},
): Promise<AnthropicToolResult[]> {
  const out: AnthropicToolResult[] = [];
  for (const block of blocks) {
    const result = await ctx.callTool(block.name, block.input, options);
    out.push(
      result.isError === true
        ? { type: "tool_result", tool_use_id: block.id, content: result.content, is_error: true }
        : { type: "tool_result", tool_use_id: block.id, content: result.content },
    );
  }
  return out;
}
