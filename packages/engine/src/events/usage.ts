/**
 * `step.usage`: the tokens (o200k_base, core's lazy tokenizer) each skill adds to one step — its catalog
 * entry, its guidance text, the text attached for it to the step's messages, and its loaded body.
 *
 * Counting is cached by text: the catalog's entries per catalog object (a new one only after a reload),
 * every other text in a bounded map keyed by the string itself (attachments and bodies are frozen, so a
 * step counts only text it has not seen). See docs/events.md for when usage is computed.
 */
import type { CatalogResult } from "@skillctx/core";
import { compareCodePoints, countTokens } from "@skillctx/core";
import type { SkillUsage, StepUsage } from "./types.js";

/** What one step holds, by skill. */
export interface UsageInput {
  catalog: CatalogResult | undefined;
  /** Guidance texts as they stand in `system`. */
  guidance: readonly { name: string; text: string }[];
  /** Text attached for a skill to a message of the step (catalog notes of nested folders excluded: they name no one skill). */
  attachments: readonly { skill: string; text: string }[];
  /** The active skill's loaded body (its `load_skill` result), when one is loaded. */
  loaded: { skill: string; body: string } | undefined;
}

/** The catalog and guidance part of usage, by skill in code-point order, and where each skill sits in it. */
interface SystemPart {
  catalog: CatalogResult | undefined;
  guidance: UsageInput["guidance"];
  skills: readonly SkillUsage[];
  names: ReadonlyMap<string, number>;
}

// Text -> token count. Bounded: cleared when it grows past this many entries (frozen texts repeat every step).
const MAX_CACHED_TEXTS = 10_000;

/** Counts per-skill usage with caches that live as long as the context. */
export class UsageMeter {
  private readonly catalogs = new WeakMap<CatalogResult, ReadonlyMap<string, number>>();
  private readonly texts = new Map<string, number>();
  /** The part of `system` (catalog and guidance), counted and sorted once per catalog and guidance list. */
  private base: SystemPart | undefined;

  measure(input: UsageInput): StepUsage {
    const base = this.systemPart(input);
    // Copies of the system part; the few skills with attachments or a loaded body get their share added.
    const skills = base.skills.map((u) => ({ ...u }));
    const entry = (skill: string): SkillUsage => {
      const at = base.names.get(skill);
      if (at !== undefined) return skills[at]!;
      const found = skills.find((u) => u.skill === skill);
      if (found !== undefined) return found;
      const added = { skill, catalog: 0, guidance: 0, attachments: 0, loaded: 0, total: 0 };
      skills.push(added);
      return added;
    };
    let extra = false;
    for (const { skill, text } of input.attachments) {
      const tokens = this.tokens(text);
      if (tokens > 0) {
        extra = true;
        entry(skill).attachments += tokens;
      }
    }
    if (input.loaded !== undefined) {
      const tokens = this.tokens(input.loaded.body);
      if (tokens > 0) {
        extra = true;
        entry(input.loaded.skill).loaded += tokens;
      }
    }
    if (extra) {
      for (const u of skills) u.total = u.catalog + u.guidance + u.attachments + u.loaded;
      // Skills outside `system` were appended: put them in order.
      if (skills.length > base.skills.length) skills.sort((a, b) => compareCodePoints(a.skill, b.skill));
    }
    let total = 0;
    for (const u of skills) total += u.total;
    return { skills, total };
  }

  private systemPart(input: UsageInput): SystemPart {
    const cached = this.base;
    if (
      cached !== undefined &&
      cached.catalog === input.catalog &&
      (cached.guidance === input.guidance || (cached.guidance.length === 0 && input.guidance.length === 0))
    ) {
      return cached;
    }
    const bySkill = new Map<string, SkillUsage>();
    const entry = (skill: string): SkillUsage => {
      let usage = bySkill.get(skill);
      if (usage === undefined)
        bySkill.set(skill, (usage = { skill, catalog: 0, guidance: 0, attachments: 0, loaded: 0, total: 0 }));
      return usage;
    };
    if (input.catalog !== undefined)
      for (const [skill, tokens] of this.catalogTokens(input.catalog)) entry(skill).catalog += tokens;
    for (const { name, text } of input.guidance) entry(name).guidance += this.tokens(text);
    const skills = [...bySkill.values()].filter((u) => (u.total = u.catalog + u.guidance) > 0);
    skills.sort((a, b) => compareCodePoints(a.skill, b.skill));
    this.base = {
      catalog: input.catalog,
      guidance: input.guidance,
      skills,
      names: new Map(skills.map((u, i) => [u.skill, i])),
    };
    return this.base;
  }

  private tokens(text: string): number {
    let count = this.texts.get(text);
    if (count === undefined) {
      if (this.texts.size >= MAX_CACHED_TEXTS) this.texts.clear();
      count = countTokens(text);
      this.texts.set(text, count);
    }
    return count;
  }

  private catalogTokens(catalog: CatalogResult): ReadonlyMap<string, number> {
    let tokens = this.catalogs.get(catalog);
    if (tokens === undefined) {
      tokens = catalogEntryTokens(catalog);
      this.catalogs.set(catalog, tokens);
    }
    return tokens;
  }
}

/**
 * Tokens of each listed skill's entry in a catalog, by name. The catalog is made of one piece per entry
 * whose boundaries are token boundaries (core `buildCatalog`), so the entries' counts add up to the
 * catalog's tokens less its frame (the `<available_skills>` tags, the "more skills" line). The pieces are
 * found in the text: XML entries are `<skill>…</skill>` (names and descriptions are escaped, so the
 * closing tag cannot occur inside), Markdown entries are the `- ` lines (whitespace in entries is collapsed
 * to single spaces). A text whose entries cannot be matched to `included` attributes nothing.
 */
export function catalogEntryTokens(catalog: CatalogResult): ReadonlyMap<string, number> {
  const tokens = new Map<string, number>();
  const pieces = catalog.text.startsWith("<") ? (catalog.text.match(XML_ENTRY) ?? []) : markdownEntries(catalog.text);
  if (pieces.length !== catalog.included.length) return tokens;
  catalog.included.forEach((name, i) => {
    tokens.set(name, (tokens.get(name) ?? 0) + countTokens(pieces[i]!));
  });
  return tokens;
}

const XML_ENTRY = /^<skill>[\s\S]*?<\/skill>\n/gm;

function markdownEntries(text: string): string[] {
  const lines = text.split("\n");
  const last = lines.length - 1;
  // Every line but the last carried its line break in the catalog's pieces.
  return lines.flatMap((line, i) => (line.startsWith("- ") ? [i === last ? line : `${line}\n`] : []));
}
