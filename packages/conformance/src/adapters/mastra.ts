/**
 * Mastra (`@mastra/core`): a `Workspace` on a `LocalFilesystem` at the working folder with `skills`
 * paths, read through `workspace.skills.list()`, the discovery its agents use.
 * https://mastra.ai/docs/workspace/skills ; mastra-ai/mastra packages/core/src/workspace/skills
 */
import { LocalFilesystem, Workspace } from "@mastra/core/workspace";
import type { ConformanceAdapter } from "../adapter.js";
import { labelOf, PEER_RULES, PEER_SKILL_ROOTS } from "./peers.js";

/** Mastra's workspace skills. */
export function mastraAdapter(): ConformanceAdapter {
  return {
    name: labelOf("@mastra/core"),
    rules: PEER_RULES,
    async observe(run) {
      const workspace = new Workspace({
        filesystem: new LocalFilesystem({ basePath: run.cwd, readOnly: true }),
        skills: [...PEER_SKILL_ROOTS],
      });
      await workspace.init();
      try {
        const listed = (await workspace.skills?.list()) ?? [];
        return { skills: listed.map((s) => ({ name: s.name, description: s.description })) };
      } finally {
        await workspace.destroy?.();
      }
    },
  };
}
