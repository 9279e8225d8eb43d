/** Where `${…}` references get their values. */
export interface ExpandVarsOptions {
  /** Variables such as the process environment. Empty strings count as set, except for `:-`. */
  env: Record<string, string | undefined>;
  /** Variables that win over `env` (for example `SKILL_ROOT`). */
  fixed?: Record<string, string | undefined>;
}

// ${NAME} or ${NAME:-default}; the default may not contain "}".
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string. `:-` uses the default when the
 * variable is unset or empty, as in POSIX shells. An unset reference without a default
 * stays as written and is listed in `unresolved`.
 */
export function expandString(text: string, options: ExpandVarsOptions): { value: string; unresolved: string[] } {
  const unresolved: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const found = lookup(name, options);
    if (fallback !== undefined) return found === undefined || found === "" ? fallback : found;
    if (found === undefined) {
      unresolved.push(name);
      return whole;
    }
    return found;
  });
  return { value, unresolved };
}

/**
 * Expands references in every string of a JSON-like value, object keys included.
 * Returns a new value; the input is not modified.
 */
export function expandVars(value: unknown, options: ExpandVarsOptions): { value: unknown; unresolved: string[] } {
  const unresolved = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") {
      const out = expandString(node, options);
      for (const name of out.unresolved) unresolved.add(name);
      return out.value;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === "object" && node !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) out[walk(key) as string] = walk(child);
      return out;
    }
    return node;
  };
  const expanded = walk(value);
  return { value: expanded, unresolved: [...unresolved] };
}

function lookup(name: string, options: ExpandVarsOptions): string | undefined {
  if (options.fixed !== undefined && Object.hasOwn(options.fixed, name)) return options.fixed[name];
  return options.env[name];
}
