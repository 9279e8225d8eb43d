import { invalidOption, isNonEmptyString } from "@skillctx/core/internal";
import { SkillctxError } from "@skillctx/core";
import type { ToolDefinition, ToolResult } from "../context-types.js";
import { normalizeArgs } from "../tool-kit/tool-args.js";
import { fail } from "../tool-kit/tool-result.js";
import { errorText } from "@skillctx/core/internal";

/**
 * A tool of the host agent (`tools` option of `AgentContext.create`). It is listed in every step's
 * `tools` before the skill tools, and `ctx.callTool` runs its `execute` when it has one.
 *
 * @example
 * { name: "Read", description: "Read a file", inputSchema: { type: "object", properties: { path: { type: "string" } } },
 *   execute: async (args) => readFile((args as { path: string }).path, "utf8") }
 */
export interface HostTool {
  name: string;
  description?: string;
  /** JSON Schema of the arguments. @default { type: "object", properties: {} } */
  inputSchema?: Record<string, unknown>;
  /**
   * Runs the tool. A string or a `{ content, isError? }` result is passed on; anything else is sent as
   * JSON. A thrown error becomes an error result.
   */
  execute?: (args: unknown, options: { signal?: AbortSignal | undefined }) => unknown;
}

const EMPTY_OBJECT_SCHEMA = Object.freeze({ type: "object", properties: {} });

/**
 * Checks the host's tools once, at `create`.
 *
 * @throws SkillctxError `INVALID_OPTIONS` for a tool without a name or with a non-function `execute`.
 */
export function checkHostTools(tools: readonly HostTool[] | undefined): readonly HostTool[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools))
    throw invalidOption("tools.host", "an array of { name, description?, inputSchema?, execute? }");
  tools.forEach((tool, index) => {
    if (!isNonEmptyString(tool?.name)) {
      throw new SkillctxError("INVALID_OPTIONS", `tools.host[${index}] needs a non-empty name`);
    }
    if (tool.execute !== undefined && typeof tool.execute !== "function") {
      throw invalidOption(`tools.host[${index}] (${tool.name}): execute`, "a function");
    }
  });
  return tools;
}

/** The definition the model sees for a host tool. */
export function hostToolDefinition(tool: HostTool): ToolDefinition {
  return {
    name: tool.name,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema ?? { ...EMPTY_OBJECT_SCHEMA },
  };
}

/** Runs a host tool; never throws except when `signal` was aborted. */
export async function runHostTool(tool: HostTool, args: unknown, signal: AbortSignal | undefined): Promise<ToolResult> {
  if (tool.execute === undefined)
    return fail(`The tool "${tool.name}" has no execute function in this agent; the host runs it.`);
  const input = normalizeArgs(args);
  if (!input.ok) return fail(`Invalid arguments for ${tool.name}: ${input.message}`);
  try {
    return toResult(await tool.execute(input.value, { signal }));
  } catch (error) {
    if (signal?.aborted === true) throw error;
    return fail(`${tool.name} failed: ${errorText(error)}`);
  }
}

function toResult(value: unknown): ToolResult {
  if (typeof value === "string") return { content: value };
  if (typeof value === "object" && value !== null && typeof (value as ToolResult).content === "string") {
    const result = value as ToolResult;
    return result.isError === true ? { content: result.content, isError: true } : { content: result.content };
  }
  return { content: value === undefined ? "" : JSON.stringify(value) };
}
