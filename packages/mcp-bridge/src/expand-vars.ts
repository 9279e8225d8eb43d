/** Where `${…}` references get their values. */
export interface ExpandVarsOptions {
  /**
   * The variables references may name. Empty strings count as set, except for `:-`. Pass only what the
   * caller chose to expose (see `serversFromSkill`: the allowlisted environment plus explicit `vars`),
   * never `process.env` as a whole.
   */
  env: Record<string, string | undefined>;
  /** Variables that win over `env` (for example `SKILL_ROOT`). */
  fixed?: Record<string, string | undefined>;
  /**
   * Most characters the expanded text may have (all strings together, for {@link expandVars}); past it
   * expansion stops and `overflow` is true. @default Infinity
   */
  maxChars?: number;
}

/** Deepest nesting {@link expandVars} walks; deeper values set `overflow` (server settings are a few levels deep). */
export const MAX_EXPAND_DEPTH = 64;

/** What an expansion produced. */
export interface ExpandResult<T> {
  value: T;
  /** Names referenced without a value and without a default, each once, in order of appearance. */
  unresolved: string[];
  /** The text grew past `maxChars` (or nested past {@link MAX_EXPAND_DEPTH}); `value` is incomplete and must not be used. */
  overflow: boolean;
  /**
   * Object keys that expanded to a key the same object already had (`"${A}"` beside `"a"` with A=a): the
   * first is kept, each later one dropped and named here as written. {@link expandVars} only.
   */
  collisions?: string[];
}

// ${NAME} or ${NAME:-default}; the default may not contain "}".
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string. `:-` uses the default when the
 * variable is unset or empty, as in POSIX shells. An unset reference without a default
 * stays as written and is listed in `unresolved`. Linear in the input and the output; the
 * output stops growing at `maxChars`.
 */
export function expandString(text: string, options: ExpandVarsOptions): ExpandResult<string> {
  return expandWithin(text, options, { left: options.maxChars ?? Number.POSITIVE_INFINITY });
}

/**
 * Expands references in every string of a JSON-like value, object keys included (OpenHands expands the
 * whole configuration, keys too: `expand_mcp_variables`). Returns a new value; the input is not modified.
 * `maxChars` bounds all strings together. A key that expands to one its object already has is dropped
 * and listed in `collisions`: the first written wins, whatever the environment holds.
 */
export function expandVars(value: unknown, options: ExpandVarsOptions): ExpandResult<unknown> {
  const unresolved = new Set<string>();
  const collisions: string[] = [];
  const budget = { left: options.maxChars ?? Number.POSITIVE_INFINITY };
  let overflow = false;
  const walk = (node: unknown, depth = 0): unknown => {
    if (overflow) return undefined;
    if (depth > MAX_EXPAND_DEPTH) {
      overflow = true;
      return undefined;
    }
    if (typeof node === "string") {
      const out = expandWithin(node, options, budget);
      for (const name of out.unresolved) unresolved.add(name);
      if (out.overflow) overflow = true;
      return out.value;
    }
    if (Array.isArray(node)) return node.map((child) => walk(child, depth + 1));
    if (typeof node === "object" && node !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) {
        const name = walk(key) as string;
        if (Object.hasOwn(out, name)) {
          collisions.push(key);
          continue;
        }
        // defineProperty: a "__proto__" key stays a plain key instead of replacing the prototype.
        Object.defineProperty(out, name, {
          value: walk(child, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return node;
  };
  const expanded = walk(value);
  const result: ExpandResult<unknown> = { value: expanded, unresolved: [...unresolved], overflow };
  if (collisions.length > 0) result.collisions = collisions;
  return result;
}

function expandWithin(text: string, options: ExpandVarsOptions, budget: { left: number }): ExpandResult<string> {
  const unresolved = new Set<string>();
  const pieces: string[] = [];
  let last = 0;
  const add = (piece: string): boolean => {
    budget.left -= piece.length;
    if (budget.left < 0) return false;
    pieces.push(piece);
    return true;
  };
  for (const match of text.matchAll(REFERENCE)) {
    const [whole, name, fallback] = match as unknown as [string, string, string | undefined];
    if (!add(text.slice(last, match.index))) return { value: "", unresolved: [...unresolved], overflow: true };
    last = match.index + whole.length;
    const found = lookup(name, options);
    let piece: string;
    if (fallback !== undefined) piece = found === undefined || found === "" ? fallback : found;
    else if (found === undefined) {
      unresolved.add(name);
      piece = whole;
    } else piece = found;
    if (!add(piece)) return { value: "", unresolved: [...unresolved], overflow: true };
  }
  if (!add(text.slice(last))) return { value: "", unresolved: [...unresolved], overflow: true };
  return { value: pieces.join(""), unresolved: [...unresolved], overflow: false };
}

function lookup(name: string, options: ExpandVarsOptions): string | undefined {
  if (options.fixed !== undefined && Object.hasOwn(options.fixed, name)) return options.fixed[name];
  return Object.hasOwn(options.env, name) ? options.env[name] : undefined;
}
