/**
 * `@skillctx/mcp-bridge/internal`: MCP I/O for the other skillctx packages, whose types reach the MCP
 * SDK's (so they stay out of the public entry, which type-checks without the SDK's DOM-flavoured types).
 * Not public API: names here may change in any release.
 */
export { openMcpClient } from "./open-client.js";
export type { OpenMcpClient } from "./open-client.js";
export type { McpFrameError } from "./frame-reader.js";
// The largest JSON-RPC message read from a server: skillctx's MCP skill source reads with the same cap.
export { MCP_MAX_MESSAGE_BYTES } from "./limits.js";
export { declaredLength, fetchBytes, readCapped } from "./capped-fetch.js";
export type { FetchBytesOptions } from "./capped-fetch.js";
