import { searchSkills } from "@skillctx/core";
import type { Skill, SkillSearchResult } from "@skillctx/core";
import type { SkillSet } from "../context-types.js";
import { notLoadableReason } from "../tool-kit/skill-folder.js";

/** Results returned by one `search_skills` call, at most. @default 10 */
export const DEFAULT_SEARCH_LIMIT = 10;

const searchable = new WeakMap<SkillSet, Skill[]>();

/**
 * Ranks the skills the model may load by how well their name and description match `query` (core's
 * `searchSkills`): the `search_skills` tool of a catalog that left skills out to fit its budget.
 */
export function searchLoadableSkills(
  skills: SkillSet,
  query: string,
  limit = DEFAULT_SEARCH_LIMIT,
): SkillSearchResult[] {
  let list = searchable.get(skills);
  if (list === undefined) {
    list = skills.skills.filter((skill) => notLoadableReason(skill) === undefined);
    searchable.set(skills, list);
  }
  return searchSkills(list, query, { limit });
}

/** The search result as the model reads it: one line per skill, best first. */
export function formatSearchResults(query: string, results: readonly SkillSearchResult[], loadTool: string): string {
  if (results.length === 0) return `No skill matches ${JSON.stringify(query)}. Try other words from the task.`;
  const lines = results.map(
    (result) => `- ${result.name}${result.description === undefined ? "" : `: ${oneLine(result.description)}`}`,
  );
  return [`Skills matching ${JSON.stringify(query)}, best first:`, ...lines, `Load one with ${loadTool}.`].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
