export { loadGuidance, DEFAULT_MAX_GUIDANCE_BYTES } from "./load-guidance.js";
export { loadCommands } from "./load-commands.js";
export { CODEX_PROJECT_DOC_MAX_BYTES } from "./agents-chain.js";

export type { LoadGuidanceOptions, GuidanceResult } from "./load-guidance.js";
export type { CommandKind, LoadCommandsOptions } from "./load-commands.js";
