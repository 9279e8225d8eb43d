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
    catalog = buildCatalog([...options.skills.catalog], options.catalog ?? {});
    sections.push(`${options.templates.catalogIntro}\n\n${catalog.text}`);
  }
  return { system: sections.join("\n\n"), catalog };
}

function guidancePath(file: string | undefined, cwd: string, skill: Parameters<typeof skillLocation>[0]): string | undefined {
  if (file === undefined) return undefined;
  const folder = skillLocation(skill, cwd);
  const base = file.split(/[\\/]/).pop() ?? file;
  return folder === undefined || folder === "." ? base : `${folder}/${base}`;
}
