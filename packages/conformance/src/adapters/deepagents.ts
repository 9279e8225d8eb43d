/**
 * Deep Agents JS (`deepagents`): `listSkills`, its public loader of a skills folder (the one its skills
 * middleware and CLI use: a project folder and a user folder, the project's winning). One call per
 * folder, in order, a later folder's skill replacing an earlier one of the same name, as its middleware's
 * sources do. https://docs.langchain.com/oss/javascript/deepagents/skills ; langchain-ai/deepagentsjs
 * libs/deepagents/src/skills/loader.ts
 */
import path from "node:path";
import { listSkills } from "deepagents";
import type { CatalogEntry, ConformanceAdapter } from "../adapter.js";
import { labelOf, PEER_RULES, PEER_SKILL_ROOTS } from "./peers.js";

/** Deep Agents' skills loader. */
export function deepagentsAdapter(): ConformanceAdapter {
  return {
    name: labelOf("deepagents"),
    rules: PEER_RULES,
    async observe(run) {
      const catalog = new Map<string, CatalogEntry>();
      for (const root of PEER_SKILL_ROOTS) {
        for (const s of listSkills({ projectSkillsDir: path.join(run.cwd, root), userSkillsDir: null }))
          catalog.set(s.name, { name: s.name, description: s.description });
      }
      return { skills: [...catalog.values()] };
    },
  };
}
