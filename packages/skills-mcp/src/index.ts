/**
 * `skillctx/serve`: serve a skill set over MCP (SEP-2640 skills extension), on stdio, Streamable HTTP
 * or any SDK transport. A subpath of its own so `import "skillctx"` never loads the MCP SDK's server.
 * See docs/skills-over-mcp.md.
 */
export { createSkillServer } from "./server.js";
export { DEFAULT_RESOURCES_PAGE_SIZE, DEFAULT_SKILLS_PAGE_SIZE, DEFAULT_SKILLS_TTL_MS } from "./limits.js";
export { serveSkillsHttp, MCP_HTTP_PATH, HEALTH_HTTP_PATH } from "./http.js";
export { buildSkillIndex } from "./skill-index.js";
export { skillFrontmatterJson } from "@skillctx/sources/protocol";
export {
  SKILLS_EXTENSION,
  DIRECTORY_MIME_TYPE,
  SkillEntrySchema,
  SkillsListResultSchema,
  SkillsGetResultSchema,
  DirectoryReadResultSchema,
  SkillsListRequestSchema,
  SkillsGetRequestSchema,
  DirectoryReadRequestSchema,
} from "@skillctx/sources/protocol";

export type { SkillServer, SkillServerOptions } from "./server.js";
export type { ServeHttpOptions, SkillHttpServer } from "./http.js";
export type { HttpAuthOptions, ResourceMetadata } from "./http-auth.js";
export type {
  ServedSkillIndex,
  ServedSkill,
  ServedFile,
  DirectoryChild,
  BuildSkillIndexOptions,
} from "./skill-index.js";
export type { FrontmatterJson } from "@skillctx/sources/protocol";
export type { SkillEntry, SkillsListResult, SkillsGetResult, DirectoryReadResult } from "@skillctx/sources/protocol";
