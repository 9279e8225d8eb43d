/**
 * Default limits of the process layer. `@skillctx/process` sits below `@skillctx/core`, so its defaults
 * live here rather than in core's `limits.ts`; options override each of them.
 */

/** A command or script is stopped (its whole group killed) after this long. @default 10_000 */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Bytes kept of a command's stdout and of its stderr, each. @default 51_200 */
export const DEFAULT_MAX_OUTPUT_BYTES = 51_200;

/** Time between SIGTERM and SIGKILL when a command's group is killed. @default 500 */
export const DEFAULT_KILL_GRACE_MS = 500;

/** Each stage of closing a long-lived child (stdin end, SIGTERM, SIGKILL) waits this long. @default 2_000 */
export const DEFAULT_CLOSE_GRACE_MS = 2_000;

/**
 * After a group is gone, how long to wait for end-of-file on its pipes before deciding that a process
 * outside the group (one that started its own session) holds them, and closing our ends. @default 100
 */
export const PIPE_EOF_GRACE_MS = 100;

/** After SIGKILL, how long to wait for the group to vanish (a process in uninterruptible sleep must not hang us). @default 1_000 */
export const SIGKILL_WAIT_MS = 1_000;
