import * as path from "node:path";
import { compareCodePoints } from "./code-point-order.js";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic, Severity } from "./diagnostics.js";
import { errorCodeOf, SkillctxError } from "./errors.js";
import { readFrontmatter } from "./frontmatter.js";
import { readClaudeCodeFields } from "./claude-code-fields.js";
import type { FrontmatterRead } from "./frontmatter.js";
import { MAX_CATALOG_DESCRIPTION_CODE_POINTS, MAX_FRONTMATTER_CHARS } from "./limits.js";
import type { Skill, SkillScope } from "./skill.js";
import {
  allowedToolsField,
  booleanField,
  isRecord,
  metadataField,
  splitCommas,
  stringField,
  stringList,
} from "./skill-fields.js";
import type { Converted } from "./skill-fields.js";
import { KNOWN_SKILL_MD_FIELDS, suggestField } from "./dialect-fields.js";
import { ALLOWED_FIELDS, codePoints, MAX_DESCRIPTION_LENGTH } from "./spec-rules.js";
import { resolveTrigger } from "./skill-trigger.js";
import { deriveName, formatOf } from "./skill-naming.js";
import { setOwn } from "./yaml-values.js";
import { errorText } from "./error-text.js";
import { fitCodePoints } from "./text/cut-text.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";

/** Options for {@link parseSkill} and {@link safeParseSkill}. */
export interface ParseSkillOptions {
  /** The file the text was read from: named in diagnostics, and the source of derived names. */
  path?: string;
  /**
   * `skill-md` (Agent Skills SKILL.md) or `legacy` (OpenHands skill / microagent .md).
   * @default from `path`: `SKILL.md` / `skill.md` → `skill-md`, any other file → `legacy`; no path → `skill-md`
   */
  format?: "skill-md" | "legacy";
  /** The scanned folder, against which legacy names are made (`root/a/b/c.md` → `a/b/c`). */
  root?: string;
  /** @default "programmatic" */
  scope?: SkillScope;
  /** The skill's root folder. @default the folder of `path` for SKILL.md, none for legacy files */
  dir?: string;
  /**
   * Longest frontmatter block read, in UTF-16 units; a longer one is `FRONTMATTER_TOO_LARGE` and the
   * file is not a skill.
   * @default MAX_FRONTMATTER_CHARS (262,144)
   */
  maxFrontmatterChars?: number;
  /**
   * Fields another tool defines for this kind of file (Copilot's `tools` and `mode` in a prompt file):
   * kept in `extra` without an `UNKNOWN_FIELDS` warning.
   */
  vendorFields?: readonly string[];
}

/** The result of {@link safeParseSkill}. */
export type SafeParseSkillResult =
  | { ok: true; skill: Skill; diagnostics: Diagnostic[] }
  | { ok: false; error: SkillctxError };

// Fields of the specification and of the dialects (Claude Code, OpenHands); the rest go to `extra`, with a warning.
const KNOWN = new Set(KNOWN_SKILL_MD_FIELDS);
// Unknown fields named in the UNKNOWN_FIELDS warning; the rest are counted.
const MAX_NAMED_UNKNOWN = 20;
// Dialect fields that carry nothing skillctx acts on: kept in `extra` without a warning. OpenHands'
// `agent` (the agent a microagent is for) is one of them in a legacy file; in a SKILL.md it is Claude
// Code's sub-agent type.
const KEPT_QUIET: readonly string[] = ["type", "version", "hooks", "shell", "disallowed-tools"];
/**
 * Parses a skill file: a SKILL.md (Agent Skills) or a legacy OpenHands `.md`. Tolerant: what it can
 * read it reads, the rest is warned about (see {@link safeParseSkill} for the diagnostics).
 *
 * A file whose metadata cannot be had is not a skill (its raw frontmatter would otherwise reach the
 * catalog, or every system prompt): a SKILL.md whose frontmatter never closes (`FRONTMATTER_UNCLOSED`),
 * a legacy file whose frontmatter is broken YAML (`YAML_INVALID`), and a frontmatter block longer than
 * `maxFrontmatterChars` (`FRONTMATTER_TOO_LARGE`). A SKILL.md with broken YAML in a closed block still
 * loads, named after its folder and described by its body (the block never reaches the catalog).
 * @throws SkillctxError with a `code` and a `line` when the file is not a skill (above), or when no name
 * can be had (`NAME_MISSING`).
 * @example parseSkill("---\nname: pdf\ndescription: Read PDFs\n---\n# PDF\n").trigger // { type: "on-demand" }
 */
export function parseSkill(text: string, options: ParseSkillOptions = {}): Skill {
  const result = safeParseSkill(text, options);
  if (!result.ok) throw result.error;
  return result.skill;
}

/**
 * {@link parseSkill} that never throws: `{ ok: true, skill, diagnostics }` or `{ ok: false, error }`.
 * Works on a head-only text (the frontmatter block without the body): the metadata is the same as for
 * the whole file and `content` is `""` — except the description stand-in, which needs the body.
 */
export function safeParseSkill(text: string, options: ParseSkillOptions = {}): SafeParseSkillResult {
  try {
    return buildSkill(String(text), options);
  } catch (error) {
    if (SkillctxError.isInstance(error)) return { ok: false, error };
    // No input is known to get here (the property tests say so); if one does, it is still a diagnostic.
    const message = errorText(error);
    return {
      ok: false,
      error: new SkillctxError("SKILL_INVALID", `cannot parse skill: ${message}`, {
        path: options.path,
        line: 1,
        cause: error,
      }),
    };
  }
}

function buildSkill(text: string, options: ParseSkillOptions): SafeParseSkillResult {
  const file = options.path;
  const format = options.format ?? formatOf(file);
  // A plain literal: an object spread here costs more than the rest of a simple skill's conversion.
  const read = readFrontmatter(text, {
    path: file,
    maxFrontmatterChars: options.maxFrontmatterChars ?? MAX_FRONTMATTER_CHARS,
    // Codex's repair of flow-like values is a SKILL.md rule; OpenHands refuses such a legacy file.
    repairFlowValues: format === "skill-md",
  });
  refuseUnreadable(read, format, file, options);
  const diagnostics = [...read.diagnostics];
  const data = read.data ?? {};
  const lineOfKey = read.keyLine;
  const warn = (key: string | undefined, code: DiagnosticCode, message: string, severity: Severity = "warning") =>
    diagnostics.push(
      diagnostic(code, severity, message, { path: file, line: key === undefined ? undefined : lineOfKey(key) }),
    );
  // Called for every field of every skill a scan reads: an indexed loop allocates nothing.
  const take = <T>(key: string, converted: Converted<T>): T | undefined => {
    const { issues } = converted;
    for (let i = 0; i < issues.length; i++) warn(key, issues[i]!.code, issues[i]!.message);
    return converted.value;
  };
  const extra: Record<string, unknown> = {};
  const keepExtra = (key: string) => setOwn(extra, key, data[key]);

  // Name: as written, else derived from the folder (SKILL.md) or the relative path (legacy).
  let name = take("name", stringField("name", data.name));
  if (name === undefined) {
    const derived = deriveName(format, file, options);
    if (derived === undefined) {
      const hidden = read.diagnostics.find((d) => d.severity === "error");
      throw new SkillctxError(
        errorCodeOf(hidden?.code, "NAME_MISSING"),
        hidden?.message ?? "skill has no name and none can be derived (no path given)",
        {
          path: file,
          line: hidden?.line ?? 1,
        },
      );
    }
    name = derived;
    // OpenHands names legacy skills by their path; only an Agent Skill is expected to name itself.
    if (format === "skill-md")
      warn(
        "name" in data ? "name" : undefined,
        "NAME_MISSING",
        `no name in frontmatter; using '${name}' from the ${format === "skill-md" ? "folder name" : "file path"}`,
      );
  }

  if (name.includes(":")) {
    // `:` separates an origin from a name in qualified names (`<origin>:<name>`); Gemini CLI sanitises it
    // to `-` (google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts, `loadSkillFromFile`).
    const written = name;
    name = name.replaceAll(":", "-");
    warn("name", "NAME_COLON", `name '${written}' has a ':', which separates an origin from a name; read as '${name}'`);
  }

  let description = take("description", stringField("description", data.description));
  if (description !== undefined && description.length > MAX_DESCRIPTION_LENGTH) {
    const length = codePoints(description);
    if (length > MAX_DESCRIPTION_LENGTH) {
      warn(
        "description",
        "DESCRIPTION_TOO_LONG",
        `description is ${length.toLocaleString("en-US")} characters, over the Agent Skills limit of ${MAX_DESCRIPTION_LENGTH.toLocaleString("en-US")}; the catalog shows it cut`,
      );
    }
  }
  if (description === undefined) {
    // Not from a frontmatter block that could not be read (the body then holds the whole text). A
    // stand-in is cut like a description in the catalog: it is not the author's, and lines can be long.
    const line = firstBodyLine(read.split.frontmatter === undefined ? read.body : read.split.body);
    description =
      line === undefined ? undefined : fitCodePoints(line, MAX_CATALOG_DESCRIPTION_CODE_POINTS, { trimEnd: true });
    // Legacy skills (OpenHands) have no description field; the first body line is their summary.
    if (format === "skill-md")
      warn(
        "description" in data ? "description" : undefined,
        "DESCRIPTION_MISSING",
        description === undefined ? "no description" : "no description; the first line of the body stands in for it",
      );
  }

  const init: Skill = {
    name,
    content: read.body,
    source: { kind: file === undefined ? "inline" : "file", format, scope: options.scope ?? "programmatic" },
    trigger: { type: format === "legacy" ? "always" : "on-demand" },
    metadata: {},
  };
  if (file !== undefined) init.source.path = file;
  const dir = options.dir ?? (format === "skill-md" && file !== undefined ? path.dirname(file) : undefined);
  if (dir !== undefined) init.dir = dir;
  if (description !== undefined) init.description = description;

  const license = take("license", stringField("license", data.license));
  if (license !== undefined) init.license = license;
  const compatibility = take("compatibility", stringField("compatibility", data.compatibility));
  if (compatibility !== undefined) init.compatibility = compatibility;

  const metadata = take("metadata", metadataField(data.metadata));
  if (metadata !== undefined) init.metadata = metadata;
  else if (data.metadata !== undefined && data.metadata !== "") keepExtra("metadata");

  // `allowed_tools` (Strands, OpenHands) is an alias; an empty list or string means no restriction.
  const toolsKey = Object.hasOwn(data, "allowed-tools")
    ? "allowed-tools"
    : Object.hasOwn(data, "allowed_tools")
      ? "allowed_tools"
      : undefined;
  if (toolsKey === "allowed-tools" && Object.hasOwn(data, "allowed_tools")) {
    warn("allowed_tools", "FIELD_CONFLICT", "'allowed_tools' ignored: 'allowed-tools' is given too (kept in extra)");
    keepExtra("allowed_tools");
  }
  if (toolsKey !== undefined) {
    const tools = take(
      toolsKey,
      allowedToolsField(toolsKey, data[toolsKey], () => read.typedValue(toolsKey)),
    );
    if (tools !== undefined) init.allowedTools = tools;
    else if (isRecord(data[toolsKey])) keepExtra(toolsKey);
  }

  // Most skills stop at the common fields; the other fields' readers have nothing to do then.
  const keys = Object.keys(data);
  if (!onlyCommonKeys(keys))
    readOtherFields(keys, init, { name, data, read, format, vendor: options.vendorFields, take, warn, keepExtra });
  if (Object.keys(extra).length > 0) init.extra = extra;

  // Built to fit SkillSchema by construction (tests parse every result with the schema); skipping the
  // runtime check keeps metadata scans of thousands of skills cheap.
  return { ok: true, skill: init, diagnostics };
}

/**
 * The fields beyond the common ones, in the order they are reported: `resources`, Claude Code's,
 * `mcp_tools`, the trigger fields, vendor fields and unknown keys (kept in `extra`, with a warning).
 * Every block here does nothing for a key that is absent, so a frontmatter of common keys skips it.
 */
function readOtherFields(
  keys: readonly string[],
  init: Skill,
  ctx: {
    name: string;
    data: Record<string, unknown>;
    read: FrontmatterRead;
    format: "skill-md" | "legacy";
    vendor: readonly string[] | undefined;
    take: <T>(key: string, converted: Converted<T>) => T | undefined;
    warn: (key: string | undefined, code: DiagnosticCode, message: string, severity?: Severity) => void;
    keepExtra: (key: string) => void;
  },
): void {
  const { name, data, read, format, vendor, take, warn, keepExtra } = ctx;
  const resources = take("resources", stringList("resources", data.resources, splitCommas));
  if (resources !== undefined) init.resources = resources;
  else if (data.resources !== undefined) keepExtra("resources");

  const disable = take(
    "disable-model-invocation",
    booleanField("disable-model-invocation", data["disable-model-invocation"]),
  );
  if (disable !== undefined) init.disableModelInvocation = disable;
  else if (data["disable-model-invocation"] !== undefined && data["disable-model-invocation"] !== "")
    keepExtra("disable-model-invocation");

  readClaudeCodeFields(data, init, { format, take, keepExtra });

  if (data.mcp_tools !== undefined && data.mcp_tools !== "") {
    const servers = mcpServers(read);
    if (servers !== undefined) init.mcpServers = servers;
    else {
      warn(
        "mcp_tools",
        "FIELD_INVALID",
        "'mcp_tools' should be a mapping (of servers, or with an mcpServers mapping); ignored (kept in extra)",
      );
      keepExtra("mcp_tools");
    }
  }

  const trigger = resolveTrigger({ name, format, data, take, warn });
  init.trigger = trigger.trigger;
  if (trigger.inputs !== undefined) init.inputs = trigger.inputs;

  const unknown: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (!KNOWN.has(key) && !vendor?.includes(key)) unknown.push(key);
  }
  if (vendor !== undefined) for (const key of vendor) if (Object.hasOwn(data, key) && !KNOWN.has(key)) keepExtra(key);
  for (let i = 0; i < unknown.length; i++) keepExtra(unknown[i]!);
  for (let i = 0; i < KEPT_QUIET.length; i++) if (Object.hasOwn(data, KEPT_QUIET[i]!)) keepExtra(KEPT_QUIET[i]!);
  if (unknown.length > 0) {
    const sorted = [...unknown].sort(compareCodePoints);
    let misspelt = false;
    const named = sorted
      .slice(0, MAX_NAMED_UNKNOWN)
      .map((key) => {
        const near = suggestField(key);
        if (near !== undefined) misspelt = true;
        return near === undefined ? key : `${key} (did you mean ${near}?)`;
      })
      .join(", ");
    const more =
      sorted.length > MAX_NAMED_UNKNOWN
        ? ` and ${(sorted.length - MAX_NAMED_UNKNOWN).toLocaleString("en-US")} more`
        : "";
    // Reported on the line of the first of them in the file.
    let first = unknown[0]!;
    let firstLine = read.keyLine(first) ?? Infinity;
    for (const key of unknown) {
      const line = read.keyLine(key) ?? Infinity;
      if (line < firstLine) [first, firstLine] = [key, line];
    }
    // Fields of other tools (`category`, `tags`) are normal and only worth a note; a likely misspelling
    // of a field skillctx reads (`desciption`) changes what the skill does, so it is a warning.
    const severity = misspelt ? "warning" : "info";
    warn(first, "UNKNOWN_FIELDS", `fields skillctx does not use, kept in extra: ${named}${more}`, severity);
  }
}

// What buildSkill reads itself: the specification's fields, which are all that most skills set, and the
// `allowed_tools` alias.
const COMMON_KEYS = new Set([...ALLOWED_FIELDS, "allowed_tools"]);

function onlyCommonKeys(keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) if (!COMMON_KEYS.has(keys[i]!)) return false;
  return true;
}

/**
 * Refuses a file whose metadata cannot be had (see {@link parseSkill}): its raw frontmatter would
 * otherwise become the catalog entry or an always-on prompt.
 */
function refuseUnreadable(
  read: FrontmatterRead,
  format: "skill-md" | "legacy",
  file: string | undefined,
  options: ParseSkillOptions,
): void {
  const { split } = read;
  if (split.tooLarge === true) {
    const max = (options.maxFrontmatterChars ?? MAX_FRONTMATTER_CHARS).toLocaleString("en-US");
    throw new SkillctxError("FRONTMATTER_TOO_LARGE", `frontmatter is longer than ${max} characters; not a skill`, {
      path: file,
      line: split.fenceLine ?? 1,
    });
  }
  if (format === "skill-md" && split.unclosed === true) {
    throw new SkillctxError(
      "FRONTMATTER_UNCLOSED",
      "SKILL.md frontmatter opened with --- is never closed; not a skill",
      { path: file, line: split.fenceLine ?? 1 },
    );
  }
  if (format !== "legacy") return;
  // A loop, not filter(): this runs for every file of every scan.
  let first: Diagnostic | undefined;
  let count = 0;
  for (const d of read.diagnostics) {
    if (d.severity !== "error") continue;
    first ??= d;
    count++;
  }
  if (first === undefined) return;
  const more = count > 1 ? ` (and ${count - 1} more)` : "";
  throw new SkillctxError(errorCodeOf(first.code, "SKILL_INVALID"), `${first.message}${more}; not a skill`, {
    path: file,
    line: first.line ?? 1,
  });
}

/** The first line of the body (within its first 200 lines) that is not blank, a heading or a rule. */
function firstBodyLine(body: string): string | undefined {
  let start = 0;
  for (let n = 0; n < 200 && start <= body.length; n++) {
    const nl = body.indexOf("\n", start);
    const end = nl === -1 ? body.length : nl;
    const line = body.slice(start, end).trim();
    if (!(line === "" || line.startsWith("#") || /^(-{3,}|\*{3,}|_{3,}|={3,})$/.test(line))) return line;
    if (nl === -1) break;
    start = nl + 1;
  }
  return undefined;
}

/** `mcp_tools` with its YAML types (numbers, booleans): the `mcpServers` map inside it, or the map itself. */
function mcpServers(read: FrontmatterRead): Record<string, unknown> | undefined {
  const value = read.typedValue("mcp_tools");
  if (!isRecord(value)) return undefined;
  const inner = value.mcpServers;
  return isRecord(inner) ? inner : value;
}
