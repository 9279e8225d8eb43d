/**
 * Type checks of the dialect fields (Claude Code, OpenHands in SKILL.md; Codex in agents/openai.yaml)
 * for `validateSkill` without `strict`. Values are as written (every scalar a string).
 */
import { CODEX_YAML_FIELDS, SKILL_MD_DIALECT_FIELDS } from "./dialect-fields.js";
import type { Dialect, DialectField, FieldShape } from "./dialect-fields.js";
import type { CodexSkillMetadata } from "./codex-skill-metadata.js";
import type { Severity } from "./diagnostics.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";

/** How each dialect is named in messages. */
export const DIALECT_NAMES: Record<Dialect, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  openhands: "OpenHands",
  skillctx: "skillctx",
};

/** One finding about a dialect field. */
export interface DialectFinding {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** The field (dotted for agents/openai.yaml). */
  key: string;
  dialect: Dialect;
}

const BOOLEAN_WORDS = new Set(["true", "false", "yes", "no", "on", "off"]);
const CONTEXT_VALUES = new Set(["fork", "inherit"]);

/**
 * Wrong types of dialect fields in a SKILL.md (errors: the loader ignores such a value), and a
 * `context` other than `fork` or `inherit` (a warning: kept, but no agent knows it).
 */
export function checkDialectTypes(data: Record<string, unknown>): DialectFinding[] {
  const found: DialectFinding[] = [];
  for (const field of SKILL_MD_DIALECT_FIELDS) {
    if (!Object.hasOwn(data, field.name)) continue;
    const value = data[field.name];
    if (!fits(value, field.shape, false)) found.push(typeFinding(field, field.name));
    else if (
      field.name === "context" &&
      typeof value === "string" &&
      value.trim() !== "" &&
      !CONTEXT_VALUES.has(value.trim())
    ) {
      found.push({
        code: "FIELD_VALUE_UNKNOWN",
        severity: "warning",
        message: `Field 'context' is '${value.trim()}'; Claude Code knows 'fork' (run as a sub-agent) and 'inherit'`,
        key: "context",
        dialect: "claude-code",
      });
    }
  }
  return found;
}

/**
 * Findings about an `agents/openai.yaml`: an info note per known field (with its dialect), wrong types
 * (errors, or nothing under `strict`) and unknown keys (warnings, or nothing under `strict`).
 */
export function codexYamlFindings(
  codex: CodexSkillMetadata,
  strict: boolean,
): Array<DialectFinding & { line: number | undefined }> {
  const out: Array<DialectFinding & { line: number | undefined }> = [];
  const known = new Map(CODEX_YAML_FIELDS.map((f) => [f.name, f]));
  for (const { key, line, value } of codex.keys) {
    const field = known.get(key);
    if (field === undefined) {
      if (!strict && !["interface", "policy", "dependencies"].includes(key)) {
        out.push({
          code: "CODEX_FIELD_UNKNOWN",
          severity: "warning",
          message: `'${key}' in agents/openai.yaml is not a Codex field`,
          key,
          dialect: "codex",
          line,
        });
      }
      continue;
    }
    out.push({
      code: "DIALECT_FIELD",
      severity: "info",
      message: `'${key}' is a Codex field (${field.meaning})`,
      key,
      dialect: "codex",
      line,
    });
    if (!strict && !fits(value, field.shape, true)) out.push({ ...typeFinding(field, key), line });
  }
  return out;
}

function typeFinding(field: DialectField, key: string): DialectFinding {
  return {
    code: "FIELD_TYPE_INVALID",
    severity: "error",
    message: `Field '${key}' (${DIALECT_NAMES[field.dialect]}) should be ${SHAPE_WORDS[field.shape]}; skillctx ignores it`,
    key,
    dialect: field.dialect,
  };
}

const SHAPE_WORDS: Record<FieldShape, string> = {
  string: "a string",
  boolean: "true or false",
  "string-or-list": "a string or a list of strings",
  mapping: "a mapping",
  list: "a list",
  any: "a value",
};

// `typed`: values with their YAML types (agents/openai.yaml); else as written (SKILL.md).
function fits(value: unknown, shape: FieldShape, typed: boolean): boolean {
  if (value === null || value === undefined || value === "") return true; // empty: nothing said
  switch (shape) {
    case "string":
      return typeof value === "string" || (typed && (typeof value === "number" || typeof value === "boolean"));
    case "boolean":
      return typed
        ? typeof value === "boolean"
        : typeof value === "string" && BOOLEAN_WORDS.has(value.trim().toLowerCase());
    case "string-or-list":
      return typeof value === "string" || (Array.isArray(value) && value.every((item) => typeof item === "string"));
    case "mapping":
      return typeof value === "object" && !Array.isArray(value);
    case "list":
      return Array.isArray(value);
    case "any":
      return true;
  }
}
