/**
 * The one rule for a name two skills share when one is remote, wherever the clash is found: local
 * skills (project, user, nested, programmatic) keep their names, and the remote skill is listed as
 * `<origin>:<name>`, always with a `NAME_CLASH` diagnostic that names both. SEP-2640 has names resolve
 * within a per-origin namespace keyed by the host-assigned label, and forbids one origin silently
 * shadowing another's skill (packages/sources/src/skills-protocol/, docs/skills-consume.md).
 * `mergeRemoteSkills` applies it when a skill set is loaded; {@link yieldToLocal} applies it when a
 * nested local skill appears later (revealed by a tool call, or restored on resume).
 */
import { diagnostic } from "@skillctx/core";
import type { Diagnostic, Skill } from "@skillctx/core";

/** Who holds a name now, and whether a (qualified) name is free. */
export interface NameHolders {
  get(name: string): Skill | undefined;
}

/**
 * Settles the clash of a nested local skill `local` with the skill `holder` that has its name. A remote
 * holder yields: it is renamed `<origin>:<name>` (on the object, as mergeRemoteSkills does) and the
 * local skill takes the name. Returns whether `local` may take the name; false when the holder is local
 * too (the first one keeps it) or the qualified name is taken. Each outcome is a `NAME_CLASH` diagnostic.
 */
export function yieldToLocal(
  local: Skill,
  holder: Skill,
  where: string,
  holders: NameHolders,
  diagnostics: Diagnostic[],
): boolean {
  const name = local.name;
  const options = { path: local.source.path };
  if (holder.source.scope === "remote") {
    const origin = holder.source.origin ?? "remote";
    const qualified = `${origin}:${name}`;
    if (holders.get(qualified) === undefined) {
      holder.name = qualified;
      diagnostics.push(
        diagnostic(
          "NAME_CLASH",
          "warning",
          `remote skill "${name}" from "${origin}" is listed as "${qualified}" from now on: the nested skill "${name}" in ${where} has the same name, and local skills keep their names`,
          options,
        ),
      );
      return true;
    }
  }
  diagnostics.push(
    diagnostic(
      "NAME_CLASH",
      "warning",
      `nested skill "${name}" in ${where} is left out: the skill "${holder.name}" at ${holder.source.path ?? "(programmatic)"} already has that name`,
      options,
    ),
  );
  return false;
}
