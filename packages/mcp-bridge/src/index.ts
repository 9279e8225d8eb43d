export { createMcpBridge } from "./bridge.js";
export { serversFromSkill, serversFromSkills } from "./servers-from-skill.js";
export { serversFromProject } from "./servers-from-project.js";
export { parseServerConfig } from "./config-schema.js";
// McpServerConfigSchema (zod) is at `@skillctx/mcp-bridge/schemas`: importing it loads zod.

export type { McpBridge, McpBridgeOptions, McpCallOptions } from "./bridge.js";
export type { ServersFromSkillOptions, SkillServers } from "./servers-from-skill.js";
export type { ServersFromProjectOptions } from "./servers-from-project.js";
export type { McpServerConfig, StdioServerConfig, HttpServerConfig } from "./config-schema.js";
export type { DeclaredServer, McpTool, McpCallResult, McpServerState, McpServerStatus } from "./types.js";
