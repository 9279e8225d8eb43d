/**
 * The field rules of the Agent Skills specification, as its reference validator (skills-ref,
 * `validator.py`) applies them. Lengths count code points (Python `len`), `strip` is Python's, and the
 * name alphabet is Python's `str.isalnum()`, which is exactly `\p{L}` ∪ `\p{N}` (checked over every code
 * point for the same Unicode version; combining marks are not alphanumeric, so a decomposed `é` passes
 * only because NFKC composes it first).
 */
import { compareCodePoints } from "./code-point-order.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";

/** Limits of the specification. */
export const MAX_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_COMPATIBILITY_LENGTH = 500;

/** The frontmatter fields the specification allows. */
export const ALLOWED_FIELDS: readonly string[] = [
  "allowed-tools",
  "compatibility",
  "description",
  "license",
  "metadata",
  "name",
];

/** One broken rule. */
export interface RuleFinding {
  code: DiagnosticCode;
  message: string;
}

// Python's str.isspace() characters (str.strip() removes these).
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "gu");
const NAME_CHARS = /^[\p{L}\p{N}-]*$/u;

/** Python's `str.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(PY_STRIP, "");
}

/** Python's `len()`: code points, not UTF-16 units. */
export function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * The name rules: non-empty string; then, on the stripped NFKC form: at most 64 code points, lowercase,
 * no hyphen at either end, no `--`, only letters, digits and hyphens, equal to the NFKC folder name.
 * @param dirName the skill folder's name, or undefined to skip the folder check
 */
export function checkName(value: unknown, dirName: string | undefined): RuleFinding[] {
  if (typeof value !== "string" || pyStrip(value) === "") {
    return [{ code: "NAME_EMPTY", message: "Field 'name' must be a non-empty string" }];
  }
  const name = pyStrip(value).normalize("NFKC");
  const found: RuleFinding[] = [];
  const length = codePoints(name);
  if (length > MAX_NAME_LENGTH) {
    found.push({
      code: "NAME_TOO_LONG",
      message: `Skill name '${name}' exceeds ${MAX_NAME_LENGTH} character limit (${length} chars)`,
    });
  }
  if (name !== name.toLowerCase())
    found.push({ code: "NAME_NOT_LOWERCASE", message: `Skill name '${name}' must be lowercase` });
  if (name.startsWith("-") || name.endsWith("-")) {
    found.push({ code: "NAME_HYPHEN_EDGE", message: "Skill name cannot start or end with a hyphen" });
  }
  if (name.includes("--"))
    found.push({ code: "NAME_CONSECUTIVE_HYPHENS", message: "Skill name cannot contain consecutive hyphens" });
  if (!NAME_CHARS.test(name)) {
    found.push({
      code: "NAME_INVALID_CHARS",
      message: `Skill name '${name}' contains invalid characters. Only letters, digits, and hyphens are allowed.`,
    });
  }
  if (dirName !== undefined && dirName.normalize("NFKC") !== name) {
    found.push({ code: "NAME_DIR_MISMATCH", message: `Directory name '${dirName}' must match skill name '${name}'` });
  }
  return found;
}

/** The description rules: a non-empty string of at most 1024 code points. */
export function checkDescription(value: unknown): RuleFinding[] {
  if (typeof value !== "string" || pyStrip(value) === "") {
    return [{ code: "DESCRIPTION_EMPTY", message: "Field 'description' must be a non-empty string" }];
  }
  const length = codePoints(value);
  return length > MAX_DESCRIPTION_LENGTH
    ? [
        {
          code: "DESCRIPTION_TOO_LONG",
          message: `Description exceeds ${MAX_DESCRIPTION_LENGTH} character limit (${length} chars)`,
        },
      ]
    : [];
}

/** The compatibility rules: a string of at most 500 code points. */
export function checkCompatibility(value: unknown): RuleFinding[] {
  if (typeof value !== "string")
    return [{ code: "COMPATIBILITY_NOT_STRING", message: "Field 'compatibility' must be a string" }];
  const length = codePoints(value);
  return length > MAX_COMPATIBILITY_LENGTH
    ? [
        {
          code: "COMPATIBILITY_TOO_LONG",
          message: `Compatibility exceeds ${MAX_COMPATIBILITY_LENGTH} character limit (${length} chars)`,
        },
      ]
    : [];
}

/** Fields outside the specification, sorted by code point; one finding naming them all. */
export function checkFields(keys: readonly string[]): RuleFinding[] {
  const extra = [...new Set(keys.filter((k) => !ALLOWED_FIELDS.includes(k)))].sort(compareCodePoints);
  if (extra.length === 0) return [];
  return [
    {
      code: "UNEXPECTED_FIELDS",
      message: `Unexpected fields in frontmatter: ${extra.join(", ")}. Only ${ALLOWED_FIELDS.join(", ")} are allowed.`,
    },
  ];
}

/**
 * Type checks the reference validator does not make an error of (warnings here): `metadata` a mapping of
 * strings, `license` a string, `allowed-tools` a string or a list of strings.
 */
export function checkSoftTypes(data: Record<string, unknown>): RuleFinding[] {
  const found: RuleFinding[] = [];
  const metadata = data.metadata;
  if (metadata !== undefined && metadata !== "") {
    if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
      found.push({ code: "METADATA_NOT_MAPPING", message: "Field 'metadata' should be a mapping of strings" });
    } else {
      const bad = Object.keys(metadata).filter((k) => typeof (metadata as Record<string, unknown>)[k] !== "string");
      if (bad.length > 0) {
        found.push({
          code: "METADATA_NOT_STRING",
          message: `metadata values should be strings: ${bad.sort(compareCodePoints).join(", ")}`,
        });
      }
    }
  }
  if (data.license !== undefined && typeof data.license !== "string") {
    found.push({ code: "LICENSE_NOT_STRING", message: "Field 'license' should be a string" });
  }
  const tools = data["allowed-tools"];
  if (
    tools !== undefined &&
    typeof tools !== "string" &&
    !(Array.isArray(tools) && tools.every((t) => typeof t === "string"))
  ) {
    found.push({
      code: "ALLOWED_TOOLS_INVALID",
      message: "Field 'allowed-tools' should be a string or a list of strings",
    });
  }
  return found;
}
