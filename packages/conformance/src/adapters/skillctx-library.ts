/**
 * skillctx through its library: `AgentContext.create` with the case's cwd, HOME, model and options, then
 * one `buildContext([])` for the system prompt and its diagnostics.
 */
import path from "node:path";
import { AgentContext } from "skillctx";
import type { AgentContextOptions } from "skillctx";
import type { CaseRun, ConformanceAdapter, Observation } from "../adapter.js";

/** The repository-relative form of `file`. */
export const relativeTo = (repo: string, file: string): string =>
  path.relative(repo, path.resolve(file)).split(path.sep).join("/");

/** The AgentContext options of a case (each has a CLI flag: skillctx-cli.ts maps the same ones). */
export function contextOptions(run: CaseRun): AgentContextOptions {
  const { model, options } = run.case;
  return {
    cwd: run.cwd,
    sources: {
      homeDir: run.home,
      userSkills: options?.userSkills ?? false,
      ...(options?.projectRootMarkers !== undefined && { projectRootMarkers: options.projectRootMarkers }),
    },
    ...(model !== undefined && { model }),
    ...(options?.trust !== undefined && { trust: options.trust }),
    ...(options?.guidance?.emulate !== undefined && {
      guidance: { emulate: options.guidance.emulate as "codex" },
    }),
  };
}

/** skillctx's `AgentContext`. */
export function skillctxLibraryAdapter(): ConformanceAdapter {
  return {
    name: "skillctx (library)",
    async observe(run) {
      const ctx = await AgentContext.create(contextOptions(run));
      try {
        const step = await ctx.buildContext([]);
        const guidance: string[] = [];
        const pathRules: string[] = [];
        for (const skill of ctx.skills) {
          if (skill.source.path === undefined) continue;
          const aliases = (skill.metadata["aliases"] ?? "").split(", ").filter(Boolean);
          const where = [relativeTo(run.repo, skill.source.path), ...aliases];
          if (skill.trigger.type === "always") guidance.push(...where);
          if (skill.trigger.type === "path") pathRules.push(...where);
        }
        const observed: Observation = {
          system: step.system,
          guidance,
          pathRules,
          skills: ctx.skills.map((s) => ({ name: s.name, description: s.description })),
          diagnostics: step.diagnostics.map((d) => d.code),
        };
        return observed;
      } finally {
        await ctx.close();
      }
    },
  };
}
