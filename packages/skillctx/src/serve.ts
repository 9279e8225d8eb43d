/**
 * `skillctx/serve`: serve a skill set over MCP (SEP-2640 skills extension), on stdio, Streamable HTTP
 * or any SDK transport. A subpath of its own so `import "skillctx"` never loads the MCP SDK's server.
 * See docs/skills-over-mcp.md.
 */
export {
  createSkillServer,
  DEFAULT_RESOURCES_PAGE_SIZE,
  DEFAULT_SKILLS_PAGE_SIZE,
  DEFAULT_SKILLS_TTL_MS,
} from "./skills-mcp/server.js";
export { serveSkillsHttp, MCP_HTTP_PATH } from "./skills-mcp/http.js";
export { buildSkillIndex } from "./skills-mcp/skill-index.js";
export { skillFrontmatterJson } from "./skills-protocol/frontmatter-json.js";
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
} from "./skills-protocol/protocol.js";

export type { SkillServer, SkillServerOptions } from "./skills-mcp/server.js";
export type { ServeHttpOptions, SkillHttpServer } from "./skills-mcp/http.js";
export type {
  SkillIndex,
  ServedSkill,
  ServedFile,
  DirectoryChild,
  BuildSkillIndexOptions,
} from "./skills-mcp/skill-index.js";
export type { FrontmatterJson } from "./skills-protocol/frontmatter-json.js";
export type { SkillEntry, SkillsListResult, SkillsGetResult, DirectoryReadResult } from "./skills-protocol/protocol.js";
