/**
 * Default caps of rendering `` !`cmd` `` spans (`renderCommands`); options override them.
 * Moved from core's limits.ts, which keeps the caps core itself uses (api/cap-renames.tsv).
 */

// --- commands (render-commands.ts) ---
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
