import path from "node:path";
import type { Skill } from "@skillctx/core";
import { toPosixRelative } from "@skillctx/core/internal";

/**
 * Where a skill lives, relative to cwd when inside it (so the prompt does not depend on the machine).
 * A leaf module shared by the engine and the tools.
 */
export function skillLocation(skill: Pick<Skill, "dir" | "source">, cwd: string): string | undefined {
  const where = skill.dir ?? (skill.source.path === undefined ? undefined : path.dirname(skill.source.path));
  if (where === undefined) return undefined;
  const relative = toPosixRelative(cwd, where);
  return relative === undefined ? where : relative === "" ? "." : relative;
}
