// The tool types live in the leaf module shared with the engine; re-exported here for the tools.
export type { ToolProvider, ToolResult } from "../context-types.js";
