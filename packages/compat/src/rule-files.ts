import * as path from "node:path";
import { compareCodePoints, diagnostic } from "@skillctx/core";
import { walk } from "@skillctx/core/internal";
import { isOrdinaryFolder } from "./formats.js";
import type { ScanOptions } from "./candidate.js";

/** Deepest rule file below a rule folder (`.cursor/rules/a/b/.../x.mdc`), the rule folder being depth 0. */
const RULE_MAX_DEPTH = 8;

// Files ending in `suffix` (case-insensitive) below `dir`, relative with `/`, skipping dot-folders:
// core's one walker, contained in the project unless trusted. `onOther` hears of every other file.
export async function listRuleFiles(
  dir: string,
  suffix: string,
  options: ScanOptions,
  excluded: readonly string[] = [],
  onOther?: (relative: string) => void,
): Promise<string[]> {
  const out: string[] = [];
  const walked = await walk(dir, {
    maxDepth: RULE_MAX_DEPTH,
    containRoot: options.containRoot,
    report: (_relative, name) => name.toLowerCase().endsWith(suffix),
    visit: (entry) => {
      if (entry.type === "dir") {
        if (!isOrdinaryFolder(entry.name)) return false;
        if (!entry.relative.includes("/") && excluded.includes(entry.name.toLowerCase())) {
          // The owner keeps other things here (Cline's workflows, hooks, skills): not rules, said once.
          options.diagnostics?.push(
            diagnostic(
              "GUIDANCE_EXCLUDED",
              "info",
              `${path.basename(dir)}/${entry.name}/ is not read as rules: its owner keeps ${entry.name} there, not standing orders`,
              { path: path.join(dir, entry.relative) },
            ),
          );
          return false;
        }
        return true;
      }
      const name = entry.name;
      // A dangling or special entry named like a rule is still listed, so that loading reports it.
      if (name.toLowerCase().endsWith(suffix) && name.length > suffix.length) out.push(entry.relative);
      else onOther?.(entry.relative);
      return false;
    },
  });
  options.diagnostics?.push(...walked.diagnostics);
  return out.sort(compareCodePoints);
}
