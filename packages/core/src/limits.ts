
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
