import type { AgentContextOptions } from "skillctx";

// The option groups a test helper's defaults and a caller's options may both set.
const GROUPS = ["sources", "catalog", "tools", "subAgents", "conversation", "telemetry"] as const;

/**
 * A helper's default options with a caller's on top, group by group: `{ tools: { host } }` and
 * `{ tools: { filter } }` give both (a plain spread would drop the helper's `host`), as do
 * `sources.remote` settings. Anything else the caller gives wins.
 */
export function withDefaults<T extends Partial<AgentContextOptions>, U extends Partial<AgentContextOptions>>(
  defaults: T,
  options: U,
): T & U {
  const merged: Record<string, unknown> = { ...defaults, ...options };
  for (const group of GROUPS) {
    const a = defaults[group];
    const b = options[group];
    if (a === undefined || b === undefined) continue;
    merged[group] = { ...a, ...b };
  }
  const remote = [defaults.sources?.remote, options.sources?.remote];
  if (remote[0] !== undefined && remote[1] !== undefined)
    (merged.sources as Record<string, unknown>).remote = { ...remote[0], ...remote[1] };
  return merged as T & U;
}
