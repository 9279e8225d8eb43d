/**
 * `@skillctx/core/internal`: the one owner of each untrusted-input boundary, shared by the skillctx
 * packages. Not public API: names here may change in any release. See docs/architecture.md.
 */

// --- file access and containment (fs/) ---
export { projectRoot, projectGitRoot, findGitRoot } from "./fs/project-root.js";
export { readTextFile, readTextFileSync, outsideRoot } from "./fs/read-text-file.js";
export { openRegularFile, openRegularFileSync, OPEN_FLAGS, fileTypeOf, readFailure } from "./fs/open-file.js";
export { isInside, checkRelativePath, childPath, resolveInside } from "./fs/paths.js";
export { decodeStrict, wholeCodePoints } from "./fs/utf8.js";
export type { ProjectRootOptions } from "./fs/project-root.js";
export type { ReadTextFileOptions, ReadTextResult, ReadTextSuccess } from "./fs/read-text-file.js";
export type { FileType, Opened, OpenedSync, ReadFailure, ReadFailureCode } from "./fs/open-file.js";
export type { CheckedPath, ResolvedInside, ResolveInsideCode } from "./fs/paths.js";

// --- skill folder files and digests (fs/skill-files.ts): SEP-2640 resources, lockfile, signatures ---
export { digestBytes, folderDigest, isSha256Digest, listSkillFiles } from "./fs/skill-files.js";
export type { ListSkillFilesOptions, Sha256Digest, SkillFile, SkillFileListing } from "./fs/skill-files.js";
export { MAX_SKILL_FILE_DIGEST_BYTES, MAX_SKILL_FILES, MAX_SKILL_FOLDER_BYTES } from "./limits.js";
// Frontmatter with its YAML types (`typedValue`): SEP-2640's `frontmatter` rendered as JSON (skills-mcp).
export { readFrontmatter } from "./frontmatter.js";
export type { FrontmatterRead } from "./frontmatter.js";

// Line counting for offsets into a text (the fast frontmatter reader, skills-mcp's file reads).
export { countNewlines } from "./count-newlines.js";

// Which skills the model may load (model-invocable.ts): the catalog and the engine's index of invocable skills ask one rule.
export { isModelInvocable } from "./model-invocable.js";

// The Agent Skills name rule (spec-rules.ts): `defineSkill` checks programmatic names with it (skillctx code/).
export { checkName } from "./spec-rules.js";
export { DEFAULT_MAX_CODE_TOOL_RESULT_BYTES, DEFAULT_MAX_SKILL_STATE_BYTES } from "./limits.js";

// --- JSON (json/): the one parser of untrusted JSON text, deep copies, stable text and content equality ---
export { parseJson, safeParseJson } from "./json/parse-json.js";
export type { SafeParseJsonResult } from "./json/parse-json.js";
export { cloneJson } from "./json/clone-json.js";
export { stableStringify } from "./json/stable-stringify.js";
export { equalValues } from "./json/equal-values.js";

// --- error text and text cutting (error-text.ts, text/cut-text.ts) ---
export { errorText } from "./error-text.js";
export {
  ELLIPSIS,
  ellipsizeCodePoints,
  ellipsizeUtf8Bytes,
  ellipsizeUtf16,
  fitCodePoints,
  fitUtf16,
  headCodePoints,
  headUtf8Bytes,
  headUtf8BytesAtLine,
  headUtf16,
} from "./text/cut-text.js";
export { MAX_ERROR_TEXT_CHARS } from "./limits.js";

// --- tool-call arguments as text or value (tool-arguments.ts): the engine, tools, adapters, the MCP bridge ---
export { decodeToolArguments } from "./tool-arguments.js";
export type { DecodedToolArguments, DecodeToolArgumentsOptions } from "./tool-arguments.js";

// --- tool names model APIs accept (tool-name.ts): MCP bridge tools and renamed code tools ---
export { hashedToolName, MAX_TOOL_NAME_CHARS, reduceToolName } from "./tool-name.js";

// --- bounded concurrency (the one pool of async work: command renders, guidance reads, remote sources) ---
export { mapConcurrent } from "./map-concurrent.js";

// --- directory walking (fs/) ---
export { walk } from "./fs/walk.js";
export type { WalkEntry, WalkOptions, WalkResult } from "./fs/walk.js";
// Skill sources with containment (discovery's own loader; the engine's nested skill folders use it).
export { loadSkillSources } from "./load-skills.js";
export type { SourceEntry } from "./skill-sources.js";

// --- globs (glob/) ---
export {
  canonicalGlob,
  compileGlob,
  compileGlobs,
  compileNamePattern,
  DEFAULT_GLOB_LIMITS,
  escapeGlob,
  folderGlob,
  GLOB_TOO_COMPLEX,
  globTooComplex,
  limitGlobList,
  normalizeGlob,
  relocateGlob,
  splitGlobList,
  splitGlobs,
  trimGlob,
} from "./glob/index.js";
export type { CompiledGlob, CompileGlobResult, GlobLimits, GlobOptions, GlobProblem, GlobSet } from "./glob/index.js";

// --- markdown code regions (markdown/) ---
export { codeRegions, proseSegments } from "./markdown/code-regions.js";
export { scanBlocks } from "./markdown/scan-blocks.js";
export { scanInline } from "./markdown/scan-inline.js";
export { inCode } from "./markdown/text-range.js";
export type { BlockScan } from "./markdown/scan-blocks.js";
export type { InlineToken } from "./markdown/scan-inline.js";
export type { ProseSegment, TextRange } from "./markdown/text-range.js";

// --- caps and text limits (limits.ts) ---
export { capTextUtf8Bytes } from "./text-cap.js";
export type { CappedText } from "./text-cap.js";

// file access and walking (H1)
export {
  MAX_RESOURCE_SCAN_BYTES,
  MAX_SKILL_DIR_DEPTH,
  MAX_SKILL_FILE_BYTES,
  MAX_SKILL_FOLDER_ENTRIES,
  WALK_MAX_DEPTH,
  WALK_MAX_ENTRIES,
} from "./limits.js";

// globs (H2)
export {
  MAX_GLOB_BRACE_EXPANSIONS,
  MAX_GLOB_CHARS_PER_RULE,
  MAX_GLOB_LENGTH,
  MAX_GLOB_PATH_LENGTH,
  MAX_GLOBS_PER_RULE,
  MAX_TOOL_PATTERN_LENGTH,
} from "./limits.js";

// markdown, commands and imports (H3)
export {
  DEFAULT_MAX_COMMANDS_PER_TEXT,
  DEFAULT_MAX_IMPORT_BYTES,
  DEFAULT_MAX_IMPORT_FILES,
  DEFAULT_MAX_IMPORT_LOOKUPS,
  DEFAULT_MAX_RENDERED_BYTES,
  MARKDOWN_MAX_NESTING,
  MAX_IMPORT_DEPTH,
} from "./limits.js";

// text that reaches the model: the engine's caps (H6)
export {
  DEFAULT_MAX_ATTACHED_SKILL_BYTES,
  DEFAULT_MAX_GUIDANCE_BLOCK_BYTES,
  DEFAULT_MAX_LOADED_SKILL_BYTES,
} from "./limits.js";
// sub-agents (execute_skill)
export { DEFAULT_MAX_SUB_AGENT_ANSWER_BYTES, DEFAULT_SUB_AGENT_MAX_STEPS, MAX_SUB_AGENTS_AT_ONCE } from "./limits.js";

// processes: the git listing of nested guidance (H4)
export { GIT_LIST_MAX_BYTES, GIT_LIST_TIMEOUT_MS } from "./limits.js";

// MCP I/O (H5)
export {
  MCP_MAX_CONFIG_BYTES,
  MCP_MAX_MALFORMED_MESSAGES,
  MCP_MAX_MESSAGE_BYTES,
  MCP_MAX_RESULT_CHARS,
  MCP_MAX_TOOL_LIST_BYTES,
  MCP_MAX_TOOL_PAGES,
  MCP_MAX_TOOLS_PER_SERVER,
} from "./limits.js";

export {};

// remote sources, the skill server, watching (skillctx)
export {
  DEFAULT_MAX_SERVED_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MCP_TTL_MS,
  DEFAULT_RESOURCES_PAGE_SIZE,
  DEFAULT_SESSION_IDLE_MS,
  DEFAULT_SKILLS_PAGE_SIZE,
  DEFAULT_SKILLS_TTL_MS,
  DEFAULT_URL_TTL_MS,
  DEFAULT_WATCH_DEBOUNCE_MS,
  GIT_LS_REMOTE_MAX_BYTES,
  GIT_SOURCE_TIMEOUT_MS,
  MAX_CURSOR_CHARS,
  MAX_HTTP_BODY_BYTES,
  MAX_LIST_PAGE_BYTES,
  MAX_LOCKFILE_BYTES,
  MAX_MCP_TTL_MS,
  MAX_REQUEST_URI_CHARS,
  MAX_SERVED_TOOL_TEXT_BYTES,
  MAX_SIGNATURE_BUNDLE_BYTES,
  MAX_SOURCES_FILE_BYTES,
  MAX_TRUSTED_ROOT_BYTES,
  MAX_WATCHED_PATHS,
  WATCH_MAX_DEPTH,
} from "./limits.js";

// typed script tools (skillctx)
export {
  MAX_CACHED_SIGNATURES,
  MAX_CALL_ARGUMENT_BYTES,
  MAX_PARAM_DESCRIPTION_CHARS,
  MAX_SCRIPTS_PER_SKILL,
  MAX_SCRIPT_SOURCE_BYTES,
  MAX_TOOL_DESCRIPTION_CHARS,
  READER_MAX_OUTPUT_BYTES,
  READER_TIMEOUT_MS,
} from "./limits.js";

// --- zod, loaded on first use (zod-lib.ts): every schema of the packages is built through it ---
export { zod, lazySchemas } from "./zod-lib.js";
export { skillSchemas } from "./skill.js";
export type { Zod } from "./zod-lib.js";

// --- node:crypto, loaded on first use (crypto-lib.ts) ---
export { createHash, randomBytes, randomUUID } from "./crypto-lib.js";
