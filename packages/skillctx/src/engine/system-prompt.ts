import { buildCatalog } from "@skillctx/core";
import type { CatalogResult } from "@skillctx/core";
import type { SkillSet } from "./skill-set.js";
import { skillLocation } from "./skill-set.js";
import type { Templates } from "./templates.js";

/** The stable part of a step: rebuilt only when sources or options change. */
export interface SystemParts {
  system: string;
  catalog: CatalogResult | undefined;
}

/**
 * `system` is the host's prompt, then the repository-guidance block (each file labelled), then the
 * catalog of on-demand and triggered skills. `guidanceText` gives each guidance skill's rendered text.
 */
export function buildSystem(options: {
  systemPrompt: string | undefined;
  skills: SkillSet;
  guidanceText: ReadonlyMap<string, string>;
  cwd: string;
  templates: Templates;
  catalog: { format?: "xml" | "markdown"; budgetTokens?: number } | undefined;
  /** How the toolset loads a skill (for the intro line) and its search tool (for a partial catalog). */
  toolset?: { loadInstruction: string; searchTool: string };
}): SystemParts {
  const sections: string[] = [];
  if (options.systemPrompt !== undefined && options.systemPrompt.trim() !== "") sections.push(options.systemPrompt.trimEnd());
  if (options.skills.guidance.length > 0) {
    sections.push(
      options.templates.guidance(
        options.skills.guidance.map((skill) => ({
          name: skill.name,
          location: guidancePath(skill.source.path, options.cwd, skill),
          text: options.guidanceText.get(skill.name) ?? skill.content,
        })),
      ),
    );
  }
  let catalog: CatalogResult | undefined;
  if (options.skills.catalog.length > 0) {
    const toolset = options.toolset ?? { loadInstruction: "the load_skill tool", searchTool: "search_skills" };
    catalog = buildCatalog([...options.skills.catalog], { ...options.catalog, searchTool: toolset.searchTool });
    const intro = options.templates.catalogIntro;
    const introText = typeof intro === "function" ? intro({ loadInstruction: toolset.loadInstruction }) : intro;
    if (catalog.text !== "") sections.push(`${introText}\n\n${catalog.text}`);
  }
  return { system: sections.join("\n\n"), catalog };
}

function guidancePath(file: string | undefined, cwd: string, skill: Parameters<typeof skillLocation>[0]): string | undefined {
  if (file === undefined) return undefined;
  const folder = skillLocation(skill, cwd);
  const base = file.split(/[\\/]/).pop() ?? file;
  return folder === undefined || folder === "." ? base : `${folder}/${base}`;
}
