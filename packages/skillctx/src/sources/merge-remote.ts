import type { Diagnostic, Skill } from "@skillctx/core";

/**
 * Adds the skills of remote sources to the local ones. A remote skill never shadows a skill of
 * another origin silently: on a clash it is renamed `<origin>:<name>` with a diagnostic.
 * SCAFFOLD (owner: the MCP-consume helper): appends skills whose names are free, drops the rest with a diagnostic.
 */
export function mergeRemoteSkills(local: readonly Skill[], remote: readonly Skill[], diagnostics: Diagnostic[]): Skill[] {
  const taken = new Set(local.map((s) => s.name));
  const out = [...local];
  for (const skill of remote) {
    if (taken.has(skill.name)) {
      diagnostics.push({ code: "NAME_CLASH", severity: "warning", message: `remote skill "${skill.name}" from ${skill.source.origin ?? "?"} clashes with a local skill` });
      continue;
    }
    taken.add(skill.name);
    out.push(skill);
  }
  return out;
}
