import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { lazySchemas } from "@skillctx/core/internal";
import type { z } from "@skillctx/core/internal";
import { formatBytes } from "./frame-reader.js";
import { headUtf16 } from "@skillctx/core/internal";

/** Caps on what one server's `tools/list` may hand the bridge. */
export interface ToolListLimits {
  /** Most pages read; the tools of the pages read are kept. */
  maxPages: number;
  /** Most tools kept. */
  maxTools: number;
  /** Most bytes of tool definitions (as JSON) kept. */
  maxBytes: number;
}

/** Something a listing left out: `MCP_TOOLS_LIST_TRUNCATED` (a cap) or `MCP_TOOL_INVALID`. */
export interface ToolListNote {
  code: "MCP_TOOLS_LIST_TRUNCATED" | "MCP_TOOL_INVALID";
  /** Completes "MCP server "x" …". */
  message: string;
}

/** The tools a server listed, and what was left out. */
export interface ToolListing {
  tools: Tool[];
  notes: ToolListNote[];
}

// Pages are checked tool by tool below, so one bad tool does not sink the whole list (the SDK's
// listTools() rejects the page, and compiles every output schema with Ajv, which can throw).
const pageSchema = lazySchemas((z) =>
  z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }),
);

/**
 * `tools/list`, following pagination cursors within `limits`. A tool that is not a valid MCP tool, or
 * repeats a name already listed, is left out; past a cap the listing stops and keeps what it has.
 * Each of these gives a note. Rejects when a request fails (timeout, abort, connection closed).
 */
export async function listAllTools(
  client: Client,
  options: ToolListLimits & { signal: AbortSignal; timeout: number },
): Promise<ToolListing> {
  const tools: Tool[] = [];
  const names = new Set<string>();
  const notes: ToolListNote[] = [];
  const truncated = (message: string) => notes.push({ code: "MCP_TOOLS_LIST_TRUNCATED", message });
  const invalid: string[] = [];
  const duplicates = new Set<string>();
  const cursors = new Set<string>();
  let bytes = 0;
  let cursor: string | undefined;
  let page = 0;
  listing: for (; page < options.maxPages; page++) {
    const result = await listPage(client, cursor, options);
    for (const item of result.tools) {
      if (tools.length >= options.maxTools) {
        truncated(`listed more than ${options.maxTools} tools; the first ${options.maxTools} are kept`);
        break listing;
      }
      const tool = parseTool(item);
      if (tool === undefined) {
        invalid.push(nameOf(item));
        continue;
      }
      if (names.has(tool.name)) {
        duplicates.add(JSON.stringify(headUtf16(tool.name, 60)));
        continue;
      }
      const size = jsonBytes(tool);
      if (size === undefined) {
        invalid.push(nameOf(item));
        continue;
      }
      if (bytes + size > options.maxBytes) {
        truncated(
          `listed more than ${formatBytes(options.maxBytes)} of tool definitions; the first ${tools.length} tools are kept`,
        );
        break listing;
      }
      bytes += size;
      names.add(tool.name);
      tools.push(tool);
    }
    cursor = result.nextCursor;
    if (cursor === undefined) break;
    if (cursors.has(cursor)) {
      truncated(`repeated the tools/list cursor ${JSON.stringify(headUtf16(cursor, 40))}; listing stopped there`);
      cursor = undefined;
      break;
    }
    cursors.add(cursor);
  }
  if (page === options.maxPages && cursor !== undefined) {
    truncated(`had more than ${options.maxPages} pages of tools; the tools of the first ${options.maxPages} are kept`);
  }
  if (invalid.length > 0) {
    notes.push({
      code: "MCP_TOOL_INVALID",
      message: `listed ${invalid.length} invalid ${invalid.length === 1 ? "tool" : "tools"} (${preview(invalid)}), left out`,
    });
  }
  if (duplicates.size > 0)
    notes.push({
      code: "MCP_TOOL_INVALID",
      message: `listed ${preview([...duplicates])} more than once; the first is kept`,
    });
  return { tools, notes };
}

// A signal per page: the SDK never removes the abort listener it adds to a request's signal, and a
// listing of 100 pages on one signal would pile up 100 of them.
async function listPage(
  client: Client,
  cursor: string | undefined,
  options: { signal: AbortSignal; timeout: number },
): Promise<z.infer<ReturnType<typeof pageSchema>>> {
  const { signal } = options;
  signal.throwIfAborted();
  const local = new AbortController();
  const forward = (): void => local.abort(signal.reason);
  signal.addEventListener("abort", forward, { once: true });
  try {
    return await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      pageSchema(),
      {
        signal: local.signal,
        timeout: options.timeout,
      },
    );
  } finally {
    signal.removeEventListener("abort", forward);
  }
}

function parseTool(item: unknown): Tool | undefined {
  try {
    const result = ToolSchema.safeParse(item);
    return result.success ? result.data : undefined;
  } catch {
    return undefined; // nested too deep for the validator
  }
}

// Size of the definition as the model's API will receive it; undefined when it cannot be serialised.
function jsonBytes(tool: Tool): number | undefined {
  try {
    return Buffer.byteLength(JSON.stringify(tool));
  } catch {
    return undefined;
  }
}

function nameOf(item: unknown): string {
  const name = typeof item === "object" && item !== null ? (item as { name?: unknown }).name : undefined;
  return typeof name === "string" ? JSON.stringify(headUtf16(name, 60)) : "unnamed";
}

function preview(names: string[]): string {
  const shown = names.slice(0, 3).join(", ");
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}
