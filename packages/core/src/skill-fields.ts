/**
 * Conversions of single frontmatter fields (values as written: strings, arrays, objects) into the
 * shapes of the Skill model. Each returns the value plus warnings; none throws.
 */
import { compareCodePoints } from "./code-point-order.js";
import type { SkillInput } from "./skill.js";

/** A problem with one field, turned into a diagnostic by the caller (who knows the line). */
export interface FieldIssue {
  code: string;
  message: string;
}

/** A converted value and what had to be tolerated to get it. */
export interface Converted<T> {
  value: T | undefined;
  issues: FieldIssue[];
}

const ok = <T>(value: T | undefined): Converted<T> => ({ value, issues: [] });
const none = (): Converted<never> => ({ value: undefined, issues: [] });
const issue = (code: string, message: string): FieldIssue => ({ code, message });

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
    return { value: undefined, issues: [issue("FIELD_INVALID", `'${field}' should be a list or a string; ignored (kept in extra)`)] };
  }
  const value = unique(items.map((s) => s.trim()).filter((s) => s !== ""));
  return { value, issues };
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
  let current = "";
  for (const c of s) {
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === "," || /\s/.test(c))) {
      out.push(current);
      current = "";
    } else current += c;
  }
  out.push(current);
  return out;
}

/** `metadata`: a map of strings. Other values are converted (lists and maps to JSON), with a warning. */
export function metadataField(raw: unknown): Converted<Record<string, string>> {
  if (raw === undefined || raw === "") return none();
  if (!isRecord(raw)) {
    return { value: undefined, issues: [issue("METADATA_NOT_MAPPING", "'metadata' should be a mapping of strings; ignored (kept in extra)")] };
  }
  const value: Record<string, string> = {};
  const converted: string[] = [];
  for (const [key, v] of Object.entries(raw)) {
    if (typeof v === "string") value[key] = v;
    else {
      value[key] = JSON.stringify(v);
      converted.push(key);
    }
  }
  const issues =
    converted.length === 0
      ? []
      : [issue("METADATA_NOT_STRING", `metadata values that are not strings were converted to JSON: ${converted.sort(compareCodePoints).join(", ")}`)];
  return { value, issues };
}

/** A boolean written as `true`/`false` (also `yes`/`no`, `on`/`off`, any case). */
export function booleanField(field: string, raw: unknown): Converted<boolean> {
  if (raw === undefined || raw === "") return none();
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if (["true", "yes", "on"].includes(text)) return ok(true);
  if (["false", "no", "off"].includes(text)) return ok(false);
  return { value: undefined, issues: [issue("FIELD_INVALID", `'${field}' should be true or false; ignored (kept in extra)`)] };
}

/**
 * OpenHands task `inputs`: a list of `{ name, description?, required?, default? }` (a bare string is a
 * name). An empty `inputs:` is an empty list.
 */
export function inputsField(raw: unknown): Converted<SkillInput[]> {
  if (raw === undefined) return none();
  if (raw === "") return ok([]);
  if (!Array.isArray(raw)) {
    return { value: [], issues: [issue("FIELD_INVALID", "'inputs' should be a list of { name, description }; ignored")] };
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
    const input: SkillInput = { name: item.name.trim(), description: typeof item.description === "string" ? item.description.trim() : "" };
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
