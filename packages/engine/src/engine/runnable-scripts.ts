import { statSync } from "node:fs";
import * as path from "node:path";
import { isSkillTrusted } from "@skillctx/core";
import type { Skill, Trust } from "@skillctx/core";
import { skillFolder } from "../tool-kit/skill-folder.js";

/**
 * The skills whose scripts `run_skill_script` could run: a folder with a `scripts/` folder in it, and a
 * trusted scope (an untrusted skill's scripts are refused). The skill tools offer `run_skill_script` only
 * when there is one, so the model is not offered a tool that cannot work (issue 37). One `stat` per
 * skill with a folder, at each load of the skill set.
 */
export function runnableScriptSkills(skills: readonly Skill[], trust: Trust | undefined): ReadonlySet<string> {
  const runnable = new Set<string>();
  for (const skill of skills) {
    const dir = skillFolder(skill);
    if (dir === undefined || !isSkillTrusted(skill, trust)) continue;
    try {
      if (statSync(path.join(dir, "scripts"), { throwIfNoEntry: false })?.isDirectory() === true)
        runnable.add(skill.name);
    } catch {
      // A folder that cannot be read has no scripts to run.
    }
  }
  return runnable;
}
