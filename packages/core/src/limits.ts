/**
 * Core's default caps on untrusted input: the ones core's own modules apply (skill files, walks, globs,
 * markdown, YAML and frontmatter, skill folder digests). Each owner module imports its defaults from here
 * and options override them. Every other package keeps its own caps in its own `src/limits.ts`; a cap's
 * name carries its unit (`_BYTES`, `_CHARS` for UTF-16 units, `_CODE_POINTS`, `_MS`), counts stay plain.
 */

// --- file access and walking ---

/**
 * Largest skill file read (SKILL.md or a legacy `.md` skill: its frontmatter head and its body), in
 * bytes. A larger file is not loaded: it becomes a `TOO_LARGE` diagnostic. 4 MiB is about a million
 * tokens, far past any real skill (what reaches the model is capped separately, and lower).
 */
export const MAX_SKILL_FILE_BYTES = 4 * 1024 * 1024;
/**
 * Deepest folder a walk enters, the walked folder being depth 0 (nested guidance outside git,
 * `skillctx validate`, the file list of `load_skill`). Deeper folders are skipped with one
 * `WALK_TOO_DEEP` warning per walk. Skill discovery uses its own, {@link MAX_SKILL_DIR_DEPTH}.
 */
export const WALK_MAX_DEPTH = 16;
/**
 * Most directory entries (files and folders alike) one walk reads; past it the walk stops with a
 * `WALK_LIMIT` warning. 100,000 covers a 10,000-skill library or a large monorepo without git.
 */
export const WALK_MAX_ENTRIES = 100_000;
/** How deep sub-folders of a skill parent folder are searched for skills (the parent is depth 0). */
export const MAX_SKILL_DIR_DEPTH = 4;

// --- globs ---

/**
 * Longest glob compiled, in UTF-16 units (after normalisation, and after relocation for nested rules).
 * A test costs at most (glob length + 1) × path length automaton steps, so this bounds it; a longer
 * glob is refused with `GLOB_TOO_COMPLEX`.
 */
export const MAX_GLOB_CHARS = 512;
/**
 * Most patterns a glob's braces may stand for (`{a,b}/{c,d}` stands for 4), counted without expanding
 * them (saturating arithmetic on the parsed glob); more is refused with `GLOB_TOO_COMPLEX`.
 */
export const MAX_GLOB_BRACE_EXPANSIONS = 1024;
/** Most globs one skill's `paths:` or one rule's `globs` / `applyTo` may declare; the rest are refused with `GLOB_TOO_COMPLEX`. */
export const MAX_GLOBS_PER_RULE = 256;
/**
 * Most characters the globs of one skill or rule may have together (what one path's test against
 * the rule costs is proportional to it); the globs past it are refused with `GLOB_TOO_COMPLEX`.
 */
export const MAX_GLOB_CHARS_PER_RULE = 4096;
/** Longest path matched against a glob, in UTF-16 units; a longer path matches nothing (Linux `PATH_MAX` is 4,096 bytes). */
export const MAX_GLOB_PATH_CHARS = 4096;
/**
 * Longest `allowed-tools` name pattern, and longest tool name tested against one, in UTF-16 units
 * (model APIs allow names of 64 to 128 characters); a longer pattern matches nothing.
 */
export const MAX_TOOL_PATTERN_CHARS = 256;

// --- markdown, commands and imports ---

/**
 * Deepest nesting of block quotes and list items the markdown scanner follows; a deeper `>` or list
 * marker is read as paragraph text. Keeps every line's work bounded (as markdown-it's `maxNesting` does).
 */
export const MARKDOWN_MAX_NESTING = 100;

// --- YAML and frontmatter ---

/**
 * Longest frontmatter block read, in UTF-16 units (about bytes for ASCII): ample for a 10,000-item
 * `triggers:` list. A block not closed within it is `FRONTMATTER_TOO_LARGE` (error) and the file is not
 * a skill; the scan for the closing fence stops there, so a 50 MB file costs no more than the cap.
 */
export const MAX_FRONTMATTER_CHARS = 256 * 1024;
/**
 * Most values YAML aliases may expand to in one block (`*a` standing for a list of 10 counts 11).
 * Plain values are not counted (the size cap bounds them); past this the block is refused with
 * `YAML_INVALID` ("billion laughs" alias bombs).
 */
export const MAX_YAML_ALIAS_EXPANSIONS = 10_000;
/** Deepest nesting of YAML collections in a block (flow `[[[`, compact `- - -`, or through aliases); deeper is `YAML_INVALID`. */
export const MAX_YAML_DEPTH = 64;
/** Most `YAML_INVALID` diagnostics reported for one block; one more diagnostic counts the rest. */
export const MAX_YAML_ERRORS = 10;
/**
 * Longest description shown in the catalog, in code points (the Agent Skills limit, 1,024): a longer
 * one is cut to this length, ending in "…", and warned about (`DESCRIPTION_TOO_LONG`) when it is loaded.
 */
export const MAX_CATALOG_DESCRIPTION_CODE_POINTS = 1024;
/**
 * Largest `agents/openai.yaml` (Codex product metadata) read, in bytes. The same size as the frontmatter
 * cap, which counts UTF-16 units: each cap has its own constant so that each keeps its unit.
 */
export const MAX_CODEX_YAML_BYTES = 256 * 1024;
/** Unknown frontmatter keys `validateSkill` checks for a near miss of a known field; the rest are listed as unexpected. */
export const MAX_SUGGESTIONS = 100;

// --- skill folder digests (fs/skill-files.ts) ---

/** Files of one skill folder that a digest listing (`listSkillFiles`) reads; then `SKILL_FILES_LIMIT`. */
export const MAX_SKILL_FILES = 1_000;
/** UTF-8 or binary bytes of one file of a skill folder read for a digest. */
export const MAX_SKILL_FILE_DIGEST_BYTES = 16 * 1024 * 1024;
/** Bytes of all files of one skill folder read for a digest. */
export const MAX_SKILL_FOLDER_BYTES = 64 * 1024 * 1024;

// --- skill folder files read for the tools (core fs/read-text-lines.ts, fs/skill-files.ts: read_skill_resource, load_skill) ---
/**
 * Most bytes `read_skill_resource` scans through to reach `startLine` (only `maxResourceBytes` of them
 * are returned). A line past this point of a file is refused with a note; the start of any file can
 * always be read.
 */
export const MAX_RESOURCE_SCAN_BYTES = 64 * 1024 * 1024;
/** Most files listed (and looked at) below one skill folder, for `load_skill`'s file list and hints. */
export const MAX_SKILL_FOLDER_ENTRIES = 5_000;

/** UTF-16 units of an error's message kept by `errorText` (a thrown value's text can be any size); the rest becomes "…". */
export const MAX_ERROR_TEXT_CHARS = 4000;

// --- skill search (core search/: the search_skills tool, suggestions, `skillctx search`) ---
/** UTF-16 units of a search request looked at; the rest is ignored (a 1 MB request costs no more than this). */
export const MAX_SEARCH_QUERY_CHARS = 2_000;
/** UTF-16 units of each short field of a skill indexed (name, description, when_to_use, keywords, headings, file names). */
export const MAX_INDEXED_FIELD_CHARS = 4_000;
/** UTF-16 units of a skill's body indexed: a hostile or huge body weighs no more than this much text. */
export const MAX_INDEXED_BODY_CHARS = 40_000;
/**
 * UTF-16 units of a skill's reference text indexed (the text files its SKILL.md links or keeps beside it:
 * `references/*.md`, guides), all files together; read lazily with the body, never at scan time.
 */
export const MAX_INDEXED_REFERENCE_CHARS = 100_000;
/** Most reference files of one skill read for the index (linked ones first). */
export const MAX_INDEXED_REFERENCE_FILES = 64;

// --- the persistent scan cache (scan-cache/) ---
/** Largest persistent scan cache payload read or written, in bytes: about 60,000 typical skills; a larger scan is not kept. */
export const MAX_SCAN_CACHE_BYTES = 64 * 1024 * 1024;
/** Most files one persistent scan cache keeps (the walk's own cap); a larger scan is not kept. */
export const MAX_SCAN_CACHE_ENTRIES = 100_000;
