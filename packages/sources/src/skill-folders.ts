import * as path from "node:path";
import { diagnostic } from "@skillctx/core";
import type { Diagnostic } from "@skillctx/core";
import { listSkillFiles, resolveInside, skipsSkillSearch, walk } from "@skillctx/core/internal";
import type { ResolvedSkill } from "./types.js";

/** Deepest folder below a source's root searched for skill folders (as discovery searches a skills folder). */
const SKILL_SEARCH_DEPTH = 4;

/**
 * The skill folders of a fetched source: `root` itself when it holds a SKILL.md, else every folder
 * below it (to depth 4) that holds one; a skill folder's own subfolders are not searched. Symlinks
 * are followed only inside `containRoot`. Each folder gets its `folderDigest` from the one lister
 * (`listSkillFiles`), the digest the lockfile records. Two folders with the same name: the first
 * in code-point order is kept, the other reported.
 */
export async function skillFoldersIn(
  root: string,
  containRoot: string,
  signal?: AbortSignal,
): Promise<{ skills: ResolvedSkill[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const dirs: string[] = [];
  const rootSkill = await resolveInside(root, "SKILL.md");
  if (rootSkill.ok && rootSkill.stats.isFile()) dirs.push(root);
  if (dirs.length === 0) {
    const walked = await walk(root, {
      containRoot,
      maxDepth: SKILL_SEARCH_DEPTH,
      signal,
      skip: (name) => skipsSkillSearch(name, "search"),
      report: (_relative, name) => name === "SKILL.md",
      visit: (entry) => {
        if (entry.type !== "file" || entry.name !== "SKILL.md") return;
        dirs.push(path.dirname(entry.path));
      },
    });
    // Folders below the search depth are not skill folders of this source: no note for them.
    diagnostics.push(...walked.diagnostics.filter((d) => d.code !== "WALK_TOO_DEEP"));
  }
  // A skill folder's own subfolders belong to it (nested SKILL.md files are its resources).
  const outer = dirs.filter((dir) => !dirs.some((other) => dir.startsWith(other + path.sep)));
  const skills: ResolvedSkill[] = [];
  const names = new Set<string>();
  for (const dir of outer) {
    const name = path.basename(dir);
    if (names.has(name)) {
      diagnostics.push(
        diagnostic(
          "NAME_CLASH",
          "warning",
          `skill folder ${dir} has the name of another folder of the same source; it is left out`,
          { path: dir },
        ),
      );
      continue;
    }
    const listing = await listSkillFiles(dir, { containRoot, signal });
    diagnostics.push(...listing.diagnostics);
    if (!listing.complete) {
      diagnostics.push(
        diagnostic(
          "SKILL_FILES_INCOMPLETE",
          "warning",
          `the digest of ${dir} does not cover every file (see the diagnostics before)`,
          { path: dir },
        ),
      );
    }
    names.add(name);
    skills.push({ name, dir, digest: listing.digest });
  }
  return { skills, diagnostics };
}
