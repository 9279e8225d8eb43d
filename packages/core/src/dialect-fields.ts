/**
 * The frontmatter fields that agents other than the Agent Skills specification define for a SKILL.md
 * (Claude Code, OpenHands) and for a skill's `agents/openai.yaml` (Codex), with the shape each takes.
 * The loader reads them without an `UNKNOWN_FIELDS` warning; `validateSkill` without `strict` accepts
 * them with an informational note naming the dialect, and checks their types.
 */
import { ALLOWED_FIELDS } from "./spec-rules.js";

/** Who defines a field beyond the Agent Skills specification. */
export type Dialect = "claude-code" | "codex" | "openhands" | "skillctx";

/** The shape a field's value takes, as written in YAML. */
export type FieldShape = "string" | "boolean" | "string-or-list" | "mapping" | "list" | "any";

/** One field of a dialect. */
export interface DialectField {
  name: string;
  dialect: Dialect;
  shape: FieldShape;
  /** What skillctx does with it, in a few words (docs/conventions.md lists the same). */
  meaning: string;
}

/** SKILL.md frontmatter fields beyond the specification, first dialect first where two define a name. */
export const SKILL_MD_DIALECT_FIELDS: readonly DialectField[] = [
  {
    name: "when_to_use",
    dialect: "claude-code",
    shape: "string",
    meaning: "appended to the description in the catalog",
  },
  {
    name: "argument-hint",
    dialect: "claude-code",
    shape: "string-or-list",
    meaning: "shown beside the name for /invocation",
  },
  {
    name: "arguments",
    dialect: "claude-code",
    shape: "string-or-list",
    meaning: "names of positional arguments ($name)",
  },
  {
    name: "disable-model-invocation",
    dialect: "claude-code",
    shape: "boolean",
    meaning: "true: out of the catalog and load_skill; user only",
  },
  {
    name: "user-invocable",
    dialect: "claude-code",
    shape: "boolean",
    meaning: "false: no /name invocation; stays in the catalog",
  },
  { name: "model", dialect: "claude-code", shape: "string", meaning: "kept on the skill and its activation" },
  { name: "effort", dialect: "claude-code", shape: "string", meaning: "kept on the skill and its activation" },
  {
    name: "context",
    dialect: "claude-code",
    shape: "string",
    meaning: "fork: the host may run the skill as a sub-agent",
  },
  {
    name: "agent",
    dialect: "claude-code",
    shape: "string",
    meaning: "sub-agent type for context: fork (OpenHands: the agent a microagent is for)",
  },
  {
    name: "paths",
    dialect: "claude-code",
    shape: "string-or-list",
    meaning: "globs: the skill is attached when a tool touches a matching file",
  },
  { name: "hooks", dialect: "claude-code", shape: "mapping", meaning: "kept in extra, not run" },
  { name: "shell", dialect: "claude-code", shape: "string", meaning: "kept in extra (commands run with /bin/sh)" },
  { name: "disallowed-tools", dialect: "claude-code", shape: "string-or-list", meaning: "kept in extra, not enforced" },
  {
    name: "triggers",
    dialect: "openhands",
    shape: "string-or-list",
    meaning: "keywords that attach the skill to a user message",
  },
  {
    name: "trigger",
    dialect: "openhands",
    shape: "mapping",
    meaning: "explicit trigger { type, keywords | globs | inputs }",
  },
  { name: "inputs", dialect: "openhands", shape: "list", meaning: "task inputs; the skill becomes /name-invocable" },
  {
    name: "mcp_tools",
    dialect: "openhands",
    shape: "mapping",
    meaning: "MCP servers, started when the skill is active (trust-gated)",
  },
  {
    name: "type",
    dialect: "openhands",
    shape: "string",
    meaning: "microagent type (knowledge, repo, task); kept in extra",
  },
  { name: "version", dialect: "openhands", shape: "string", meaning: "kept in extra" },
  { name: "allowed_tools", dialect: "openhands", shape: "string-or-list", meaning: "alias of allowed-tools" },
  {
    name: "resources",
    dialect: "skillctx",
    shape: "string-or-list",
    meaning: "the only files read_skill_resource may read",
  },
];

/** Codex `agents/openai.yaml` fields, dotted. */
export const CODEX_YAML_FIELDS: readonly DialectField[] = [
  { name: "interface.display_name", dialect: "codex", shape: "string", meaning: "metadata.display_name" },
  {
    name: "interface.short_description",
    dialect: "codex",
    shape: "string",
    meaning: "metadata.short_description; the description when SKILL.md has none",
  },
  { name: "interface.icon_small", dialect: "codex", shape: "string", meaning: "kept in extra" },
  { name: "interface.icon_large", dialect: "codex", shape: "string", meaning: "kept in extra" },
  { name: "interface.brand_color", dialect: "codex", shape: "string", meaning: "kept in extra" },
  { name: "interface.default_prompt", dialect: "codex", shape: "string", meaning: "kept in extra" },
  {
    name: "policy.allow_implicit_invocation",
    dialect: "codex",
    shape: "boolean",
    meaning: "false: same as disable-model-invocation",
  },
  {
    name: "dependencies.tools",
    dialect: "codex",
    shape: "list",
    meaning: "entries of type mcp become the skill's MCP servers",
  },
];

const BY_NAME = new Map(SKILL_MD_DIALECT_FIELDS.map((f) => [f.name, f]));

/** The dialect field of a SKILL.md key, or undefined for spec fields and unknown keys. */
export function dialectField(key: string): DialectField | undefined {
  return BY_NAME.get(key);
}

/** Every SKILL.md key skillctx knows: the specification's and the dialects'. */
export const KNOWN_SKILL_MD_FIELDS: readonly string[] = [
  ...ALLOWED_FIELDS,
  ...SKILL_MD_DIALECT_FIELDS.map((f) => f.name),
];

// Keys longer than this are never compared (a misspelling of a known field is short).
const MAX_SUGGEST_LENGTH = 64;

/**
 * The known field `key` most likely misspells: the same once case, `_` and `-` are ignored, or within
 * an edit distance of 1 (2 for names of 8 characters or more), adjacent swaps counting as one edit.
 * Undefined when none is that close, or when `key` is itself known.
 * @example suggestField("disable-model-invokation") // "disable-model-invocation"
 */
export function suggestField(key: string, known: readonly string[] = KNOWN_SKILL_MD_FIELDS): string | undefined {
  if (key.length > MAX_SUGGEST_LENGTH || known.includes(key)) return undefined;
  const folded = fold(key);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const target = fold(name);
    const limit = target.length >= 8 ? 2 : 1;
    if (Math.abs(target.length - folded.length) > limit) continue;
    const distance = folded === target ? 0 : editDistance(folded, target, limit);
    if (distance <= limit && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function fold(name: string): string {
  return name.toLowerCase().replace(/_/g, "-");
}

/**
 * Optimal string alignment distance (Damerau-Levenshtein without re-edits), or `limit + 1` once it
 * must exceed `limit`. Both strings are at most {@link MAX_SUGGEST_LENGTH} long.
 */
function editDistance(a: string, b: string, limit: number): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let smallest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
      if (value < smallest) smallest = value;
    }
    if (smallest > limit) return limit + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}
