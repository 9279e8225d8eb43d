import { diagnostic, parseFrontmatter, splitFrontmatter } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { splitGlobList } from "@skillctx/core/internal";

/** Which rule format a header belongs to. */
export type RuleFormat = "cursor-mdc" | "copilot-instructions" | "claude-rule" | "windsurf-rule";

/** What a rule's frontmatter says, read tolerantly. */
export interface RuleHeader {
  description: string | undefined;
  /** `globs` (Cursor) or `applyTo` (Copilot), as written, split on the commas outside braces and brackets. */
  globs: string[];
  /** Cursor `alwaysApply: true`. */
  alwaysApply: boolean;
  /** Windsurf `trigger` (`always_on`, `manual`, `model_decision`, `glob`), lower-cased; undefined when absent. */
  trigger?: string;
  /** The rule text: the body after the frontmatter, or the whole text when the frontmatter is broken. */
  body: string;
  /** Frontmatter keys that skillctx does not use, kept as written. */
  extra: Record<string, unknown>;
  /** True when the frontmatter could not be read (the rule is then loadable by name only). */
  broken: boolean;
  diagnostics: Diagnostic[];
}

const KNOWN: Record<RuleFormat, readonly string[]> = {
  "cursor-mdc": ["description", "globs", "alwaysApply"],
  "copilot-instructions": ["description", "applyTo"],
  "claude-rule": ["description", "paths"],
  "windsurf-rule": ["description", "globs", "trigger"],
};

// The field that holds a rule's globs, per format.
const GLOB_FIELD: Record<RuleFormat, string> = {
  "cursor-mdc": "globs",
  "copilot-instructions": "applyTo",
  "claude-rule": "paths",
  "windsurf-rule": "globs",
};

/**
 * Reads the frontmatter of a rule (Cursor `.mdc`, Copilot `.instructions.md`, Claude Code
 * `.claude/rules/*.md`, Windsurf `.windsurf/rules/*.md`) through core's `parseFrontmatter`.
 * Cursor documents its frontmatter as `key: value` lines rather than YAML (`globs: **\/*.ts` is
 * an alias in YAML), so when YAML fails and every line of the block is such a pair, the pairs are
 * used. Otherwise the YAML diagnostics are returned and `broken` is set.
 */
export function readRuleHeader(text: string, options: { path: string; format: RuleFormat }): RuleHeader {
  const parsed = parseFrontmatter(text, { path: options.path });
  const plain = plainPairs(text);
  const diagnostics: Diagnostic[] = [];
  let data = parsed.data;
  let body = parsed.body;
  let broken = false;
  if (data === undefined) {
    const hasErrors = parsed.diagnostics.some((d) => d.severity === "error");
    if (hasErrors && plain !== undefined) {
      data = plain.data;
      body = plain.body;
      diagnostics.push(...parsed.diagnostics.filter((d) => d.severity !== "error"));
    } else {
      diagnostics.push(...parsed.diagnostics);
      broken = parsed.diagnostics.length > 0;
      const first = parsed.diagnostics[0];
      if (broken) {
        diagnostics.push(
          diagnostic(
            "RULE_FRONTMATTER_INVALID",
            "warning",
            `the frontmatter of this rule cannot be read (${first?.code ?? "?"}); its whole text is kept as a rule loadable by name only`,
            { path: options.path, line: first?.line },
          ),
        );
      }
    }
  } else {
    diagnostics.push(...parsed.diagnostics);
    // YAML reads an unquoted `*.ts` as an alias; Cursor means the glob.
    if (plain !== undefined) {
      data = { ...data };
      for (const key of plain.aliasLike) data[key] = plain.data[key];
    }
  }

  const header: RuleHeader = {
    description: undefined,
    globs: [],
    alwaysApply: false,
    body,
    extra: {},
    broken,
    diagnostics,
  };
  if (data === undefined) return header;
  const invalid = (field: string, expected: string) =>
    diagnostics.push(
      diagnostic("RULE_FIELD_INVALID", "warning", `${field} should be ${expected}; ignored`, {
        path: options.path,
        line: keyLine(text, field),
      }),
    );

  const description = data["description"];
  if (typeof description === "string") header.description = description.trim() === "" ? undefined : description.trim();
  else if (description !== undefined && description !== null) invalid("description", "a string");

  const globField = GLOB_FIELD[options.format];
  const globs = splitGlobList(data[globField]);
  if (globs === undefined) invalid(globField, "a glob, a comma-separated list of globs, or a list");
  else header.globs = globs;

  if (options.format === "cursor-mdc") {
    const always = data["alwaysApply"];
    const value =
      typeof always === "boolean" ? String(always) : typeof always === "string" ? always.trim().toLowerCase() : always;
    if (value === "true") header.alwaysApply = true;
    else if (value !== "false" && value !== "" && value !== undefined && value !== null)
      invalid("alwaysApply", "true or false");
  }

  if (options.format === "windsurf-rule") {
    const trigger = data["trigger"];
    if (typeof trigger === "string" && trigger.trim() !== "") header.trigger = trigger.trim().toLowerCase();
    else if (trigger !== undefined && trigger !== null && trigger !== "")
      invalid("trigger", "always_on, manual, model_decision or glob");
  }

  for (const [key, value] of Object.entries(data)) if (!KNOWN[options.format].includes(key)) header.extra[key] = value;
  return header;
}

const PAIR = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?$/;

// Cursor's own reading: the block as `key: value` lines; a value may be quoted or a [a, b] list.
// `aliasLike` names the keys whose unquoted value starts with `*`, which YAML would read as an alias.
function plainPairs(text: string): { data: Record<string, unknown>; body: string; aliasLike: string[] } | undefined {
  const split = splitFrontmatter(text);
  if (split.frontmatter === undefined) return undefined;
  const data: Record<string, unknown> = {};
  const aliasLike: string[] = [];
  for (const line of split.frontmatter.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const pair = PAIR.exec(line);
    if (pair?.[1] === undefined || Object.hasOwn(data, pair[1])) return undefined;
    const value = (pair[2] ?? "").trim();
    const raw = value.startsWith('"') || value.startsWith("'") ? value : value.replace(/[ \t]+#.*$/, "");
    if (raw.startsWith("*")) aliasLike.push(pair[1]);
    data[pair[1]] = plainValue(raw);
  }
  return { data, body: split.body, aliasLike };
}

// A `[a, b]` list stays one comma-separated string: splitGlobList splits it, minding braces.
function plainValue(value: string): unknown {
  if (value.startsWith("[") && value.endsWith("]")) return value.slice(1, -1);
  return unquote(value);
}

// 1-based line of `key:` in the file, for diagnostics.
function keyLine(text: string, key: string): number | undefined {
  const lines = text.split("\n", 200);
  const index = lines.findIndex((line) => line.startsWith(`${key}:`) || line.startsWith(`${key} :`));
  return index < 0 ? undefined : index + 1;
}

function unquote(value: string): string {
  if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value[value.length - 1] === value[0])
    return value.slice(1, -1);
  return value;
}
