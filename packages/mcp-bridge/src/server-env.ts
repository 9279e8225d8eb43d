/** Variables a server inherits from this process; `LC_*` are inherited too. */
export const INHERITED_ENV = ["PATH", "HOME", "LANG", "TERM", "USER", "SHELL", "TMPDIR"] as const;

/**
 * Builds a server's whole environment: the allowlisted variables of `inherited`, then
 * `extra` (the caller's), then `own` (the server's `env`); later sources win. Nothing
 * else from the parent's environment is passed on.
 */
export function serverEnv(options: {
  inherited?: Record<string, string | undefined>;
  extra?: Record<string, string> | undefined;
  own?: Record<string, string> | undefined;
}): Record<string, string> {
  const inherited = options.inherited ?? process.env;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited)) {
    if (value === undefined) continue;
    if ((INHERITED_ENV as readonly string[]).includes(key) || key.startsWith("LC_")) env[key] = value;
  }
  return { ...env, ...options.extra, ...options.own };
}
