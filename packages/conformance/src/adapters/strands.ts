/**
 * Strands Agents TypeScript (`@strands-agents/sdk`): `Skill.fromDirectory`, the public loader its
 * `AgentSkills` plugin applies to a parent folder of skills.
 * https://strandsagents.com/docs/user-guide/concepts/plugins/skills/ ; strands-agents/sdk-typescript
 * src/vended-plugins/skills/skill.ts
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Skill } from "@strands-agents/sdk/vended-plugins/skills";
import type { CatalogEntry, ConformanceAdapter } from "../adapter.js";
import { labelOf, PEER_RULES, PEER_SKILL_ROOTS } from "./peers.js";

/** Strands' skills loader. */
export function strandsAdapter(): ConformanceAdapter {
  return {
    name: labelOf("@strands-agents/sdk"),
    rules: PEER_RULES,
    async observe(run) {
      const catalog: CatalogEntry[] = [];
      for (const root of PEER_SKILL_ROOTS) {
        const dir = path.join(run.cwd, root);
        // AgentSkills skips a folder that does not exist; fromDirectory alone would throw.
        if (!existsSync(dir)) continue;
        for (const s of Skill.fromDirectory(dir)) catalog.push({ name: s.name, description: s.description });
      }
      return { skills: catalog };
    },
  };
}
