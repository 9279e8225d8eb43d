import {
  compareCodePoints,
  createKeywordMatcher,
  createPathMatcher,
  diagnostic,
  discoverSkills,
  keepForModel,
} from "@skillctx/core";
import type { Diagnostic, Skill, SkillCache, SkillSourceInput, Trust } from "@skillctx/core";
import { loadGuidance } from "@skillctx/compat";
import type { SkillSet } from "../context-types.js";

export type { SkillSet } from "../context-types.js";
export { skillLocation } from "../skill-location.js";

/** Where skills come from and which ones apply. */
export interface SkillSetOptions {
  cwd: string;
  skills?: SkillSourceInput[] | undefined;
  userSkills?: boolean | string[] | undefined;
  homeDir?: string | undefined;
  model?: string | undefined;
  disabled?: readonly string[] | undefined;
  /** Read repository guidance files (AGENTS.md, CLAUDE.md, ...). @default true */
  guidance?: boolean | { includeNested?: boolean; maxGuidanceBytes?: number } | undefined;
  /** Which scopes the caller trusts; guidance reaches files outside the project only with `user: true` given explicitly. */
  trust?: Trust | undefined;
  cache?: SkillCache | undefined;
  signal?: AbortSignal | undefined;
}

/** Discovers skills and guidance, applies `disabled` and model gating, and indexes the result. */
export async function loadSkillSet(options: SkillSetOptions): Promise<SkillSet> {
  const discovered = await discoverSkills({
    cwd: options.cwd,
    ...(options.skills !== undefined && { skills: options.skills }),
    ...(options.userSkills !== undefined && { userSkills: options.userSkills }),
    ...(options.homeDir !== undefined && { homeDir: options.homeDir }),
    ...(options.trust !== undefined && { trust: options.trust }),
    ...(options.cache !== undefined && { cache: options.cache }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  const diagnostics: Diagnostic[] = [...discovered.diagnostics];
  const all: Skill[] = [...discovered.skills];

  if (options.guidance !== false) {
    const settings = typeof options.guidance === "object" ? options.guidance : {};
    const found = await loadGuidance(options.cwd, {
      ...settings,
      trust: options.trust,
      ...(options.homeDir !== undefined && { homeDir: options.homeDir }),
      ...(options.model !== undefined && { model: options.model }),
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    diagnostics.push(...found.diagnostics);
    const taken = new Map(all.map((skill) => [skill.name, skill]));
    for (const skill of found.skills) {
      const first = taken.get(skill.name);
      if (first !== undefined) {
        diagnostics.push(
          diagnostic(
            "NAME_CLASH",
            "warning",
            `guidance "${skill.name}" at ${skill.source.path ?? "?"} is shadowed by the skill at ${first.source.path ?? "(programmatic)"}`,
            { path: skill.source.path },
          ),
        );
        continue;
      }
      taken.set(skill.name, skill);
      all.push(skill);
    }
  }

  const disabled = new Set(options.disabled ?? []);
  // Guidance keeps the order it was found in (root before nested folders); the rest is by name.
  const usable = all
    .filter((skill) => !disabled.has(skill.name))
    .filter((skill) => skill.trigger.type !== "always" || keepForModel(skill.name, options.model));
  const skills = [...usable].sort((a, b) => compareCodePoints(a.name, b.name));
  const paths = createPathMatcher(skills);
  // Globs the matcher refused (GLOB_TOO_COMPLEX, ...): reported once per load, in the next step.
  diagnostics.push(...paths.diagnostics);

  return {
    skills,
    byName: new Map(skills.map((skill) => [skill.name, skill])),
    guidance: usable.filter((skill) => skill.trigger.type === "always"),
    catalog: skills.filter((skill) => ["on-demand", "keyword", "task"].includes(skill.trigger.type)),
    keywords: createKeywordMatcher(skills),
    paths,
    diagnostics,
  };
}
