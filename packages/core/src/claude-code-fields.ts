// Claude Code's frontmatter fields of a skill, read into the Skill (a part of parseSkill).
import type { Skill } from "./skill.js";
import { booleanField, stringField, stringList } from "./skill-fields.js";
import type { Converted } from "./skill-fields.js";

// Claude Code's string fields, by frontmatter key and Skill field; `agent` is one only in a SKILL.md.
type StringFieldName = "whenToUse" | "model" | "effort" | "context" | "agent";
const CLAUDE_STRING_FIELDS: ReadonlyArray<readonly [string, StringFieldName]> = [
  ["when_to_use", "whenToUse"],
  ["model", "model"],
  ["effort", "effort"],
  ["context", "context"],
];
const CLAUDE_STRING_FIELDS_SKILL_MD: ReadonlyArray<readonly [string, StringFieldName]> = [
  ...CLAUDE_STRING_FIELDS,
  ["agent", "agent"],
];

/**
 * The Claude Code fields: `user-invocable`, `argument-hint`, `arguments`, `when_to_use`, `model`,
 * `effort`, `context` and `agent` (the last one only in a SKILL.md: in an OpenHands file it names the
 * agent a microagent is for, and is kept in extra). A value of the wrong type is warned about and kept
 * in extra.
 */
export function readClaudeCodeFields(
  data: Record<string, unknown>,
  init: Skill,
  ctx: {
    format: "skill-md" | "legacy";
    take: <T>(key: string, converted: Converted<T>) => T | undefined;
    keepExtra: (key: string) => void;
  },
): void {
  const { take, keepExtra } = ctx;
  const kept = (key: string) => {
    if (data[key] !== undefined && data[key] !== "") keepExtra(key);
  };
  const invocable = take("user-invocable", booleanField("user-invocable", data["user-invocable"]));
  if (invocable !== undefined) init.userInvocable = invocable;
  else kept("user-invocable");
  const hint = take("argument-hint", argumentHintField(data["argument-hint"]));
  if (hint !== undefined) init.argumentHint = hint;
  else kept("argument-hint");
  const names = take("arguments", stringList("arguments", data.arguments, splitBlanks));
  if (names !== undefined && names.length > 0) init.argumentNames = names;
  else if (names === undefined) kept("arguments");
  const strings = ctx.format === "skill-md" ? CLAUDE_STRING_FIELDS_SKILL_MD : CLAUDE_STRING_FIELDS;
  for (let i = 0; i < strings.length; i++) {
    const [key, field] = strings[i]!;
    if (data[key] === undefined) continue;
    if (typeof data[key] !== "string") {
      take(key, {
        value: undefined,
        issues: [{ code: "FIELD_NOT_STRING", message: `'${key}' should be a string; ignored (kept in extra)` }],
      });
      keepExtra(key);
      continue;
    }
    const value = take(key, stringField(key, data[key]));
    if (value !== undefined) init[field] = value;
  }
  if (ctx.format === "legacy" && Object.hasOwn(data, "agent")) keepExtra("agent");
}

/**
 * `argument-hint`: a string, or a YAML flow list as Claude Code's docs write it (`argument-hint: [file]`
 * is a list in YAML), shown as written: `[file]`.
 */
function argumentHintField(raw: unknown): Converted<string> {
  if (Array.isArray(raw) && raw.every((item) => typeof item === "string")) {
    return { value: raw.length === 0 ? undefined : `[${raw.join(", ")}]`, issues: [] };
  }
  return stringField("argument-hint", raw);
}

/** Splits Claude Code `arguments: a b c` on blanks and commas. */
function splitBlanks(s: string): string[] {
  return s.split(/[\s,]+/);
}
