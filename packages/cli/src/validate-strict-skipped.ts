import { stat } from "node:fs/promises";
import * as path from "node:path";
import type { Diagnostic } from "@skillctx/core";

/**
 * Under `--strict`, a PATH that holds no skill gets the reference validator's error, word for word
 * (agentskills/agentskills skills-ref/src/skills_ref/validator.py, `validate`): "Path does not exist: P",
 * "Not a directory: P" for a file that is not a SKILL.md, "Missing required file: SKILL.md" for a folder
 * without one. Other reasons (a symlink out of the project, a loop) are skillctx's own and stay as they are.
 */
export async function asReferenceSkipped(d: Diagnostic, given: string, cwd: string): Promise<Diagnostic> {
  if (d.code === "PATH_NOT_FOUND") return { ...d, message: `Path does not exist: ${given}` };
  if (d.code !== "MISSING_SKILL_MD" && d.code !== "UNSUPPORTED_SOURCE") return d;
  const info = await stat(path.resolve(cwd, given)).catch(() => undefined);
  if (info !== undefined && !info.isDirectory())
    return { ...d, code: "NOT_A_DIRECTORY", message: `Not a directory: ${given}` };
  return { ...d, code: "MISSING_SKILL_MD", message: "Missing required file: SKILL.md" };
}
