import type { Diagnostic } from "./diagnostics.js";

/**
 * The spec's errors that `skillctx list` loads the skill with, as a warning (docs/decisions.md, "lenient
 * validate is list's verdict"): a missing or non-conforming name (the loader names the skill after its
 * folder, or keeps the name as written), a missing, empty or long description (the first body line stands
 * in; the catalog cuts it), fields the specification does not list (kept as metadata), a `compatibility`
 * that is not a short string (kept, or dropped with a warning), and no or no mapping frontmatter. What list refuses or reports as an error (unclosed or oversized frontmatter,
 * unreadable YAML), and what list reads wrongly without a word (a misspelt field, a wrong type), stay errors.
 */
const LIST_LOADS_WITH_A_WARNING: ReadonlySet<string> = new Set([
  "NAME_MISSING",
  "NAME_EMPTY",
  "NAME_TOO_LONG",
  "NAME_NOT_LOWERCASE",
  "NAME_HYPHEN_EDGE",
  "NAME_CONSECUTIVE_HYPHENS",
  "NAME_INVALID_CHARS",
  "NAME_DIR_MISMATCH",
  "DESCRIPTION_MISSING",
  "DESCRIPTION_EMPTY",
  "DESCRIPTION_TOO_LONG",
  "UNEXPECTED_FIELDS",
  "COMPATIBILITY_NOT_STRING",
  "COMPATIBILITY_TOO_LONG",
  "FRONTMATTER_MISSING",
  "FRONTMATTER_NOT_MAPPING",
]);

/** What lenient validate adds to a YAML error the loader loads the skill with. */
const LOADED_WITH_ERRORS =
  "loaded with errors: skillctx list loads the skill named after its folder, reports this error and exits 1";

/** Without `strict`: an error of the spec that list loads the skill with becomes a warning that says so. */
export function asListReadsIt(d: Diagnostic): Diagnostic {
  // Broken YAML in a closed block (a duplicate key among it): list loads the skill, named after its
  // folder, and reports the same error; validate says so rather than "not a skill" (docs/decisions.md).
  if (d.severity === "error" && d.code === "YAML_INVALID")
    return { ...d, message: `${d.message} (${LOADED_WITH_ERRORS})` };
  if (d.severity !== "error" || !LIST_LOADS_WITH_A_WARNING.has(d.code)) return d;
  return { ...d, severity: "warning", message: `${d.message} (skillctx list loads the skill; --strict fails it)` };
}
