/**
 * `@skillctx/sources/protocol`: the wire shapes of the SEP-2640 skills extension of MCP, shared by the
 * consuming side (this package's MCP skill source) and the serving side (`@skillctx/skills-mcp`).
 */
export {
  SKILLS_EXTENSION,
  DIRECTORY_MIME_TYPE,
  SkillsCapabilitySchema,
  SkillResourceRefSchema,
  SkillEntrySchema,
  SkillsListRequestSchema,
  SkillsListResultSchema,
  SkillsGetRequestSchema,
  SkillsGetResultSchema,
  DirectoryReadRequestSchema,
  DirectoryReadResultSchema,
  skillFileUri,
  relativeSkillFile,
  skillNameOfUri,
} from "./skills-protocol/protocol.js";
export { skillFrontmatterJson } from "./skills-protocol/frontmatter-json.js";

export type {
  SkillResourceRef,
  SkillEntry,
  SkillsListResult,
  SkillsGetResult,
  DirectoryReadResult,
} from "./skills-protocol/protocol.js";
export type { FrontmatterJson } from "./skills-protocol/frontmatter-json.js";
