/**
 * Default caps of reading other tools' conventions (repository guidance, CLAUDE.md `@import` trees, the
 * git listing of nested guidance); options override them.
 * Moved from core's limits.ts, which keeps the caps core itself uses (api/cap-renames.tsv).
 */

// --- repository guidance (load-guidance.ts, agents-chain.ts): public defaults of `loadGuidance` ---
/** Largest guidance text `loadGuidance` keeps, in UTF-8 bytes (imports included). @default 256 KiB */
export const DEFAULT_MAX_GUIDANCE_BYTES = 262_144;
/** Codex's default `project_doc_max_bytes`: 32 KiB (UTF-8 bytes) for the whole AGENTS.md chain. */
export const CODEX_PROJECT_DOC_MAX_BYTES = 32_768;

// --- CLAUDE.md `@import` trees (imports.ts) ---
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

// --- the git listing of nested guidance (nested-scan.ts) ---
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
