/**
 * OpenAI Agents SDK (`@openai/agents-core`): the sandbox `skills` capability with a lazy local source
 * (`localDirLazySkillSource`), its public loader of a folder of skills. The catalog is the source's index
 * (`getIndex`), the prompt text what the capability's `instructions()` returns.
 * https://openai.github.io/openai-agents-js/ ; openai/openai-agents-js packages/agents-core/src/sandbox/localSkills.ts
 */
import path from "node:path";
import { Manifest, skills } from "@openai/agents-core/sandbox";
import { localDirLazySkillSource } from "@openai/agents-core/sandbox/local";
import type { CatalogEntry, ConformanceAdapter } from "../adapter.js";
import { labelOf, PEER_RULES, PEER_SKILL_ROOTS } from "./peers.js";

/** The OpenAI Agents SDK's skills capability. */
export function openaiAgentsAdapter(): ConformanceAdapter {
  return {
    name: labelOf("@openai/agents-core"),
    rules: PEER_RULES,
    async observe(run) {
      const manifest = new Manifest({});
      const catalog: CatalogEntry[] = [];
      const prompt: string[] = [];
      for (const root of PEER_SKILL_ROOTS) {
        const src = path.relative(run.repo, path.join(run.cwd, root)) || ".";
        const source = localDirLazySkillSource({ src, baseDir: run.repo });
        const index = source.getIndex?.(manifest, "skills") ?? [];
        catalog.push(...index.map((s) => ({ name: s.name, description: s.description })));
        const text = await skills({ lazyFrom: source }).instructions(manifest);
        if (text !== null) prompt.push(text);
      }
      return { system: prompt.join("\n\n"), skills: catalog };
    },
  };
}
