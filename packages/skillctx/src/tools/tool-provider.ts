import type { ToolDefinition } from "../engine/agent-context.js";

/** The result of a tool call, as the model sees it. */
export interface ToolResult {
  content: string;
  isError?: boolean;
}

/**
 * A source of tools beside the host's and the skill tools (for example the MCP servers of active
 * skills). `buildContext` lists `definitions()`; `callTool` routes a name to the provider that `owns` it.
 */
export interface ToolProvider {
  definitions(): ToolDefinition[];
  owns(name: string): boolean;
  call(name: string, args: unknown, options: { signal?: AbortSignal | undefined }): Promise<ToolResult>;
}
