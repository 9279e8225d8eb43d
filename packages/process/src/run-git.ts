import { runProcess } from "./run-process.js";
import type { ProcessResult, RunProcessOptions } from "./run-process.js";

/** The transports git may use, in config (`protocol.<name>.allow`) and in `GIT_ALLOW_PROTOCOL`. */
export const GIT_ALLOWED_PROTOCOLS: readonly string[] = ["https", "ssh", "git", "file"];

/** Options of {@link runGit}: those of `runProcess`, plus how much of the user's setup git may use. */
export interface RunGitOptions extends RunProcessOptions {
  /**
   * Ignore the user's and the system's git config (and check out symlinks as symlinks, without
   * line-ending conversion): for runs that write repository content, so no filter or template of
   * theirs runs on it. @default false
   */
  isolated?: boolean | undefined;
  /** Pass the SSH agent (`SSH_AUTH_SOCK`) on, for runs that reach a remote. @default false */
  network?: boolean | undefined;
}

/**
 * The one way skillctx runs git: argv only (through `runProcess`, so the allowlisted environment, the
 * timeout and the output cap apply). Every run is hardened the same way, whatever the repository's own
 * config says: no fsmonitor (`core.fsmonitor=false`: a repository's config must not make git run a
 * program), no hooks, only the {@link GIT_ALLOWED_PROTOCOLS} (config and `GIT_ALLOW_PROTOCOL`), no
 * terminal prompt, no optional locks (`GIT_OPTIONAL_LOCKS=0`: a read never takes the index lock).
 * The caller's `env` is added last (its values win).
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<ProcessResult> {
  const { isolated, network, env: extra, ...rest } = options;
  const config = [
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "protocol.allow=never",
    ...GIT_ALLOWED_PROTOCOLS.map((p) => `protocol.${p}.allow=always`),
  ];
  if (isolated === true) config.push("core.symlinks=true", "core.autocrlf=false");
  const env: Record<string, string> = {
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_ALLOW_PROTOCOL: GIT_ALLOWED_PROTOCOLS.join(":"),
    ...extra,
  };
  if (isolated === true) Object.assign(env, { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" });
  const agent = process.env["SSH_AUTH_SOCK"];
  if (network === true && agent !== undefined) env["SSH_AUTH_SOCK"] = agent;
  return runProcess({ file: "git", args: [...config.flatMap((c) => ["-c", c]), ...args] }, { ...rest, env });
}
