/**
 * Variables a child inherits from this process (plus every `LC_*`); everything else must be passed on
 * purpose. Secrets in the host's environment (API keys, tokens) never reach a command, script, MCP server
 * or git through inheritance.
 */
export const INHERITED_ENV_NAMES: readonly string[] = ["PATH", "HOME", "LANG", "TERM", "USER", "SHELL", "TMPDIR"];

/** Options of {@link processEnv}. */
export interface ProcessEnvOptions {
  /** The environment the allowlisted variables are taken from. @default process.env */
  inherited?: Record<string, string | undefined> | undefined;
}

/**
 * The one environment allowlist of skillctx: the allowlisted variables of this process (PATH, HOME, LANG,
 * LC_*, TERM, USER, SHELL, TMPDIR), then `extra`, whose values win. Every spawner of `@skillctx/process`
 * builds its child's environment with it; MCP servers put their own `env` in `extra`, git adds
 * `GIT_OPTIONAL_LOCKS=0`.
 *
 * Dropped from both sources: exported shell functions (a value that starts with `()`, and any
 * `BASH_FUNC_*` name, which bash imports as code: Shellshock), and entries that cannot be passed to a
 * process at all (an empty name, a name with `=`, a NUL byte in either), which would make spawning throw.
 *
 * @example
 * processEnv({ PYTHONPATH: dir }) // { PATH: …, HOME: …, LANG: …, PYTHONPATH: dir }
 */
export function processEnv(
  extra?: Record<string, string> | undefined,
  options: ProcessEnvOptions = {},
): Record<string, string> {
  // No prototype: a name such as `__proto__` is an ordinary entry, never a prototype change.
  const env = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(options.inherited ?? process.env)) {
    if (value !== undefined && isInherited(name) && isPassable(name, value)) env[name] = value;
  }
  if (extra !== undefined) {
    for (const [name, value] of Object.entries(extra)) {
      if (typeof value === "string" && isPassable(name, value)) env[name] = value;
    }
  }
  return env;
}

/** Whether `value` is an exported shell function (`() { …; }`), which a shell would run as code. */
export function isShellFunction(name: string, value: string): boolean {
  return value.trimStart().startsWith("()") || name.startsWith("BASH_FUNC_");
}

function isInherited(name: string): boolean {
  return INHERITED_ENV_NAMES.includes(name) || name.startsWith("LC_");
}

function isPassable(name: string, value: string): boolean {
  if (name === "" || name.includes("=") || name.includes("\0") || value.includes("\0")) return false;
  return !isShellFunction(name, value);
}
