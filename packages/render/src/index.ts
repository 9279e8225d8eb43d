export { findCommands } from "./find-commands.js";
export { renderCommands } from "./render-commands.js";
export { runProcess, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_KILL_GRACE_MS } from "./run-process.js";
export { commandEnv, INHERITED_ENV_NAMES } from "./command-env.js";
export { commandDiagnostics } from "./command-diagnostics.js";

export type { CommandSpan } from "./find-commands.js";
export type { RenderOptions, CommandRun, RenderResult } from "./render-commands.js";
export type { ProcessCommand, RunProcessOptions, ProcessResult } from "./run-process.js";
export type { CommandDiagnosticsOptions } from "./command-diagnostics.js";
