// The search_skills ranking before issue 26 (core/src/skill-search.ts at the commit before it), kept
// verbatim as the "previous" baseline of the selection evaluation.
import { compareCodePoints } from "../../packages/core/src/code-point-order.js";
import type { Skill } from "../../packages/core/src/skill.js";

/** Options for {@link searchSkills}. */
export interface SearchSkillsOptions {
  /** Most results to return. @default 10 */
  limit?: number;
}

/** One ranked result of {@link searchSkills}. */
export interface SkillSearchResult {
  name: string;
  description?: string;
  /** Higher is better; only results with a positive score are returned. */
  score: number;
}

/**
 * Ranks skills by how well their name and description match `query` (the `search_skills` tool of a
 * catalog that did not fit its budget).
 *
 * The query and the skills are split into lower-cased words (runs of letters, digits and marks;
 * `-`, `_` and other punctuation separate words; each character of a script written without spaces,
 * such as Han or Thai, is a word of its own). Each query word scores, weighted by how rare it is
 * among the skills (inverse document frequency): 3 when it is a word of the name, 1.5 when it starts
 * one, 1 when it is a word of the description, 0.5 when it starts one. A name equal to the whole query
 * (ignoring case and separators) adds 10. Results are sorted by score, then by name in code-point
 * order; scores are rounded to 3 decimals. An empty query finds nothing. Never throws.
 *
 * @example
 * searchSkills(skills, "pdf forms", { limit: 3 }) // [{ name: "pdf-forms", description: "…", score: … }, { name: "pdf", … }]
 */
export function searchSkills(
  skills: ReadonlyArray<Pick<Skill, "name" | "description">>,
  query: string,
  options: SearchSkillsOptions = {},
): SkillSearchResult[] {
  const limit = Math.max(0, Math.floor(options.limit ?? 10));
  const terms = [...new Set(words(typeof query === "string" ? query : ""))];
  if (terms.length === 0 || limit === 0 || !Array.isArray(skills)) return [];

  const indexed = skills
    .filter((skill) => typeof skill?.name === "string")
    .map((skill) => {
      const description = typeof skill.description === "string" ? skill.description : undefined;
      return {
        name: skill.name,
        description,
        nameWords: new Set(words(skill.name)),
        descriptionWords: new Set(words(description ?? "")),
      };
    });
  const whole = terms.join("");
  const results: SkillSearchResult[] = [];
  const idf = new Map<string, number>();
  for (const term of terms) {
    const containing = indexed.filter(
      (entry) => has(entry.nameWords, term) || has(entry.descriptionWords, term),
    ).length;
    idf.set(term, Math.log(1 + (indexed.length + 1) / (containing + 0.5)));
  }
  for (const entry of indexed) {
    let score = 0;
    for (const term of terms) {
      const weight = idf.get(term)!;
      if (entry.nameWords.has(term)) score += 3 * weight;
      else if (startsOne(entry.nameWords, term)) score += 1.5 * weight;
      if (entry.descriptionWords.has(term)) score += weight;
      else if (startsOne(entry.descriptionWords, term)) score += 0.5 * weight;
    }
    if (score > 0 && words(entry.name).join("") === whole) score += 10;
    if (score <= 0) continue;
    results.push({
      name: entry.name,
      ...(entry.description !== undefined && { description: entry.description }),
      score: Math.round(score * 1000) / 1000,
    });
  }
  results.sort((a, b) => b.score - a.score || compareCodePoints(a.name, b.name));
  return results.slice(0, limit);
}

// ---------------------------------------------------------------------------------------------

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const NO_SPACE = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
// Words shorter than this only match whole words, never as a prefix.
const MIN_PREFIX = 3;

function words(text: string): string[] {
  const result: string[] = [];
  for (const [run] of text.toLowerCase().matchAll(WORD)) {
    if (!NO_SPACE.test(run)) {
      result.push(run);
      continue;
    }
    // Split runs of space-less scripts into single characters, keeping other letters together.
    let buffer = "";
    for (const char of run) {
      if (NO_SPACE.test(char)) {
        if (buffer !== "") result.push(buffer);
        buffer = "";
        result.push(char);
      } else buffer += char;
    }
    if (buffer !== "") result.push(buffer);
  }
  return result;
}

function has(set: ReadonlySet<string>, term: string): boolean {
  return set.has(term) || startsOne(set, term);
}

function startsOne(set: ReadonlySet<string>, term: string): boolean {
  if (term.length < MIN_PREFIX) return false;
  for (const word of set) if (word.length > term.length && word.startsWith(term)) return true;
  return false;
}
