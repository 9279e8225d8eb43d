export { loadGuidance } from "./load-guidance.js";
export { loadCommands } from "./load-commands.js";
export { EMULATED_AGENTS } from "./agent-gate.js";
export { CODEX_PROJECT_DOC_MAX_BYTES, DEFAULT_MAX_GUIDANCE_BYTES } from "./limits.js";

export type { LoadGuidanceOptions, GuidanceResult } from "./load-guidance.js";
export type { CommandKind, LoadCommandsOptions } from "./load-commands.js";
export type { EmulatedAgent } from "./agent-gate.js";
