export { SKILLCTX_ERROR_CODES, SkillctxError } from "./errors.js";
export { DIAGNOSTIC_CODES } from "./diagnostic-codes.js";
export type { DiagnosticCode } from "./diagnostic-codes.js";
export { isScopeTrusted, isSkillTrusted, mayReadOutsideProject } from "./trust.js";
export { diagnostic } from "./diagnostics.js";
export { keepForModel, modelFamily } from "./model-gate.js";
export { loadSkills } from "./load-skills.js";
export { discoverSkills, PROJECT_SKILL_DIRS, USER_SKILL_DIRS } from "./discover-skills.js";
export { createSkillCache, defaultSkillCache } from "./skill-cache.js";
export { readSkillContent } from "./lazy-content.js";
export { compareCodePoints } from "./code-point-order.js";
export { createKeywordMatcher, matchKeyword } from "./keyword-matcher.js";
export { createPathMatcher } from "./path-matcher.js";
export { toolCallPaths } from "./tool-call-paths.js";
export { countTokens, estimateTokens, tokenCounting, TOKENIZER } from "./tokens.js";
export type { TokenCounting } from "./tokens.js";
export { buildCatalog, renderCatalog } from "./catalog.js";
export { promptAttr, promptLine, promptQuote } from "./text/prompt-text.js";
export { createSkillIndex } from "./search/skill-index.js";
export {
  DEFAULT_CONFIDENT_SCORE,
  DEFAULT_FIELD_WEIGHTS,
  DEFAULT_MIN_SEARCH_SCORE,
  DEFAULT_SUGGEST_SCORE,
} from "./search/search-options.js";
export { requestTerms } from "./search/query-terms.js";
export { parseFrontmatter } from "./frontmatter.js";
export { splitFrontmatter } from "./frontmatter-split.js";
export { parseSkill, safeParseSkill } from "./parse-skill.js";
export { validateSkill, validateSkillMd } from "./validate.js";
// The zod schemas of Skill and Diagnostic are at `@skillctx/core/schemas`: importing them loads zod.

export type { SkillctxErrorCode, SkillctxErrorOptions } from "./errors.js";
export type { Trust } from "./trust.js";
export type { Diagnostic, DiagnosticSink, Severity } from "./diagnostics.js";
export type { ModelFamily } from "./model-gate.js";
export type { LoadSkillsOptions, LoadSkillsResult, PersistentCacheOption } from "./load-skills.js";
export type { DiscoverSkillsOptions } from "./discover-skills.js";
export type { SkillCache } from "./skill-cache.js";
export type { SkillSourceInput } from "./skill-sources.js";
export type { KeywordMatch, KeywordMatcher, KeywordSkill } from "./keyword-matcher.js";
export type { PathMatch, PathMatcher } from "./path-matcher.js";
export type { CatalogLevel, CatalogOptions, CatalogResult } from "./catalog.js";
export type {
  FieldWeights,
  SkillIndex,
  SkillIndexOptions,
  SkillIndexSearchOptions,
  SkillMatch,
} from "./search/search-options.js";
export type { EmbedTexts } from "./search/fusion.js";
export type { DocumentSources, SearchField } from "./search/skill-document.js";
export type { ParsedFrontmatter, ParseFrontmatterOptions } from "./frontmatter.js";
export type { FrontmatterSplit, SplitFrontmatterOptions } from "./frontmatter-split.js";
export type { ParseSkillOptions, SafeParseSkillResult } from "./parse-skill.js";
export type { ValidateSkillOptions, ValidateSkillMdOptions, ValidationResult } from "./validate.js";
export type { Dialect } from "./dialect-fields.js";
export type {
  Skill,
  SkillInit,
  SkillInput,
  SkillInputInit,
  Trigger,
  TriggerInit,
  AlwaysTrigger,
  KeywordTrigger,
  TaskTrigger,
  TaskTriggerInit,
  PathTrigger,
  OnDemandTrigger,
  CommandTrigger,
  CommandTriggerInit,
  TriggerType,
  SkillScope,
  SkillFormat,
  SkillSource,
} from "./skill.js";
