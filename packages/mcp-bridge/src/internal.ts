/**
 * `@skillctx/mcp-bridge/internal`: MCP I/O for the other skillctx packages, whose types reach the MCP
 * SDK's (so they stay out of the public entry, which type-checks without the SDK's DOM-flavoured types).
 * Not public API: names here may change in any release.
 */
export { openMcpClient } from "./open-client.js";
export type { OpenMcpClient, OpenMcpClientOptions } from "./open-client.js";
export type { McpFrameError } from "./frame-reader.js";
export { declaredLength, fetchBytes, readCapped, redirectTarget } from "./capped-fetch.js";
export type { FetchBytesOptions, FetchedBytes, RedirectTarget } from "./capped-fetch.js";
