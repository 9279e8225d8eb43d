import * as path from "node:path";
import { diagnostic } from "./diagnostics.js";
import type { Diagnostic, Severity } from "./diagnostics.js";
import { errorCodeOf, SkillctxError } from "./errors.js";
import { readFrontmatter } from "./frontmatter.js";
import { MAX_CATALOG_DESCRIPTION_CODE_POINTS, MAX_FRONTMATTER_CHARS } from "./limits.js";
import type { Skill, SkillScope } from "./skill.js";
import { allowedToolsField, isRecord, metadataField, stringField } from "./skill-fields.js";
import type { Converted } from "./skill-fields.js";
import { codePoints, MAX_DESCRIPTION_LENGTH } from "./spec-rules.js";
import { deriveName, formatOf } from "./skill-naming.js";
import { setOwn } from "./yaml-values.js";
import { errorText } from "./error-text.js";
import { fitCodePoints } from "./text/cut-text.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";
import { onlyCommonKeys, readOtherFields } from "./skill-other-fields.js";
import { refuseUnreadable } from "./refuse-unreadable.js";
import { firstBodyLine } from "./first-body-line.js";
import { fitCompatibility, isSkillMdName, nameFindings } from "./load-time-spec-checks.js";

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
  const derivedName = name === undefined;
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

  // The name rules at load time, on a name a SKILL.md gives (a derived one already has NAME_MISSING; other
  // files read as skills, such as Copilot's prompt files, are not Agent Skills).
  if (format === "skill-md" && !derivedName && (file === undefined || isSkillMdName(path.basename(file)))) {
    const folder = options.dir ?? (file === undefined ? undefined : path.dirname(file));
    for (const f of nameFindings(name, folder === undefined ? undefined : path.basename(folder)))
      warn(f.key, f.code, f.message, f.severity);
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
  if (compatibility !== undefined) {
    const fitted = fitCompatibility(compatibility);
    if (fitted.finding !== undefined) warn(fitted.finding.key, fitted.finding.code, fitted.finding.message);
    init.compatibility = fitted.value;
  }

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
