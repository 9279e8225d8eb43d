import path from "node:path";
import {
  compareCodePoints,
  createKeywordMatcher,
  createPathMatcher,
  diagnostic,
  discoverSkills,
  keepForModel,
} from "@skillctx/core";
import type { Diagnostic, KeywordMatcher, PathMatcher, Skill, SkillCache, SkillSourceInput } from "@skillctx/core";
import { loadGuidance } from "@skillctx/compat";

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
  /** Let CLAUDE.md `@imports` reach files outside the repository (the user scope). @default false */
  trustUserScope?: boolean | undefined;
  cache?: SkillCache | undefined;
  signal?: AbortSignal | undefined;
}

/** The skills of one configuration, indexed for a step. Rebuilt only when sources or options change. */
export interface SkillSet {
  /** Every usable skill, by code point order of name. */
  readonly skills: readonly Skill[];
  readonly byName: ReadonlyMap<string, Skill>;
  /** Always-on guidance, in the order it appears in `system`. */
  readonly guidance: readonly Skill[];
  /** Skills listed in the catalog (on-demand, keyword, task). */
  readonly catalog: readonly Skill[];
  readonly keywords: KeywordMatcher;
  readonly paths: PathMatcher;
  readonly diagnostics: readonly Diagnostic[];
}

/** Discovers skills and guidance, applies `disabled` and model gating, and indexes the result. */
export async function loadSkillSet(options: SkillSetOptions): Promise<SkillSet> {
  const discovered = await discoverSkills({
    cwd: options.cwd,
    ...(options.skills !== undefined && { skills: options.skills }),
    ...(options.userSkills !== undefined && { userSkills: options.userSkills }),
    ...(options.homeDir !== undefined && { homeDir: options.homeDir }),
    ...(options.cache !== undefined && { cache: options.cache }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  const diagnostics: Diagnostic[] = [...discovered.diagnostics];
  const all: Skill[] = [...discovered.skills];

  if (options.guidance !== false) {
    const settings = typeof options.guidance === "object" ? options.guidance : {};
    const found = await loadGuidance(options.cwd, {
      ...settings,
      trustUserScope: options.trustUserScope === true,
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

  return {
    skills,
    byName: new Map(skills.map((skill) => [skill.name, skill])),
    guidance: usable.filter((skill) => skill.trigger.type === "always"),
    catalog: skills.filter((skill) => ["on-demand", "keyword", "task"].includes(skill.trigger.type)),
    keywords: createKeywordMatcher(skills),
    paths: createPathMatcher(skills),
    diagnostics,
  };
}

/** Where a skill lives, relative to cwd when inside it (so the prompt does not depend on the machine). */
export function skillLocation(skill: Skill, cwd: string): string | undefined {
  const where = skill.dir ?? (skill.source.path === undefined ? undefined : path.dirname(skill.source.path));
  if (where === undefined) return undefined;
  const relative = path.relative(cwd, where);
  if (relative === "") return ".";
  return relative.startsWith("..") || path.isAbsolute(relative) ? where : relative.split(path.sep).join("/");
}
