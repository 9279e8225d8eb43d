/**
 * `@skillctx/process/internal`: helpers of the process layer that the other skillctx packages share. Not
 * public API: names here may change in any release.
 */
// A promise raced against a timer that is always cleared (mcp-bridge's client start, the engine's close).
export { within } from "./timing.js";
// Whether a process is alive, a zombie counting as gone: the other packages' tests check that no child is left.
export { isProcessAlive } from "./group.js";
