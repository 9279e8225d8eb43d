import type { Diagnostic } from "./diagnostics.js";
import { errorCodeOf, SkillctxError } from "./errors.js";
import type { FrontmatterRead } from "./frontmatter.js";
import { MAX_FRONTMATTER_CHARS } from "./limits.js";

/**
 * Refuses a file whose metadata cannot be had (see {@link parseSkill}): its raw frontmatter would
 * otherwise become the catalog entry or an always-on prompt.
 */
export function refuseUnreadable(
  read: FrontmatterRead,
  format: "skill-md" | "legacy",
  file: string | undefined,
  options: { maxFrontmatterChars?: number },
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
