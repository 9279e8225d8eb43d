import * as path from "node:path";
import { diagnostic } from "@skillctx/core";
import type { Candidate, Placement, ScanOptions } from "./candidate.js";
import { groupByLower, listEntries, subfolder } from "./folder-entries.js";
import type { Entry } from "./folder-entries.js";
import { MD_SUFFIX } from "./formats.js";
import { listRuleFiles } from "./rule-files.js";

/**
 * Roo Code's workspace rules: `.roo/rules/**\/*.md` as one always-on skill (`roo-rules`), in code-point
 * order as Roo appends them; `.roorules` stands in only when that folder holds none (the caller skips it
 * then). Mode rules (`.roo/rules-<mode>/`, `.roorules-<mode>`) apply only in that Roo mode, which skillctx
 * does not know: left out, one info `GUIDANCE_EXCLUDED` each (docs/decisions.md, "Roo Code modes").
 */
export async function rooCandidates(
  dir: string,
  entries: readonly Entry[],
  byLower: Map<string, Entry[]>,
  folder: string,
  place: Placement,
  options: ScanOptions,
): Promise<Candidate[]> {
  for (const entry of entries) {
    if (entry.isFile && entry.name.startsWith(".roorules-")) excludedMode(path.join(dir, entry.name), options);
  }
  const roo = await subfolder(dir, byLower, ".roo");
  if (roo === undefined) return [];
  const rooEntries = await listEntries(roo);
  for (const entry of rooEntries) {
    if (entry.isDir && entry.name.startsWith("rules-")) excludedMode(path.join(roo, entry.name), options);
  }
  const rules = await subfolder(roo, groupByLower(rooEntries), "rules");
  if (rules === undefined) return [];
  const others: string[] = [];
  const files = await listRuleFiles(rules, MD_SUFFIX, options, [], (relative) => {
    if (!isRooCacheFile(relative)) others.push(relative);
  });
  if (others.length > 0) otherFilesNote(rules, others, options);
  if (files.length === 0) return [];
  return [
    {
      type: "clinerules-dir",
      dir: rules,
      files: files.map((f) => path.join(rules, ...f.split("/"))),
      folder,
      place,
      kind: "roo-rules",
    },
  ];
}

function excludedMode(file: string, options: ScanOptions): void {
  options.diagnostics?.push(
    diagnostic(
      "GUIDANCE_EXCLUDED",
      "info",
      `${path.basename(file)} is not read: Roo Code applies it only in one of its modes, which skillctx does not know`,
      { path: file },
    ),
  );
}

// Roo Code leaves these out of its rules itself (custom-instructions.ts, `shouldIncludeRuleFile`).
const ROO_CACHE =
  /(?:\.DS_Store|\.bak|\.cache|\.crdownload|\.db|\.dmp|\.dump|\.eslintcache|\.lock|\.log|\.old|\.part|\.partial|\.pyc|\.pyo|\.stackdump|\.swo|\.swp|\.temp|\.tmp)$|(?:^|\/)Thumbs\.db$/;

function isRooCacheFile(relative: string): boolean {
  return ROO_CACHE.test(relative);
}

/**
 * Roo Code reads every text file of `.roo/rules` (RooCodeInc/Roo-Code src/core/prompts/sections/
 * custom-instructions.ts, `readTextFilesFromDirectory`); skillctx reads its `.md` files only, and says
 * which others it left out, in one note.
 */
function otherFilesNote(rules: string, others: readonly string[], options: ScanOptions): void {
  const named = others.slice(0, 5).join(", ");
  const more = others.length > 5 ? ` and ${others.length - 5} more` : "";
  options.diagnostics?.push(
    diagnostic(
      "GUIDANCE_EXCLUDED",
      "info",
      `${others.length === 1 ? "a file" : `${others.length} files`} in .roo/rules not read (${named}${more}): skillctx reads Roo Code's .md rules only, Roo Code reads every text file there`,
      { path: rules },
    ),
  );
}
