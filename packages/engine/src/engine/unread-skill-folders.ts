import * as path from "node:path";
import { compareCodePoints, diagnostic } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";

// One note per folder, and at most this many folders named; the rest are counted in the last note.
const MAX_FOLDERS_NAMED = 20;

/**
 * The SKILL.md files the guidance scan saw (the same git listing or walk) that no loaded skill accounts
 * for: not a loaded skill's file, not inside a loaded skill's folder (a resource), not already named by a
 * diagnostic (refused, shadowed, loose). Grouped by the folder that holds their skill folders
 * (`.foo/skills` for `.foo/skills/x/SKILL.md`): one info `SKILL_FOLDER_UNREAD` per folder, so a skill in
 * a place no supported agent reads is never missed silently. Paths are shown relative to `cwd`.
 */
export function unreadSkillFolders(
  skillFiles: readonly string[] | undefined,
  loaded: readonly Skill[],
  reported: readonly Diagnostic[],
  cwd: string,
): Diagnostic[] {
  if (skillFiles === undefined || skillFiles.length === 0) return [];
  const files = new Set<string>();
  const dirs: string[] = [];
  for (const skill of loaded) {
    if (skill.source.path !== undefined) files.add(path.resolve(skill.source.path));
    if (skill.dir !== undefined) dirs.push(path.resolve(skill.dir) + path.sep);
  }
  for (const d of reported) if (d.path !== undefined) files.add(path.resolve(d.path));
  const byFolder = new Map<string, string[]>();
  for (const file of skillFiles) {
    const absolute = path.resolve(file);
    if (files.has(absolute) || files.has(path.dirname(absolute))) continue;
    if (dirs.some((dir) => absolute.startsWith(dir))) continue;
    const folder = path.dirname(path.dirname(absolute));
    const list = byFolder.get(folder);
    if (list === undefined) byFolder.set(folder, [absolute]);
    else list.push(absolute);
  }
  const folders = [...byFolder.keys()].sort(compareCodePoints);
  const out: Diagnostic[] = [];
  const shown = (p: string) => path.relative(cwd, p).split(path.sep).join("/") || ".";
  for (const folder of folders.slice(0, MAX_FOLDERS_NAMED)) {
    const list = byFolder.get(folder)!.sort(compareCodePoints);
    const count = list.length === 1 ? "a SKILL.md" : `${list.length.toLocaleString("en-US")} SKILL.md files`;
    out.push(
      diagnostic(
        "SKILL_FOLDER_UNREAD",
        "info",
        `${count} under ${shown(folder)}/ not loaded: no skill source covers that folder, and no supported agent reads skills there (e.g. ${shown(list[0]!)}); move the skill folders to .agents/skills, or pass the folder as a skill source`,
        { path: folder },
      ),
    );
  }
  if (folders.length > MAX_FOLDERS_NAMED) {
    const rest = folders.length - MAX_FOLDERS_NAMED;
    out.push(
      diagnostic(
        "SKILL_FOLDER_UNREAD",
        "info",
        `SKILL.md files under ${rest.toLocaleString("en-US")} more folder${rest === 1 ? "" : "s"} not loaded either`,
      ),
    );
  }
  return out;
}
