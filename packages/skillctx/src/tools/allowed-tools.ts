/** Matches tool names against a skill's `allowed-tools`. */
export interface AllowedTools {
  /** The patterns as the skill wrote them. */
  readonly patterns: readonly string[];
  /** Whether a tool of this name is allowed. */
  allows(name: string): boolean;
  /** The patterns that match none of `names` (worth a warning: a typo, or a tool this agent lacks). */
  unmatched(names: readonly string[]): string[];
}

/**
 * The tool-name part of an allowed-tools entry: `Bash(git:*)` → `Bash`, `Read` → `Read`. Argument
 * patterns in parentheses are not enforced: skillctx cannot know the argument shape of a host's tool.
 */
export function toolNamePart(pattern: string): string {
  const open = pattern.indexOf("(");
  return (open === -1 ? pattern : pattern.slice(0, open)).trim();
}

/**
 * Compiles `allowed-tools` entries. Each matches on its tool-name part, exactly and case-sensitively;
 * `*` and `?` in the name are wildcards (`mcp__github__*`).
 *
 * @example
 * compileAllowedTools(["Read", "Bash(git:*)"]).allows("Bash") // true
 */
export function compileAllowedTools(patterns: readonly string[]): AllowedTools {
  const compiled = patterns.map((pattern) => ({ pattern, test: nameTest(toolNamePart(pattern)) }));
  return {
    patterns,
    allows: (name) => compiled.some((entry) => entry.test(name)),
    unmatched: (names) => compiled.filter((entry) => !names.some((name) => entry.test(name))).map((entry) => entry.pattern),
  };
}

function nameTest(name: string): (candidate: string) => boolean {
  if (name === "") return () => false;
  if (!/[*?]/.test(name)) return (candidate) => candidate === name;
  const source = name.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  const regex = new RegExp(`^${source}$`, "u");
  return (candidate) => regex.test(candidate);
}
