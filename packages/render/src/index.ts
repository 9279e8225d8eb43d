export { findCommands } from "./find-commands.js";
export { renderCommands } from "./render-commands.js";
export { commandDiagnostics } from "./command-diagnostics.js";
// The process layer moved to @skillctx/process; re-exported so that render's public API stays.
export {
  runProcess,
  processEnv as commandEnv,
  INHERITED_ENV_NAMES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_KILL_GRACE_MS,
} from "@skillctx/process";

export type { CommandSpan } from "./find-commands.js";
export type { RenderOptions, CommandRun, RenderResult } from "./render-commands.js";
export type { CommandDiagnosticsOptions } from "./command-diagnostics.js";
export type { ProcessCommand, RunProcessOptions, ProcessResult } from "@skillctx/process";
