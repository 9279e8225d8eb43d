/**
 * `@skillctx/core/internal`: the one owner of each untrusted-input boundary, shared by the skillctx
 * packages. Not public API: names here may change in any release. See docs/architecture.md.
 */

// --- file access and containment (fs/) ---

// --- directory walking (fs/) ---

// --- globs (glob/) ---

// --- markdown code regions (markdown/) ---

// --- caps and text limits (limits.ts) ---

export {};
