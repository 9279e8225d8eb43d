/**
 * Conversions of single frontmatter fields (values as written: strings, arrays, objects) into the
 * shapes of the Skill model. Each returns the value plus warnings; none throws.
 */
import { compareCodePoints } from "./code-point-order.js";
import type { SkillInput } from "./skill.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";

/** A problem with one field, turned into a diagnostic by the caller (who knows the line). */
export interface FieldIssue {
  code: DiagnosticCode;
  message: string;
}

/** A converted value and what had to be tolerated to get it. */
export interface Converted<T> {
  value: T | undefined;
  issues: FieldIssue[];
}

// Every field of every scanned skill goes through these: the common answers share one frozen empty
// list of issues (callers only read `issues`), and an absent field shares one answer.
const NO_ISSUES: FieldIssue[] = Object.freeze([]) as unknown as FieldIssue[];
const NONE: Converted<never> = Object.freeze({ value: undefined, issues: NO_ISSUES });
const ok = <T>(value: T | undefined): Converted<T> => ({ value, issues: NO_ISSUES });
const none = (): Converted<never> => NONE;
const issue = (code: DiagnosticCode, message: string): FieldIssue => ({ code, message });

/** A string field; lists and maps are converted to JSON with a warning. Empty → undefined. */
export function stringField(field: string, raw: unknown): Converted<string> {
  if (raw === undefined) return none();
  if (typeof raw === "string") {
    const value = raw.trim();
    return ok(value === "" ? undefined : value);
  }
  return {
    value: JSON.stringify(raw),
    issues: [issue("FIELD_NOT_STRING", `'${field}' should be a string; converted to JSON`)],
  };
}

/**
 * A list of strings written as a YAML list or as one string. `split` cuts the string form (commas for
 * globs and keywords, blanks for tools). Non-string items are converted to JSON with a warning.
 */
export function stringList(field: string, raw: unknown, split: (s: string) => string[]): Converted<string[]> {
  if (raw === undefined) return none();
  const issues: FieldIssue[] = [];
  let items: string[];
  if (typeof raw === "string") items = split(raw);
  else if (Array.isArray(raw)) {
    items = raw.map((item) => {
      if (typeof item === "string") return item;
      issues.push(issue("FIELD_NOT_STRING", `an item of '${field}' is not a string; converted to JSON`));
      return JSON.stringify(item);
    });
  } else {
    return {
      value: undefined,
      issues: [issue("FIELD_INVALID", `'${field}' should be a list or a string; ignored (kept in extra)`)],
    };
  }
  const value = unique(items.map((s) => s.trim()).filter((s) => s !== ""));
  return { value, issues };
}

// How YAML writes null: a value written so may be null (the typed value tells), or the string it reads as.
const NULL_SPELLINGS = new Set(["", "~", "null", "Null", "NULL"]);

/**
 * `allowed-tools` (or its alias `allowed_tools`): a list, or a string split by {@link splitTools}. As in
 * Strands and Claude Code, a value that names no tool (empty, blank, null, `[]`) means no restriction
 * (`undefined`, with an `ALLOWED_TOOLS_EMPTY` warning), never "no tools"; null entries of a list are
 * dropped (`ALLOWED_TOOLS_NULL`). `typed` gives the value with its YAML types (consulted only when a
 * value is written like a null); a mapping is `FIELD_INVALID` (no restriction, kept in extra).
 */
export function allowedToolsField(field: string, raw: unknown, typed: () => unknown): Converted<string[]> {
  if (raw === undefined) return none();
  if (typeof raw === "string") {
    if (raw.trim() === "") return noRestriction(field, "empty", []);
    if (NULL_SPELLINGS.has(raw) && typed() === null) return noRestriction(field, "null", []);
    const list = stringList(field, raw, splitTools);
    return list.value !== undefined && list.value.length === 0 ? noRestriction(field, "blank", list.issues) : list;
  }
  if (!Array.isArray(raw)) return stringList(field, raw, splitTools);
  const issues: FieldIssue[] = [];
  let items: unknown[] = raw;
  if (raw.some(isNullSpelling)) {
    const typedItems = typed();
    items = raw.filter(
      (item, i) => !isNullSpelling(item) || (Array.isArray(typedItems) ? typedItems[i] !== null : item !== ""),
    );
    const nulls = raw.length - items.length;
    if (nulls > 0)
      issues.push(
        issue(
          "ALLOWED_TOOLS_NULL",
          `${nulls === 1 ? "a null entry" : `${nulls} null entries`} of '${field}' dropped (as in Strands)`,
        ),
      );
  }
  const list = stringList(field, items, splitTools);
  issues.push(...list.issues);
  if (list.value !== undefined && list.value.length === 0)
    return noRestriction(field, raw.length > 0 ? "a list of nulls" : "an empty list", issues);
  return { value: list.value, issues };
}

function isNullSpelling(item: unknown): boolean {
  return typeof item === "string" && NULL_SPELLINGS.has(item);
}

function noRestriction(field: string, why: string, issues: FieldIssue[]): Converted<string[]> {
  const message = `'${field}' is ${why}: no tool restriction (as in Strands and Claude Code); remove it, or list the tools`;
  return { value: undefined, issues: [...issues, issue("ALLOWED_TOOLS_EMPTY", message)] };
}

/** Splits on commas (`paths: "src/**, test/**"`, `triggers: "a, b"`). */
export function splitCommas(s: string): string[] {
  return s.split(",");
}

/**
 * Splits `allowed-tools` on blanks and commas outside parentheses, so `Bash(git add:*) Read` is two
 * tools (Agent Skills writes them space-separated, Claude Code commands comma-separated).
 */
export function splitTools(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  // By UTF-16 unit: the separators are single units, so a cut never splits a surrogate pair.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x28 /* ( */) depth++;
    else if (c === 0x29 /* ) */) depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === 0x2c /* , */ || isWhiteSpace(c))) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

// What `/\s/` matches, with ASCII answered without a regular expression.
function isWhiteSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return /\s/.test(String.fromCharCode(c));
}

/** `metadata`: a map of strings. Other values are converted (lists and maps to JSON), with a warning. */
export function metadataField(raw: unknown): Converted<Record<string, string>> {
  if (raw === undefined || raw === "") return none();
  if (!isRecord(raw)) {
    return {
      value: undefined,
      issues: [issue("METADATA_NOT_MAPPING", "'metadata' should be a mapping of strings; ignored (kept in extra)")],
    };
  }
  const value: Record<string, string> = {};
  const converted: string[] = [];
  const keys = Object.keys(raw);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = raw[key];
    if (typeof v === "string") value[key] = v;
    else {
      value[key] = JSON.stringify(v);
      converted.push(key);
    }
  }
  const issues =
    converted.length === 0
      ? NO_ISSUES
      : [
          issue(
            "METADATA_NOT_STRING",
            `metadata values that are not strings were converted to JSON: ${converted.sort(compareCodePoints).join(", ")}`,
          ),
        ];
  return { value, issues };
}

/** A boolean written as `true`/`false` (also `yes`/`no`, `on`/`off`, any case). */
export function booleanField(field: string, raw: unknown): Converted<boolean> {
  if (raw === undefined || raw === "") return none();
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if (["true", "yes", "on"].includes(text)) return ok(true);
  if (["false", "no", "off"].includes(text)) return ok(false);
  return {
    value: undefined,
    issues: [issue("FIELD_INVALID", `'${field}' should be true or false; ignored (kept in extra)`)],
  };
}

/**
 * OpenHands task `inputs`: a list of `{ name, description?, required?, default? }` (a bare string is a
 * name). An empty `inputs:` is an empty list.
 */
export function inputsField(raw: unknown): Converted<SkillInput[]> {
  if (raw === undefined) return none();
  if (raw === "") return ok([]);
  if (!Array.isArray(raw)) {
    return {
      value: [],
      issues: [issue("FIELD_INVALID", "'inputs' should be a list of { name, description }; ignored")],
    };
  }
  const issues: FieldIssue[] = [];
  const value: SkillInput[] = [];
  raw.forEach((item, i) => {
    if (typeof item === "string" && item.trim() !== "") {
      value.push({ name: item.trim(), description: "" });
      return;
    }
    if (!isRecord(item) || typeof item.name !== "string" || item.name.trim() === "") {
      issues.push(issue("FIELD_INVALID", `input ${i + 1} has no name; ignored`));
      return;
    }
    const input: SkillInput = {
      name: item.name.trim(),
      description: typeof item.description === "string" ? item.description.trim() : "",
    };
    const required = booleanField("required", item.required);
    if (required.value !== undefined) input.required = required.value;
    if (typeof item.default === "string") input.default = item.default;
    else if (item.default !== undefined) input.default = JSON.stringify(item.default);
    issues.push(...required.issues);
    value.push(input);
  });
  return { value, issues };
}

/** True for a plain object (a YAML mapping read as written). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
