/**
 * `@skillctx/mcp-bridge/schemas`: the zod schema of one MCP server entry (`mcp_tools`, `.mcp.json`). A
 * separate entry point because importing it loads zod; `parseServerConfig` loads zod on its first call.
 */
import { serverConfigSchemas } from "./config-schema.js";

export const McpServerConfigSchema = serverConfigSchemas().McpServerConfigSchema;
