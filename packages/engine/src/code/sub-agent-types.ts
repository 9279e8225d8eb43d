/** The host's model loop for sub-agents (`execute_skill`): a leaf module of types. */
import type { Message } from "../messages.js";
import type { ToolDefinition, ToolResult } from "../context-types.js";

/** A tool the sub-agent may call: its definition and how to run it. */
export interface SubAgentTool extends ToolDefinition {
  execute(args: unknown, options: { signal: AbortSignal }): Promise<ToolResult>;
}

/** What the host's model loop gets for one sub-agent run. */
export interface SubAgentRequest {
  /** The skill's body (rendered) and the sub-agent's instructions. */
  system: string;
  /** The request, as the first user message. */
  messages: Message[];
  tools: SubAgentTool[];
  /** The skill's `model`, else the `subAgents.model` option, else undefined (the host's default). */
  model: string | undefined;
  /** Most model calls; the loop must stop there (a run that reaches it is reported as such). */
  maxSteps: number;
  signal: AbortSignal;
}

/** What the loop returns: the final answer and the sub-conversation. */
export interface SubAgentResponse {
  text: string;
  messages: Message[];
  /** True when the loop stopped at `maxSteps` without a final answer. */
  stepLimitReached?: boolean;
}

export type RunSubAgent = (request: SubAgentRequest) => Promise<SubAgentResponse>;
