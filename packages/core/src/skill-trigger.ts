import type { SkillInput, Trigger } from "./skill.js";
import { inputsField, isRecord, splitCommas, stringList } from "./skill-fields.js";
import type { Converted } from "./skill-fields.js";
import { splitGlobs } from "./glob/split-glob-list.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";

/** What {@link resolveTrigger} needs from the skill parser. */
export interface TriggerContext {
  name: string;
  format: "skill-md" | "legacy";
  /** The frontmatter, values as written. */
  data: Record<string, unknown>;
  /** Unwraps a converted value, reporting its issues against `key`. */
  take: <T>(key: string, converted: Converted<T>) => T | undefined;
  /** Reports a warning against `key`. */
  warn: (key: string | undefined, code: DiagnosticCode, message: string) => void;
}

/**
 * How a skill enters the context, from its frontmatter:
 * - OpenHands `trigger: { type: keyword | task | path | always | on-demand, ... }` when given;
 * - else `paths` (list or comma-separated) → `path`: as in OpenHands, `paths` wins over `triggers` and
 *   `inputs`, which are then ignored with a `TRIGGER_CONFLICT` warning;
 * - else an `inputs` key (even empty) → `task`, whose keywords are `triggers` plus `/<name>`;
 * - else `triggers` → `keyword`;
 * - else `always` for legacy files and `on-demand` for SKILL.md.
 */
export function resolveTrigger(ctx: TriggerContext): { trigger: Trigger; inputs?: SkillInput[] } {
  const { data, take, warn, name } = ctx;
  const fallback: Trigger = { type: ctx.format === "legacy" ? "always" : "on-demand" };
  const slash = `/${name}`;

  const explicit = data.trigger;
  if (isRecord(explicit)) {
    const type = typeof explicit.type === "string" ? explicit.type.trim() : "";
    const keywords =
      take("trigger", stringList("trigger.keywords", explicit.keywords ?? explicit.triggers, splitCommas)) ?? [];
    switch (type) {
      case "keyword":
        if (keywords.length > 0) return { trigger: { type: "keyword", keywords } };
        warn("trigger", "FIELD_INVALID", "keyword trigger without keywords; ignored");
        return { trigger: fallback };
      case "task": {
        const inputs = take("trigger", inputsField(explicit.inputs ?? data.inputs ?? "")) ?? [];
        return { trigger: { type: "task", keywords: withSlash(keywords, slash), inputs }, inputs };
      }
      case "path": {
        const globs = take("trigger", stringList("trigger.globs", explicit.globs ?? explicit.paths, splitGlobs)) ?? [];
        if (globs.length > 0) return { trigger: { type: "path", globs } };
        warn("trigger", "FIELD_INVALID", "path trigger without globs; ignored");
        return { trigger: fallback };
      }
      case "always":
      case "on-demand":
        return { trigger: { type } };
      default:
        warn("trigger", "FIELD_INVALID", `unknown trigger type '${type}'; ignored`);
    }
  } else if (explicit !== undefined && explicit !== "" && explicit !== "null" && explicit !== "~") {
    warn("trigger", "FIELD_INVALID", "'trigger' should be a mapping with a type; ignored");
  }

  const triggers = take("triggers", stringList("triggers", data.triggers, splitCommas));
  const paths = take("paths", stringList("paths", data.paths, splitGlobs));
  if (triggers !== undefined && triggers.length === 0 && data.triggers !== "") {
    warn("triggers", "FIELD_INVALID", "'triggers' is empty; no keyword trigger");
  }
  if (paths !== undefined && paths.length > 0) {
    const lost = [
      ...(triggers !== undefined && triggers.length > 0 ? ["triggers"] : []),
      ...(Object.hasOwn(data, "inputs") ? ["inputs"] : []),
    ];
    if (lost.length > 0) {
      const names = lost.map((k) => `'${k}'`).join(" and ");
      warn(
        lost[0],
        "TRIGGER_CONFLICT",
        `${names} ignored: 'paths' makes this a path skill (one trigger per skill; paths win, as in OpenHands)`,
      );
    }
    return { trigger: { type: "path", globs: paths } };
  }
  if (Object.hasOwn(data, "inputs")) {
    const inputs = take("inputs", inputsField(data.inputs)) ?? [];
    return { trigger: { type: "task", keywords: withSlash(triggers ?? [], slash), inputs }, inputs };
  }
  if (triggers !== undefined && triggers.length > 0) return { trigger: { type: "keyword", keywords: triggers } };
  return { trigger: fallback };
}

function withSlash(keywords: string[], slash: string): string[] {
  return keywords.includes(slash) ? keywords : [...keywords, slash];
}
