import { compileNamePattern } from "@skillctx/core/internal";

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
 * `*` (any run of characters) and `?` (any one) in the name are wildcards (`mcp__github__*`), through
 * core's one glob module, so a hostile pattern costs at most (pattern length × name length) steps. A
 * pattern longer than 256 characters matches nothing, nor does a name longer than 256.
 *
 * @example
 * compileAllowedTools(["Read", "Bash(git:*)"]).allows("Bash") // true
 */
export function compileAllowedTools(patterns: readonly string[]): AllowedTools {
  const compiled = patterns.map((pattern) => ({ pattern, test: nameTest(toolNamePart(pattern)) }));
  return {
    patterns,
    allows: (name) => compiled.some((entry) => entry.test(name)),
    unmatched: (names) =>
      compiled.filter((entry) => !names.some((name) => entry.test(name))).map((entry) => entry.pattern),
  };
}

function nameTest(name: string): (candidate: string) => boolean {
  if (name === "") return () => false;
  if (!/[*?]/.test(name)) return (candidate) => candidate === name;
  const compiled = compileNamePattern(name);
  return compiled.ok ? compiled.glob.test : () => false;
}
