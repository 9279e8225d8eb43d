import { createSkillIndex, DEFAULT_SUGGEST_SCORE, promptLine } from "@skillctx/core";
import type { EmbedTexts, FieldWeights, Skill, SkillIndex, SkillMatch } from "@skillctx/core";
import { invalidOption } from "@skillctx/core/internal";
import { checkEnum } from "../option-checks.js";
import type { SkillSet } from "../context-types.js";
import { notLoadableReason } from "../tool-kit/skill-folder.js";
import { DEFAULT_SEARCH_LIMIT } from "./skill-tool-constants.js";

/** Skills named by one suggestion note, at most. @default 2 */
export const DEFAULT_SUGGESTED_SKILLS = 2;

/** Suggestions on the user's messages (the `catalog.search.suggest` option). */
export interface SuggestSettings {
  /** Score from which a skill is suggested. @default DEFAULT_SUGGEST_SCORE (calibrated: docs/selection.md) */
  minScore?: number;
  /** Skills named by one note, at most. @default 2 */
  maxSkills?: number;
}

/** How skills are searched (the `search` option of a context). */
export interface SkillSearchSettings {
  /**
   * When `search_skills` is offered: `auto` when the catalog left skills out to fit its budget,
   * `always` in every step. @default "auto"
   */
  tool?: "auto" | "always";
  /**
   * Best score below which a search finds nothing. @default DEFAULT_MIN_SEARCH_SCORE (0: rank always, and mark
   * results under DEFAULT_CONFIDENT_SCORE as weak matches; docs/selection.md says why)
   */
  minScore?: number;
  /** How much a match in each field counts. @default DEFAULT_FIELD_WEIGHTS */
  weights?: Partial<FieldWeights>;
  /**
   * The host's embedding function, fused with the lexical ranking (reciprocal rank fusion); vectors
   * are kept by the digest of each skill's text. @default none
   */
  embed?: EmbedTexts;
  /**
   * Attach one short note to a new user message that matches skills above a high score, naming at most
   * `maxSkills` of them and the words that matched; once per skill per conversation, only skills the
   * model may load. `system` and the tools do not change. @default false
   */
  suggest?: boolean | SuggestSettings;
}

/**
 * The one owner of skill search in a context: the `search_skills` tool and suggestions ask it. Its
 * index is built in the background from the step that first offers `search_skills` (or on the first search,
 * never at scan time or on a step without the tool or suggestions) and follows the skill set
 * in use: the loadable skills of each new set (reload, nested skills revealed, remote sources) are
 * compared with the indexed ones, and only skills added, changed or gone are indexed again.
 */
export class SkillSearch {
  readonly tool: "auto" | "always";
  readonly suggestions: Required<SuggestSettings> | undefined;
  private index: SkillIndex | undefined;
  private readonly loadable = new WeakMap<SkillSet, Skill[]>();

  constructor(private readonly settings: SkillSearchSettings = {}) {
    if (typeof settings !== "object" || settings === null)
      throw invalidOption("catalog.search", "an object", { got: { value: settings } });
    this.tool = checkEnum("catalog.search.tool", settings.tool, ["auto", "always"], "auto");
    if (settings.embed !== undefined && typeof settings.embed !== "function")
      throw invalidOption("catalog.search.embed", "a function", { got: { value: settings.embed } });
    checkScore("catalog.search.minScore", settings.minScore);
    const suggest = settings.suggest;
    if (suggest === undefined || suggest === false) this.suggestions = undefined;
    else if (suggest === true)
      this.suggestions = { minScore: DEFAULT_SUGGEST_SCORE, maxSkills: DEFAULT_SUGGESTED_SKILLS };
    else if (typeof suggest === "object" && suggest !== null) {
      checkScore("catalog.search.suggest.minScore", suggest.minScore);
      const maxSkills = suggest.maxSkills ?? DEFAULT_SUGGESTED_SKILLS;
      if (!Number.isSafeInteger(maxSkills) || maxSkills < 1)
        throw invalidOption("catalog.search.suggest.maxSkills", "a whole number of at least 1", {
          got: { value: maxSkills },
        });
      this.suggestions = { minScore: suggest.minScore ?? DEFAULT_SUGGEST_SCORE, maxSkills };
    } else throw invalidOption("catalog.search.suggest", "a boolean or an object", { got: { value: suggest } });
  }

  /** The skills the model may load that match `query`, best first, each with its confidence; none when no word matches (or nothing passes a host's cut-off). */
  search(skills: SkillSet, query: string, limit = DEFAULT_SEARCH_LIMIT, signal?: AbortSignal): Promise<SkillMatch[]> {
    return this.indexed().search(this.searchable(skills), query, { limit, signal });
  }

  /**
   * Starts indexing the loadable skills of `skills` in the background (chunked, never blocking a step), so
   * that the index is ready when the model first calls `search_skills`. Called when the tool is offered.
   */
  prepare(skills: SkillSet): void {
    this.indexed().prepare(this.searchable(skills));
  }

  /** The skills to suggest for a user message: above the suggestion score, not in `exclude`, at most `maxSkills`. */
  async suggest(
    skills: SkillSet,
    message: string,
    exclude: ReadonlySet<string>,
    signal?: AbortSignal,
  ): Promise<SkillMatch[]> {
    const settings = this.suggestions;
    if (settings === undefined) return [];
    const found = await this.indexed().search(this.searchable(skills), message, {
      limit: settings.maxSkills + exclude.size,
      minScore: settings.minScore,
      signal,
    });
    return found
      .filter((match) => match.score >= settings.minScore && !exclude.has(match.name))
      .slice(0, settings.maxSkills);
  }

  private indexed(): SkillIndex {
    this.index ??= createSkillIndex({
      minScore: this.settings.minScore,
      weights: this.settings.weights,
      embed: this.settings.embed,
    });
    return this.index;
  }

  // The skills the model may load (never user-only skills, commands or guidance), one array per skill set.
  private searchable(skills: SkillSet): Skill[] {
    let list = this.loadable.get(skills);
    if (list === undefined) {
      list = skills.skills.filter((skill) => notLoadableReason(skill) === undefined);
      this.loadable.set(skills, list);
    }
    return list;
  }
}

/**
 * The search result as the model reads it: one line per skill, best first, a weak match (low confidence)
 * marked so; when even the best is weak, the answer says that no skill clearly matches and leaves the choice
 * to the model. With nothing found, the answer says so plainly: a complete catalog already lists every skill.
 */
export function formatSearchResults(
  query: string,
  results: readonly SkillMatch[],
  loadTool: string,
  catalogComplete: boolean,
): string {
  if (results.length === 0)
    return catalogComplete
      ? `No skill matches ${JSON.stringify(query)}; the catalog lists them all.`
      : `No skill matches ${JSON.stringify(query)}. Try other words from the task.`;
  const lines = results.map(
    (result) =>
      `- ${promptLine(result.name)}${result.confidence === "low" ? " (weak match)" : ""}${result.description === undefined ? "" : `: ${promptLine(result.description)}`}`,
  );
  if (results[0]!.confidence === "low")
    return [
      `No skill clearly matches ${JSON.stringify(query)}; the closest, best first (weak matches):`,
      ...lines,
      `Load one with ${loadTool} only if its description fits the task.`,
    ].join("\n");
  return [`Skills matching ${JSON.stringify(query)}, best first:`, ...lines, `Load one with ${loadTool}.`].join("\n");
}

function checkScore(path: string, value: unknown): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value) || value < 0))
    throw invalidOption(path, "a number of at least 0", { got: { value } });
}
