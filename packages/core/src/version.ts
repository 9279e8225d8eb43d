/**
 * skillctx's version (the packages are versioned together; `version.test.ts` keeps this equal to
 * `@skillctx/core`'s package.json). A constant, so that a cold start reads no package.json: the on-disk
 * caches (`disk-cache/`) are versioned by it.
 */
export const SKILLCTX_VERSION = "0.1.0";
