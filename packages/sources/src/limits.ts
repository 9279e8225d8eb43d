/** Default caps of remote skill sources (git, URL indexes, MCP skill servers, lockfile, signatures); options override them. */

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
/** Largest discovery index (`index.json`) of a URL source read, in bytes (`maxIndexBytes`). */
export const MAX_URL_INDEX_BYTES = 1024 * 1024;
/** Most skills read from one URL index (`maxSkills`); the rest are left out with a diagnostic. */
export const MAX_URL_INDEX_SKILLS = 1_000;
/** Most redirects followed by one request of a URL source (`maxRedirects`). */
export const MAX_REDIRECTS = 5;
/** Time of one request of a URL source, redirects and body included (`timeoutMs`). */
export const URL_REQUEST_TIMEOUT_MS = 30_000;
/** Largest bundle read: real bundles are a few KiB (a certificate chain, a log entry, a timestamp). */
export const MAX_SIGNATURE_BUNDLE_BYTES = 1024 * 1024;
/** Largest `trusted_root.json` read for `verify.trustedRoot`. */
export const MAX_TRUSTED_ROOT_BYTES = 4 * 1024 * 1024;
/** How long a remote-cache entry (a git checkout, a verified URL or MCP skill copy) may go unused before `skillctx sync` removes it. */
export const CACHE_UNUSED_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A cache lock whose owner has not refreshed it for this long is stale and taken over (the owner
 * refreshes it every half of this while it works; a crashed or killed owner stops).
 */
export const CACHE_LOCK_STALE_MS = 10_000;
/** Longest wait for a cache lock another live process holds (it may be fetching: two network commands). */
export const CACHE_LOCK_WAIT_MS = 10 * 60_000;
