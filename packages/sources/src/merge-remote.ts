import { diagnostic } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";
import * as path from "node:path";

/**
 * Adds the skills of remote sources to the local ones; no remote skill ever shadows another origin's
 * skill silently (SEP-2640: names resolve within a per-origin namespace, keyed by the host-assigned label).
 *
 * - Two skills of one origin with the same name are both qualified by their distinguishing folder
 *   segments: `team:billing/refunds` and `team:support/refunds` (a skill at the top of the source is `team:refunds`).
 * - A remote skill whose name a local skill or another origin's skill also has is qualified
 *   `<origin>:<name>`; local skills keep their names, and every origin that shares the name is qualified,
 *   so the result does not depend on the order of the sources.
 * - Each rename is a `NAME_CLASH` warning; a qualified name that is still taken is dropped with a
 *   `NAME_CLASH` error, never silently.
 *
 * Renaming assigns `name` on the scanned object (a copy would read its lazy body).
 */
export function mergeRemoteSkills(
  local: readonly Skill[],
  remote: readonly Skill[],
  diagnostics: Diagnostic[],
): Skill[] {
  if (remote.length === 0) return [...local];
  const byOrigin = new Map<string, Skill[]>();
  for (const skill of remote) {
    const origin = skill.source.origin ?? "remote";
    const list = byOrigin.get(origin) ?? [];
    list.push(skill);
    byOrigin.set(origin, list);
  }
  const qualified = new Set<Skill>();
  for (const [origin, skills] of byOrigin) qualifyWithinOrigin(origin, skills, qualified, diagnostics);

  // Who holds each (possibly already qualified) name: "" is the local origin.
  const holders = new Map<string, Set<string>>();
  const hold = (name: string, origin: string) =>
    (holders.get(name) ?? holders.set(name, new Set()).get(name)!).add(origin);
  for (const skill of local) hold(skill.name, "");
  for (const skill of remote) hold(skill.name, skill.source.origin ?? "remote");

  const taken = new Map<string, Skill>(local.map((skill) => [skill.name, skill]));
  const out = [...local];
  const renamed: Skill[] = [];
  for (const skill of remote) {
    const origin = skill.source.origin ?? "remote";
    const shared = holders.get(skill.name)!;
    if (!qualified.has(skill) && shared.size > 1) {
      const others = [...shared]
        .filter((o) => o !== origin)
        .map((o) => (o === "" ? "a local skill" : `a skill from "${o}"`));
      const name = skill.name;
      skill.name = `${origin}:${name}`;
      diagnostics.push(
        diagnostic(
          "NAME_CLASH",
          "warning",
          `remote skill "${name}" from "${origin}" is listed as "${skill.name}": ${others.join(" and ")} has the same name`,
          {
            path: skill.source.path,
          },
        ),
      );
    }
    renamed.push(skill);
  }
  for (const skill of renamed) {
    const first = taken.get(skill.name);
    if (first !== undefined) {
      diagnostics.push(
        diagnostic(
          "NAME_CLASH",
          "error",
          `remote skill "${skill.name}" from "${skill.source.origin ?? "remote"}" is left out: ${first.source.path ?? "a programmatic skill"} already has that name`,
          {
            path: skill.source.path,
          },
        ),
      );
      continue;
    }
    taken.set(skill.name, skill);
    out.push(skill);
  }
  return out;
}

// Same-named skills of one origin: `<origin>:<segments>/<name>`, with as few folder segments (nearest
// first) as make them distinct. A cache's digest folder (`sha256-<hex>`) and what is above it do not count.
function qualifyWithinOrigin(
  origin: string,
  skills: readonly Skill[],
  qualified: Set<Skill>,
  diagnostics: Diagnostic[],
): void {
  const groups = new Map<string, Skill[]>();
  for (const skill of skills) groups.set(skill.name, [...(groups.get(skill.name) ?? []), skill]);
  for (const [name, group] of groups) {
    if (group.length < 2) continue;
    const prefixes = group.map(prefixSegments);
    const depth = Math.max(...prefixes.map((p) => p.length));
    let k = 0;
    const label = (i: number) => prefixes[i]!.slice(Math.max(0, prefixes[i]!.length - k)).join("/");
    while (k < depth && new Set(group.map((_, i) => label(i))).size < group.length) k++;
    group.forEach((skill, i) => {
      const segments = label(i);
      skill.name = `${origin}:${segments === "" ? "" : `${segments}/`}${name}`;
      qualified.add(skill);
      diagnostics.push(
        diagnostic(
          "NAME_CLASH",
          "warning",
          `"${origin}" serves ${group.length} skills named "${name}"; this one is listed as "${skill.name}"`,
          { path: skill.source.path },
        ),
      );
    });
  }
}

/** The folders between the source's root (or a cache digest folder) and the skill's own folder. */
function prefixSegments(skill: Skill): string[] {
  const file = skill.source.path;
  if (file === undefined) return [];
  const parts = path.dirname(path.dirname(file)).split(path.sep);
  const digest = parts.findLastIndex((part) => /^sha256-[0-9a-f]{64}$/.test(part));
  return digest === -1 ? parts.filter((p) => p !== "") : parts.slice(digest + 1);
}
