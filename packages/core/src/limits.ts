/**
 * Default caps on untrusted input and on the text the engine emits, in one place. Each owner module
 * imports its defaults from here, options override them, and docs/architecture.md lists them all.
 * (The process layer, `@skillctx/process`, sits below core and keeps its own defaults.)
 */

// --- file access and walking ---

/**
 * Largest skill file read (SKILL.md or a legacy `.md` skill: its frontmatter head and its body), in
 * bytes. A larger file is not loaded: it becomes a `TOO_LARGE` diagnostic. 4 MiB is about a million
 * tokens, far past any real skill (what reaches the model is capped separately, and lower).
 */
export const MAX_SKILL_FILE_BYTES = 4 * 1024 * 1024;
/**
 * Most bytes `read_skill_resource` scans through to reach `startLine` (only `maxResourceBytes` of them
 * are returned). A line past this point of a file is refused with a note; the start of any file can
 * always be read.
 */
export const MAX_RESOURCE_SCAN_BYTES = 64 * 1024 * 1024;
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
/** Most files listed (and looked at) below one skill folder, for `load_skill`'s file list and hints. */
export const MAX_SKILL_FOLDER_ENTRIES = 5_000;

// --- globs ---

/**
 * Longest glob compiled, in UTF-16 units (after normalisation, and after relocation for nested rules).
 * A test costs at most (glob length + 1) × path length automaton steps, so this bounds it; a longer
 * glob is refused with `GLOB_TOO_COMPLEX`.
 */
export const MAX_GLOB_LENGTH = 512;
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
export const MAX_GLOB_PATH_LENGTH = 4096;
/**
 * Longest `allowed-tools` name pattern, and longest tool name tested against one, in UTF-16 units
 * (model APIs allow names of 64 to 128 characters); a longer pattern matches nothing.
 */
export const MAX_TOOL_PATTERN_LENGTH = 256;

// --- markdown, commands and imports ---

/**
 * Deepest nesting of block quotes and list items the markdown scanner follows; a deeper `>` or list
 * marker is read as paragraph text. Keeps every line's work bounded (as markdown-it's `maxNesting` does).
 */
export const MARKDOWN_MAX_NESTING = 100;
/**
 * Most `` !`cmd` `` spans rendered in one text (run, or turned into "not run" markers when untrusted).
 * The spans after it stay as written, and one note at the end of the text says how many and why.
 */
export const DEFAULT_MAX_COMMANDS_PER_TEXT = 50;
/**
 * UTF-8 bytes that rendering may add to one text: every command's output, every error, truncation or
 * "not run" marker, and the final note, together. Spans past it stay as written (with the note).
 */
export const DEFAULT_MAX_RENDERED_BYTES = 131_072;
/**
 * UTF-8 bytes of all files a CLAUDE.md `@import` tree pulls in, together. A file that would not fit is
 * not read; expansion stops there with a visible note and an `IMPORT_LIMIT` warning.
 */
export const DEFAULT_MAX_IMPORT_BYTES = 262_144;
/** Most files one `@import` tree pulls in; expansion stops at the next one with a note and an `IMPORT_LIMIT` warning. */
export const DEFAULT_MAX_IMPORT_FILES = 100;
/**
 * Most `@path` mentions looked up on disk (one `stat` each) in one `@import` tree; the rest stay text,
 * with an `IMPORT_LIMIT` warning. Bounds the file-system work of a file full of `@` words.
 */
export const DEFAULT_MAX_IMPORT_LOOKUPS = 1_000;
/** Imports nest at most this deep: CLAUDE.md → a → b → c → d → e. */
export const MAX_IMPORT_DEPTH = 5;

// --- text that reaches the model ---

/** UTF-8 bytes of the repository-guidance block of `system`, all guidance files together; the rest is cut with a note. */
export const DEFAULT_MAX_GUIDANCE_BLOCK_BYTES = 262_144;
/** UTF-8 bytes of each skill body attached to a message (keyword, task and path triggers); longer bodies are cut with a note. */
export const DEFAULT_MAX_ATTACHED_SKILL_BYTES = 65_536;
/** UTF-8 bytes of each skill body that `load_skill` returns; longer bodies are cut with a note. */
export const DEFAULT_MAX_LOADED_SKILL_BYTES = 65_536;
/** UTF-8 bytes of a sub-agent's answer that `execute_skill` returns to the parent; a longer answer is cut with a note. */
export const DEFAULT_MAX_SUB_AGENT_ANSWER_BYTES = 65_536;
/** Model calls of one sub-agent run by `execute_skill` (`subAgent.maxSteps`); a run that reaches it is an error result. */
export const DEFAULT_SUB_AGENT_MAX_STEPS = 10;
/** Sub-agents running at once in one context; more (or a runner that recurses into `execute_skill`) is an error result. */
export const MAX_SUB_AGENTS_AT_ONCE = 8;

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
export const MAX_CATALOG_DESCRIPTION_CHARS = 1024;

// --- processes (callers of @skillctx/process, whose own defaults live in that package) ---

/**
 * How long `git ls-files` may take to list a repository for nested guidance. Past it git is stopped
 * and the folders are walked instead, with a `GIT_LIST_FAILED` warning.
 */
export const GIT_LIST_TIMEOUT_MS = 60_000;
/**
 * Most bytes of `git ls-files -z` output read (streamed, never held whole: a 1,000,000-file repository
 * lists about 60 MB). Past it git is stopped and the folders are walked instead, with a warning.
 */
export const GIT_LIST_MAX_BYTES = 512 * 1024 * 1024;

// --- MCP I/O ---

/** Largest JSON-RPC message an MCP server may send (one stdio line, one HTTP body or SSE event), in bytes. */
export const MCP_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Most `tools/list` pages read from one server; the tools of the pages read are kept. */
export const MCP_MAX_TOOL_PAGES = 100;
/** Most tools kept from one server. */
export const MCP_MAX_TOOLS_PER_SERVER = 1000;
/** Most bytes of tool definitions (JSON) kept from one server: descriptions and schemas reach the model. */
export const MCP_MAX_TOOL_LIST_BYTES = 4 * 1024 * 1024;
/** Malformed messages (not JSON, not JSON-RPC) one server process may send before it is stopped. */
export const MCP_MAX_MALFORMED_MESSAGES = 100;
/** Longest tool result text handed to the model, in characters; the rest is cut with a visible note. */
export const MCP_MAX_RESULT_CHARS = 100_000;
/** Largest `.mcp.json` read, and largest server entry after `${VAR}` expansion, in bytes. */
export const MCP_MAX_CONFIG_BYTES = 1024 * 1024;

/** Files of one skill folder that a digest listing (`listSkillFiles`) reads; then `SKILL_FILES_LIMIT`. */
export const MAX_SKILL_FILES = 1_000;
/** UTF-8 or binary bytes of one file of a skill folder read for a digest. */
export const MAX_SKILL_FILE_DIGEST_BYTES = 16 * 1024 * 1024;
/** Bytes of all files of one skill folder read for a digest. */
export const MAX_SKILL_FOLDER_BYTES = 64 * 1024 * 1024;

// --- code tools and per-skill state (skillctx code/) ---

/** UTF-8 bytes of one programmatic skill tool's result handed to the model; the rest is cut with a visible note. */
export const DEFAULT_MAX_CODE_TOOL_RESULT_BYTES = 102_400;
/** UTF-8 bytes of one skill's state (its JSON text); a tool call that would make it larger is rejected with an error result. */
export const DEFAULT_MAX_SKILL_STATE_BYTES = 1_048_576;

// --- remote skill sources (skillctx/src/sources) ---

/** Time of one git network command of a remote source (`ls-remote`, `fetch`); then the cache, or a diagnostic. */
export const GIT_SOURCE_TIMEOUT_MS = 120_000;
/** Output kept of `ls-remote` (it is asked for two patterns only). */
export const GIT_LS_REMOTE_MAX_BYTES = 1024 * 1024;
/** Largest lockfile read. */
export const MAX_LOCKFILE_BYTES = 4 * 1024 * 1024;
/** Default freshness of a listing when neither the server nor the source gives one. */
export const DEFAULT_MCP_TTL_MS = 300_000;
/** A server's `ttlMs` is honoured up to one day. */
export const MAX_MCP_TTL_MS = 86_400_000;
/** Largest `skills.json` (the CLI's list of remote sources) read. */
export const MAX_SOURCES_FILE_BYTES = 1024 * 1024;
/** How long a URL source is fresh when the source gives no `ttlMs`. */
export const DEFAULT_URL_TTL_MS = 300_000;
/** Largest bundle read: real bundles are a few KiB (a certificate chain, a log entry, a timestamp). */
export const MAX_SIGNATURE_BUNDLE_BYTES = 1024 * 1024;
/** Largest `trusted_root.json` read for `verify.trustedRoot`. */
export const MAX_TRUSTED_ROOT_BYTES = 4 * 1024 * 1024;

// --- the skill server (skillctx/src/skills-mcp, `skillctx serve`) ---

/** Longest URI a request may name, in characters. */
export const MAX_REQUEST_URI_CHARS = 4096;
/** Most bytes of skill entries (as JSON) in one `skills/list` page; a page holds at least one entry. */
export const MAX_LIST_PAGE_BYTES = 1024 * 1024;
/** Longest cursor accepted, in characters: ours are under 40. */
export const MAX_CURSOR_CHARS = 128;
/** Most bytes of text one tool result carries; past it, a note says where to read on. */
export const MAX_SERVED_TOOL_TEXT_BYTES = 65_536;
/** Most open sessions; a new one past it is answered 503. */
export const DEFAULT_MAX_SESSIONS = 1_000;
/** A session idle this long is closed. */
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
/** Largest request body read, in bytes. */
export const MAX_HTTP_BODY_BYTES = 1024 * 1024;
/** Default `ttlMs` of `skills/list`, and how old the snapshot may get before a request refreshes it. */
export const DEFAULT_SKILLS_TTL_MS = 60_000;
/** Default skills per `skills/list` page. */
export const DEFAULT_SKILLS_PAGE_SIZE = 100;
/** Default resources per `resources/list` / `resources/directory/read` page. */
export const DEFAULT_RESOURCES_PAGE_SIZE = 500;
/** Most bytes of all served files together; skills past it are not served (a warning each). */
export const DEFAULT_MAX_SERVED_BYTES = 256 * 1024 * 1024;

// --- watching (skillctx/src/engine/hot-reload.ts) ---

/** Quiet time after the last file event before the context counts as changed. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 100;
/** Most files and folders one context watches; past it the rest is not watched (a `WATCH_LIMIT` warning). */
export const MAX_WATCHED_PATHS = 4_096;
/** Deepest entry watched below a watched folder (`.claude/skills/a/b/c/SKILL.md` and rule folders fit). */
export const WATCH_MAX_DEPTH = 10;

// --- typed script tools (skillctx/src/code/python): the signature reader and main() calls ---

/** Largest script whose signature is read; a larger one stays on `run_skill_script` with a diagnostic. @default 1 MiB */
export const MAX_SCRIPT_SOURCE_BYTES = 1024 * 1024;
/** Most `scripts/*.py` files of one skill folder read for signatures; the rest get one diagnostic. @default 64 */
export const MAX_SCRIPTS_PER_SKILL = 64;
/** The signature reader (one `python3 -I` per skill folder) is stopped after this long. @default 10_000 */
export const READER_TIMEOUT_MS = 10_000;
/** Bytes of the reader's JSON answer kept (its strings are cut inside Python first). @default 4 MiB */
export const READER_MAX_OUTPUT_BYTES = 4 * 1024 * 1024;
/** Longest tool description taken from a docstring, in characters. @default 1_024 */
export const MAX_TOOL_DESCRIPTION_CHARS = 1024;
/** Longest parameter description taken from a docstring, in characters. @default 512 */
export const MAX_PARAM_DESCRIPTION_CHARS = 512;
/**
 * Most bytes of the JSON arguments of one call. They travel as one argv string (Linux caps one at
 * 128 KiB), so a larger call is refused with an error result instead of failing to spawn. @default 100_000
 */
export const MAX_CALL_ARGUMENT_BYTES = 100_000;
/** Signatures remembered (by real path, size and mtime) across skill folders. @default 2_048 */
export const MAX_CACHED_SIGNATURES = 2048;

/** UTF-16 units of an error's message kept by `errorText` (a thrown value's text can be any size); the rest becomes "…". */
export const MAX_ERROR_TEXT_CHARS = 4000;
