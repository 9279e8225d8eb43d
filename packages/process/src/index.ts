export { runProcess } from "./run-process.js";
export { spawnGroup } from "./spawn-group.js";
export { runGit, GIT_ALLOWED_PROTOCOLS } from "./run-git.js";
export { processEnv, INHERITED_ENV_NAMES } from "./env.js";
export { killGroup } from "./group.js";
export { closeAll } from "./registry.js";
export { createProcessScope, ProcessClosedError } from "./scope.js";
export {
  DEFAULT_CLOSE_GRACE_MS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
} from "./limits.js";

export type { ProcessCommand, ProcessResult, RunProcessOptions } from "./run-process.js";
export type { RunGitOptions } from "./run-git.js";
export type { GroupProcess, ProcessExit, SpawnGroupOptions } from "./spawn-group.js";
export type { ProcessEnvOptions } from "./env.js";
export type { KillGroupOptions } from "./group.js";
export type { ProcessScope } from "./scope.js";
