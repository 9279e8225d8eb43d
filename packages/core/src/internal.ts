/**
 * `@skillctx/core/internal`: the one owner of each untrusted-input boundary, shared by the skillctx
 * packages. Not public API: names here may change in any release. See docs/architecture.md.
 */

// --- file access and containment (fs/) ---
export { projectRoot, findGitRoot, isHomeFolder } from "./fs/project-root.js";
export { readTextFile, readTextFileSync } from "./fs/read-text-file.js";
export { readTextLines } from "./fs/read-text-lines.js";

export {
  invalidOption,
  isPositiveInteger,
  isWholeNumberAtLeast,
  optionMessage,
  quotedChoices,
} from "./options-check.js";
export {
  isInside,
  checkRelativePath,
  childPath,
  realPathOrSelf,
  resolveInside,
  toPosix,
  toPosixRelative,
} from "./fs/paths.js";
export { decodeStrict } from "./fs/utf8.js";
// The one cache folder of skillctx (disk-cache/cache-dir.ts): the scan cache's and the remote sources'.
export { cacheDirSeenFrom } from "./disk-cache/cache-dir.js";

export type { CheckedPath } from "./fs/paths.js";

// --- skill folder files and digests (fs/skill-files.ts): SEP-2640 resources, lockfile, signatures ---
export { digestBytes, folderDigest, isSha256Digest, listSkillFileNames, listSkillFiles } from "./fs/skill-files.js";
export type { Sha256Digest, SkillFile, SkillFileList } from "./fs/skill-files.js";
export { MAX_SKILL_FILE_DIGEST_BYTES, MAX_SKILL_FILES, MAX_SKILL_FOLDER_BYTES } from "./limits.js";
// Frontmatter with its YAML types (`typedValue`): SEP-2640's `frontmatter` rendered as JSON (skills-mcp).
export { readFrontmatter } from "./frontmatter.js";

// Line counting for offsets into a text (the fast frontmatter reader, skills-mcp's file reads).
export { countNewlines } from "./count-newlines.js";

// Which skills the model may load (model-invocable.ts): the catalog and the engine's index of invocable skills ask one rule.
export { isModelInvocable } from "./model-invocable.js";

// A name or description as every catalog entry shows it: one line (catalog.ts; the CLI's list, skills served over MCP).

// The Agent Skills name rule (spec-rules.ts): `defineSkill` checks programmatic names with it (skillctx code/).
export { checkName } from "./spec-rules.js";

// --- URLs: an absolute http(s) URL or nothing (origins, source indexes) ---
export { httpUrl } from "./http-url.js";

// --- JSON (json/): the one parser of untrusted JSON text, deep copies, stable text and content equality ---
export { parseJson, safeParseJson } from "./json/parse-json.js";
export { cloneJson } from "./json/clone-json.js";
export { equalValues } from "./json/equal-values.js";

// --- error text and text cutting (error-text.ts, text/cut-text.ts) ---
export { errorText } from "./error-text.js";
export {
  ellipsizeCodePoints,
  ellipsizeUtf8Bytes,
  ellipsizeUtf16,
  fitCodePoints,
  fitUtf16,
  headUtf8BytesAtLine,
  headUtf16,
} from "./text/cut-text.js";

// --- the near miss of a misspelled name (dialect-fields.ts): SKILL.md fields, CLI commands and flags ---
export { suggestField } from "./dialect-fields.js";

// --- tool-call arguments as text or value (tool-arguments.ts): the engine, tools, adapters, the MCP bridge ---
export { decodeToolArguments } from "./tool-arguments.js";

// --- tool names model APIs accept (tool-name.ts): MCP bridge tools and renamed code tools ---
export { hashedToolName, MAX_TOOL_NAME_CHARS, reduceToolName } from "./tool-name.js";

// --- bounded concurrency (the one pool of async work: command renders, guidance reads, remote sources) ---
export { mapConcurrent } from "./map-concurrent.js";

// --- directory walking (fs/) ---
export { walk } from "./fs/walk.js";
// The one rule for which folders a search for skill folders skips (discovery, and fetched sources).
export { skipsSkillSearch } from "./walk-skill-dirs.js";
export type { WalkEntry } from "./fs/walk.js";
// Skill sources with containment (discovery's own loader; the engine's nested skill folders use it).
export { loadSkillSources } from "./load-skills.js";
// The skill folders list's discovery finds inside a path (`skillctx validate`).
export { skillFoldersIn } from "./skill-folders-in.js";

// --- globs (glob/) ---
export {
  compileGlob,
  compileNamePattern,
  escapeGlob,
  folderGlob,
  limitGlobList,
  normalizeGlob,
  relocateGlob,
  splitGlobList,
} from "./glob/index.js";
export type { GlobProblem } from "./glob/index.js";

// --- markdown code regions (markdown/) ---
export { codeRegions, proseSegments } from "./markdown/code-regions.js";

export { scanInline } from "./markdown/scan-inline.js";
export { inCode } from "./markdown/text-range.js";

// --- text cut to a byte count (text-cap.ts) ---
export { capTextUtf8Bytes } from "./text-cap.js";

// --- caps core shares with other packages (limits.ts); each package keeps its own caps in its limits.ts ---
export { MAX_SKILL_FILE_BYTES } from "./limits.js";

// --- zod, loaded on first use (zod-lib.ts): every schema of the packages is built through it ---
export { zod, lazySchemas } from "./zod-lib.js";
export { skillSchemas, SKILL_RUNTIME } from "./skill.js";
export type { Zod, z } from "./zod-lib.js";

// --- node:crypto, loaded on first use (crypto-lib.ts) ---
export { createHash, randomBytes, randomUUID } from "./crypto-lib.js";
