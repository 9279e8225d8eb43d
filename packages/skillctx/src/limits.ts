/**
 * Default caps of the engine, its tools, remote sources, the skill server, watching and typed script
 * tools; options override them. One section per folder, so that each moves with its folder.
 * Moved from core's limits.ts, which keeps the caps core itself uses (api/cap-renames.tsv).
 */

// --- skill files read by the tools (skillctx/src/tools: read_skill_resource, load_skill) ---
/**
 * Most bytes `read_skill_resource` scans through to reach `startLine` (only `maxResourceBytes` of them
 * are returned). A line past this point of a file is refused with a note; the start of any file can
 * always be read.
 */
export const MAX_RESOURCE_SCAN_BYTES = 64 * 1024 * 1024;
/** Most files listed (and looked at) below one skill folder, for `load_skill`'s file list and hints. */
export const MAX_SKILL_FOLDER_ENTRIES = 5_000;

// --- text that reaches the model (skillctx/src/engine, skillctx/src/tools/execute-skill.ts) ---
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
