/**
 * `@skillctx/engine/internal`: helpers the other skillctx packages share with the engine (the CLI's
 * `list` explains why a skill is not invocable or loadable with the engine's own reasons). Not a public API.
 */
export { notInvocableReason } from "./engine/invocation.js";
export { notLoadableReason } from "./tool-kit/skill-folder.js";
export { HistoryPrefix } from "./engine/history-prefix.js";
export { serialized } from "./engine/step-queue.js";
