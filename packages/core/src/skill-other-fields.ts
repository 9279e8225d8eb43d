/**
 * The frontmatter fields beyond the specification's common ones (`resources`, Claude Code's, `mcp_tools`,
 * the trigger fields, vendor and unknown keys), read for {@link parseSkill}'s result.
 */
import { compareCodePoints } from "./code-point-order.js";
import type { Severity } from "./diagnostics.js";
import { readClaudeCodeFields } from "./claude-code-fields.js";
import type { FrontmatterRead } from "./frontmatter.js";
import type { Skill } from "./skill.js";
import { booleanField, isRecord, splitCommas, stringList } from "./skill-fields.js";
import type { Converted } from "./skill-fields.js";
import { KNOWN_SKILL_MD_FIELDS, suggestField } from "./dialect-fields.js";
import { ALLOWED_FIELDS } from "./spec-rules.js";
import { resolveTrigger } from "./skill-trigger.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";

// Fields of the specification and of the dialects (Claude Code, OpenHands); the rest go to `extra`, with a warning.
const KNOWN = new Set(KNOWN_SKILL_MD_FIELDS);
// Unknown fields named in the UNKNOWN_FIELDS warning; the rest are counted.
const MAX_NAMED_UNKNOWN = 20;
// Dialect fields that carry nothing skillctx acts on: kept in `extra` without a warning. OpenHands'
// `agent` (the agent a microagent is for) is one of them in a legacy file; in a SKILL.md it is Claude
// Code's sub-agent type.
const KEPT_QUIET: readonly string[] = ["type", "version", "hooks", "shell", "disallowed-tools"];

/** What {@link readOtherFields} reads and reports through. */
export interface OtherFieldsContext {
  name: string;
  data: Record<string, unknown>;
  read: FrontmatterRead;
  format: "skill-md" | "legacy";
  vendor: readonly string[] | undefined;
  take: <T>(key: string, converted: Converted<T>) => T | undefined;
  warn: (key: string | undefined, code: DiagnosticCode, message: string, severity?: Severity) => void;
  keepExtra: (key: string) => void;
}

/**
 * The fields beyond the common ones, in the order they are reported: `resources`, Claude Code's,
 * `mcp_tools`, the trigger fields, vendor fields and unknown keys (kept in `extra`, with a warning).
 * Every block here does nothing for a key that is absent, so a frontmatter of common keys skips it.
 */
export function readOtherFields(keys: readonly string[], init: Skill, ctx: OtherFieldsContext): void {
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

/** True when every key is one {@link parseSkill} reads itself (the other readers have nothing to do). */
export function onlyCommonKeys(keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) if (!COMMON_KEYS.has(keys[i]!)) return false;
  return true;
}

/** `mcp_tools` with its YAML types (numbers, booleans): the `mcpServers` map inside it, or the map itself. */
function mcpServers(read: FrontmatterRead): Record<string, unknown> | undefined {
  const value = read.typedValue("mcp_tools");
  if (!isRecord(value)) return undefined;
  const inner = value.mcpServers;
  return isRecord(inner) ? inner : value;
}
