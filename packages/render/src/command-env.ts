/** Variables a command inherits from this process; everything else must be passed in `env`. */
export const INHERITED_ENV_NAMES: readonly string[] = ["PATH", "HOME", "LANG", "TERM", "USER", "SHELL", "TMPDIR"];

/**
 * The environment a command gets: the allowlisted variables of this process (PATH, HOME, LANG, LC_*, TERM,
 * USER, SHELL, TMPDIR), then `env`, whose values win. Never the whole parent environment, so secrets such as
 * API keys in the agent's environment do not reach skill commands unless passed on purpose.
 */
export function commandEnv(env: Record<string, string> = {}): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && (INHERITED_ENV_NAMES.includes(name) || name.startsWith("LC_"))) inherited[name] = value;
  }
  return { ...inherited, ...env };
}
