/**
 * The Agent Skills rules a loader checks while it loads (not only `validate`): a name that breaks the
 * name rules or differs from its folder, a `compatibility` over 500 characters. deepagents' loader does
 * the same (langchain-ai/deepagents libs/deepagents/deepagents/middleware/skills.py, `_parse_skill_metadata`:
 * it warns about the name and keeps it, and cuts `compatibility` to `MAX_SKILL_COMPATIBILITY_LENGTH` = 500).
 */
import type { Severity } from "./diagnostics.js";
import type { DiagnosticCode } from "./diagnostic-codes.js";
import { checkName, codePoints, MAX_COMPATIBILITY_LENGTH } from "./spec-rules.js";
import { headCodePoints } from "./text/cut-text.js";

/** One finding of a load-time check, and the key it is reported on. */
export interface LoadFinding {
  key: string;
  code: DiagnosticCode;
  severity: Severity;
  message: string;
}

/**
 * The name rules on a name as written (after the `:` repair). A broken rule is a warning (other agents
 * may refuse or rename the skill); a name that only differs from its folder is a note: skillctx, Claude
 * Code and deepagents all load it under its own name, and many published skills are laid out so.
 * @param folder the skill folder's name; undefined skips the folder check
 */
export function nameFindings(name: string, folder: string | undefined): LoadFinding[] {
  const found: LoadFinding[] = [];
  for (const f of checkName(name, folder)) {
    if (f.code === "NAME_EMPTY") continue;
    const mismatch = f.code === "NAME_DIR_MISMATCH";
    found.push({
      key: "name",
      code: f.code,
      severity: mismatch ? "info" : "warning",
      message: `${f.message}; loaded as '${name}'`,
    });
  }
  return found;
}

/** `compatibility` cut to the specification's 500 characters (code points), with a warning when it was longer. */
export function fitCompatibility(value: string): { value: string; finding?: LoadFinding } {
  if (value.length <= MAX_COMPATIBILITY_LENGTH) return { value };
  const length = codePoints(value);
  if (length <= MAX_COMPATIBILITY_LENGTH) return { value };
  return {
    value: headCodePoints(value, MAX_COMPATIBILITY_LENGTH),
    finding: {
      key: "compatibility",
      code: "COMPATIBILITY_TOO_LONG",
      severity: "warning",
      message: `compatibility is ${length.toLocaleString("en-US")} characters, over the Agent Skills limit of ${MAX_COMPATIBILITY_LENGTH}; cut to ${MAX_COMPATIBILITY_LENGTH}`,
    },
  };
}

/** A SKILL.md file name in any case (`SKILL.md`, `skill.md`, `Skill.MD`), as list reads them. */
export function isSkillMdName(base: string): boolean {
  return base.length === 8 && base.toLowerCase() === "skill.md";
}
