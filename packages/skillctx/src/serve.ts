/**
 * `skillctx/serve`: serve a skill set over MCP (SEP-2640 skills extension), on stdio, Streamable HTTP or
 * any SDK transport; re-exports `@skillctx/skills-mcp`. A subpath of its own so `import "skillctx"` never
 * loads the MCP SDK's server. See docs/skills-over-mcp.md.
 */
export {
  DEFAULT_RESOURCES_PAGE_SIZE,
  DEFAULT_SKILLS_PAGE_SIZE,
  DEFAULT_SKILLS_TTL_MS,
  DIRECTORY_MIME_TYPE,
  DirectoryReadRequestSchema,
  DirectoryReadResultSchema,
  HEALTH_HTTP_PATH,
  MCP_HTTP_PATH,
  SKILLS_EXTENSION,
  SkillEntrySchema,
  SkillsGetRequestSchema,
  SkillsGetResultSchema,
  SkillsListRequestSchema,
  SkillsListResultSchema,
  buildSkillIndex,
  createSkillServer,
  serveSkillsHttp,
  skillFrontmatterJson,
} from "@skillctx/skills-mcp";
export type {
  BuildSkillIndexOptions,
  DirectoryChild,
  DirectoryReadResult,
  FrontmatterJson,
  HttpAuthOptions,
  ResourceMetadata,
  ServeHttpOptions,
  ServedFile,
  ServedSkill,
  SkillEntry,
  SkillHttpServer,
  ServedSkillIndex,
  SkillServer,
  SkillServerOptions,
  SkillsGetResult,
  SkillsListResult,
} from "@skillctx/skills-mcp";
