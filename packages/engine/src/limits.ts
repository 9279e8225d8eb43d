/**
 * Default caps of the engine: its tools, code tools and state, text that reaches the model, watching and
 * typed script tools; options override them. Core keeps the caps core applies (api/cap-renames.tsv).
 */

// --- text that reaches the model (skillctx/src/engine, skillctx/src/tools/execute-skill.ts) ---
/** UTF-8 bytes of the repository-guidance block of `system`, all guidance files together; the rest is cut with a note. */
export const DEFAULT_MAX_GUIDANCE_BLOCK_BYTES = 262_144;
/** UTF-8 bytes of each skill body attached to a message (keyword, task and path triggers); longer bodies are cut with a note. */
export const DEFAULT_MAX_ATTACHED_SKILL_BYTES = 65_536;
/** UTF-8 bytes of each skill body that `load_skill` returns; longer bodies are cut with a note. */
export const DEFAULT_MAX_LOADED_SKILL_BYTES = 65_536;
/** UTF-8 bytes of a sub-agent's answer that `execute_skill` returns to the parent; a longer answer is cut with a note. */
export const DEFAULT_MAX_SUB_AGENT_ANSWER_BYTES = 65_536;
/** Model calls of one sub-agent run by `execute_skill` (`subAgents.maxSteps`); a run that reaches it is an error result. */
export const DEFAULT_SUB_AGENT_MAX_STEPS = 10;
/** Sub-agents running at once in one context; more (or a runner that recurses into `execute_skill`) is an error result. */
export const MAX_SUB_AGENTS_AT_ONCE = 8;

// --- code tools and per-skill state (skillctx code/) ---
/** UTF-8 bytes of one programmatic skill tool's result handed to the model; the rest is cut with a visible note. */
export const DEFAULT_MAX_CODE_TOOL_RESULT_BYTES = 102_400;
/** UTF-8 bytes of one skill's state (its JSON text); a tool call that would make it larger is rejected with an error result. */
export const DEFAULT_MAX_SKILL_STATE_BYTES = 1_048_576;

// --- watching (skillctx/src/engine/hot-reload.ts) ---
/** Quiet time after the last file event before the context counts as changed. */
export const DEFAULT_WATCH_DEBOUNCE_MS = 100;
/** Most files and folders one context watches; past it the rest is not watched (a `WATCH_LIMIT` warning). */
export const MAX_WATCHED_PATHS = 4_096;
/** Deepest entry watched below a watched folder (`.claude/skills/a/b/c/SKILL.md` and rule folders fit). */
export const WATCH_MAX_DEPTH = 10;

// --- catalog notes (engine/catalog-note.ts) ---
/** UTF-8 bytes of one catalog note (a revealed nested folder's note on a tool result, a `<skills_update>` note); entries past it are left out, the note says how many, `CATALOG_NOTE_CUT`. */
export const MAX_CATALOG_NOTE_BYTES = 16_384;
/**
 * UTF-8 bytes of all nested-skill notes on one tool result together (a call whose paths touch many
 * packages reveals many folders); folders past it are left out with one cut line, `CATALOG_NOTE_CUT`.
 * With `catalog.budgetTokens`, the notes of one step also take at most that many tokens.
 */
export const MAX_NESTED_NOTES_BYTES_PER_RESULT = 32_768;

// --- telemetry (events/otel.ts) ---
/** UTF-16 units of each text a span carries (an attribute, an element of an array attribute, an event attribute, the status message); longer text is cut with "…". */
export const MAX_SPAN_ATTRIBUTE_CHARS = 1_000;

// --- lifetime (engine/context-turns.ts) ---
/** How long `close()` waits for aborted work to settle (a process group's SIGTERM grace and SIGKILL fit well inside); then the servers close anyway. */
export const CLOSE_WAIT_MS = 5_000;

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
