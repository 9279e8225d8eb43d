import * as path from "node:path";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { readTextFile } from "@skillctx/core/internal";
import { DEFAULT_MAX_GUIDANCE_BYTES } from "./limits.js";
import { readRuleHeader } from "./rule-header.js";

/** A Cline rule folder's files, sorted by what their frontmatter says. */
export interface ClineRuleFiles {
  /** Files read as always-on text (no `paths`), concatenated into the folder's one guidance skill. */
  always: string[];
  /** Relative paths of conditional rules (`paths:` frontmatter): one path rule each. */
  conditional: string[];
}

/**
 * Sorts the `.md` files of a Cline rule folder (`.clinerules/`, `.cline/rules/`, `~/.cline/rules/`) as
 * Cline does: a rule with `paths:` in its YAML frontmatter applies only when the request touches a
 * matching path (cline/cline src/core/context/instructions/user-instructions/rule-conditionals.ts,
 * test rule-loading.test.ts "filters rules by evaluationContext.paths"); `disabled: true` leaves the rule
 * out (one info `GUIDANCE_DISABLED`); a header Cline cannot read fails open, as an always-on rule.
 */
export async function sortClineRules(
  dir: string,
  files: readonly string[],
  options: { containRoot?: string | undefined; diagnostics?: Diagnostic[] | undefined },
): Promise<ClineRuleFiles> {
  const out: ClineRuleFiles = { always: [], conditional: [] };
  for (const rel of files) {
    const file = path.join(dir, ...rel.split("/"));
    const read = await readTextFile(file, { maxBytes: DEFAULT_MAX_GUIDANCE_BYTES, root: options.containRoot });
    // Unreadable or large: left to the read that builds the skill to report.
    const text = read.ok ? read.text : "";
    if (!text.startsWith("---")) {
      out.always.push(rel);
      continue;
    }
    const header = readRuleHeader(text, { path: file, format: "claude-rule" });
    if (header.broken) {
      out.always.push(rel);
      continue;
    }
    const disabled = header.extra["disabled"];
    if (disabled === true || disabled === "true") {
      options.diagnostics?.push(
        diagnostic("GUIDANCE_DISABLED", "info", `${rel} is not read: its frontmatter says disabled: true`, {
          path: file,
        }),
      );
      continue;
    }
    if (header.globs.length > 0) out.conditional.push(rel);
    else out.always.push(rel);
  }
  return out;
}
