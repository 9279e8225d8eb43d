/**
 * Default caps of MCP I/O (messages, tool lists, results, `.mcp.json`); the bridge's options override them.
 * Moved from core's limits.ts, which keeps the caps core itself uses (api/cap-renames.tsv).
 */

// --- MCP I/O ---
/** Largest JSON-RPC message an MCP server may send (one stdio line, one HTTP body or SSE event), in bytes. */
export const MCP_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Most `tools/list` pages read from one server; the tools of the pages read are kept. */
export const MCP_MAX_TOOL_PAGES = 100;
/** Most tools kept from one server. */
export const MCP_MAX_TOOLS_PER_SERVER = 1000;
/** Most bytes of tool definitions (JSON) kept from one server: descriptions and schemas reach the model. */
export const MCP_MAX_TOOL_LIST_BYTES = 4 * 1024 * 1024;
/** Malformed messages (not JSON, not JSON-RPC) one server process may send before it is stopped. */
export const MCP_MAX_MALFORMED_MESSAGES = 100;
/** Longest tool result text handed to the model, in characters; the rest is cut with a visible note. */
export const MCP_MAX_RESULT_CHARS = 100_000;
/** Largest `.mcp.json` read, and largest server entry after `${VAR}` expansion, in bytes. */
export const MCP_MAX_CONFIG_BYTES = 1024 * 1024;
