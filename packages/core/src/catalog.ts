import { Buffer } from "node:buffer";
import { compareCodePoints } from "./code-point-order.js";
import { SkillctxError } from "./errors.js";
import { MAX_CATALOG_DESCRIPTION_CODE_POINTS } from "./limits.js";
import { isModelInvocable } from "./model-invocable.js";
import type { Skill } from "./skill.js";
import { fitCodePoints, headCodePoints } from "./text/cut-text.js";
import { promptAttr, promptLine, singleLine } from "./text/prompt-text.js";
import { countTokens } from "./tokens.js";

/** Options for {@link buildCatalog} and {@link renderCatalog}. */
export interface CatalogOptions {
  /** `xml`: an `<available_skills>` block; `markdown`: a `- **name**: description` list. @default "xml" */
  format?: "xml" | "markdown";
  /**
   * Most tokens (`o200k_base`, see `countTokens`) the catalog may take. Over it, the catalog degrades:
   * short descriptions, then names only, then as many names as fit plus a line pointing to the
   * search tool. `Infinity` or absent: no limit.
   */
  budgetTokens?: number;
  /** The tool named by the "more skills" line of a partial catalog. @default "search_skills" */
  searchTool?: string;
  /**
   * Longest description listed, in code points (after whitespace is collapsed); a longer one is cut to
   * this length, its last character replaced by "…".
   * @default MAX_CATALOG_DESCRIPTION_CODE_POINTS (1,024, the Agent Skills limit)
   */
  maxDescriptionChars?: number;
}

/** How far a catalog had to degrade to fit its budget. */
export type CatalogLevel = "full" | "short" | "names" | "partial";

/** A rendered catalog and what it holds. */
export interface CatalogResult {
  /** The catalog text; `""` when no skill is listed (or not even the "more" line fits the budget). */
  text: string;
  /** Exactly `countTokens(text)`. Without a budget it is counted on first read, so rendering stays cheap. */
  tokens: number;
  level: CatalogLevel;
  /** Names of the listed skills, in catalog order. */
  included: string[];
  /** Names left out to fit the budget (level `partial`), in catalog order; search them with `searchTool`. */
  omitted: string[];
}

/**
 * Renders the catalog of skills the model may load: those triggered `on-demand`, `keyword` or `task`,
 * except skills with `disableModelInvocation` (the model could not load them) — `always` and `path`
 * skills reach the context by other means, `command` skills only by the user. A Claude Code
 * `when_to_use` is appended to the description, as Claude Code lists it. Entries are in code-point order of name; whitespace in
 * names and descriptions is collapsed to single spaces; `& < >` are escaped in both formats (core text/prompt-text.ts); a description longer than
 * `maxDescriptionChars` (the Agent Skills limit, 1,024) is cut, ending in "…". The skill's location is
 * not listed (the engine gives it when the skill is loaded or fires). A remote skill's description starts
 * with its origin, `(from "<source name>") `, so the model can tell served skills from local ones.
 *
 * With `budgetTokens`, degrades deterministically until it fits: `full` → `short` (first sentence of
 * each description, at most 100 characters) → `names` → `partial` (the first names that fit, and a
 * line telling the model to call `searchTool`; the rest in `omitted`). Token counts are exact: the
 * catalog is assembled from pieces whose boundaries are also `o200k_base` pre-token boundaries, so its
 * count is the sum of the pieces' counts (memoized per piece, so re-rendering an unchanged skill set
 * costs no tokenizing).
 *
 * @throws SkillctxError `INVALID_CATALOG_OPTIONS` for an unknown format, a negative / NaN budget, or a
 * `maxDescriptionChars` below 1.
 * @example
 * buildCatalog(skills, { budgetTokens: 2000 }) // { text: "<available_skills>\n…", tokens: 1987, level: "short", … }
 */
export function buildCatalog(skills: readonly Skill[], options: CatalogOptions = {}): CatalogResult {
  const format = options.format ?? "xml";
  const budget = options.budgetTokens ?? Number.POSITIVE_INFINITY;
  if (format !== "xml" && format !== "markdown") {
    throw new SkillctxError(
      "INVALID_CATALOG_OPTIONS",
      `catalog format must be "xml" or "markdown", got ${JSON.stringify(format)}`,
    );
  }
  if (typeof budget !== "number" || Number.isNaN(budget) || budget < 0) {
    throw new SkillctxError(
      "INVALID_CATALOG_OPTIONS",
      `catalog budgetTokens must be a number >= 0, got ${String(budget)}`,
    );
  }
  const maxDescription = options.maxDescriptionChars ?? MAX_CATALOG_DESCRIPTION_CODE_POINTS;
  if (typeof maxDescription !== "number" || !(maxDescription >= 1)) {
    throw new SkillctxError(
      "INVALID_CATALOG_OPTIONS",
      `catalog maxDescriptionChars must be a number >= 1, got ${String(maxDescription)}`,
    );
  }
  const listed = skills
    .filter(isModelInvocable)
    .map((skill) => ({
      name: String(skill.name),
      description: capDescription(originLabel(skill) + catalogDescription(skill), maxDescription),
    }))
    .sort((a, b) => compareCodePoints(a.name, b.name) || compareCodePoints(a.description, b.description));
  const names = listed.map((entry) => entry.name);
  if (listed.length === 0) return { text: "", tokens: 0, level: "full", included: [], omitted: [] };

  const shape = SHAPES[format];
  const shownNames = listed.map((entry) => shape.text(entry.name));
  const full = listed.map((entry, i) => shape.entry(shownNames[i]!, shape.text(entry.description)));
  const fullText = assemble(shape, full);
  if (budget === Number.POSITIVE_INFINITY || Buffer.byteLength(fullText, "utf8") <= budget) {
    // A token is at least one byte, so a text within the budget in bytes is within it in tokens.
    return lazyResult(fullText, names, () => count(shape, full));
  }
  const fullCount = count(shape, full);
  if (fullCount <= budget) return { text: fullText, tokens: fullCount, level: "full", included: names, omitted: [] };

  const short = listed.map((entry, i) =>
    shape.entry(shownNames[i]!, shape.text(shorten(singleLine(entry.description)))),
  );
  const shortCount = count(shape, short);
  if (shortCount <= budget)
    return { text: assemble(shape, short), tokens: shortCount, level: "short", included: names, omitted: [] };

  const bare = shownNames.map((name) => shape.name(name));
  const bareCount = count(shape, bare);
  if (bareCount <= budget)
    return { text: assemble(shape, bare), tokens: bareCount, level: "names", included: names, omitted: [] };

  return partial(shape, bare, names, budget, options.searchTool ?? "search_skills");
}

/**
 * The catalog text alone: `buildCatalog(skills, options).text`.
 *
 * @example
 * renderCatalog(skills, { format: "markdown" }) // "- **pdf**: Fill and merge PDF files.\n- **xlsx**: …"
 */
export function renderCatalog(skills: readonly Skill[], options: CatalogOptions = {}): string {
  return buildCatalog(skills, options).text;
}

// ---------------------------------------------------------------------------------------------

const SHORT_LIMIT = 100;

/**
 * How a format writes its pieces. Every piece ends in a line break and the next piece starts with
 * `<`, `-` or `_`, so no `o200k_base` pre-token spans two pieces and token counts add up.
 */
interface Shape {
  /** Raw name or description → the text shown: whitespace collapsed, escaped as the format needs. */
  text(raw: string): string;
  header: string;
  footer: string;
  entry(name: string, description: string): string;
  name(name: string): string;
  more(omitted: number, tool: string): string;
}

const SHAPES: Record<"xml" | "markdown", Shape> = {
  xml: {
    // `"` as `&quot;` too, as the Strands Agents SDK's skill listing writes it (issue 34).
    text: (raw) => promptAttr(raw),
    header: "<available_skills>\n",
    footer: "</available_skills>",
    entry: (name, description) =>
      description === ""
        ? `<skill>\n<name>${name}</name>\n</skill>\n`
        : `<skill>\n<name>${name}</name>\n<description>${description}</description>\n</skill>\n`,
    name: (name) => `<skill><name>${name}</name></skill>\n`,
    more: (omitted, tool) =>
      `<more_skills>Skills not listed here: ${omitted}. Call the ${promptLine(tool)} tool with a query to find them.</more_skills>\n`,
  },
  markdown: {
    text: (raw) => promptLine(raw),
    header: "",
    footer: "",
    entry: (name, description) => (description === "" ? `- **${name}**\n` : `- **${name}**: ${description}\n`),
    name: (name) => `- ${name}\n`,
    more: (omitted, tool) =>
      `_Skills not listed here: ${omitted}. Call the ${promptLine(tool)} tool with a query to find them._\n`,
  },
};

/** Header, pieces and footer; without a footer the last piece's line break is dropped. */
function assemble(shape: Shape, pieces: readonly string[]): string {
  if (shape.footer !== "" || pieces.length === 0) return shape.header + pieces.join("") + shape.footer;
  const last = pieces.length - 1;
  return `${shape.header}${pieces.slice(0, last).join("")}${pieces[last]!.slice(0, -1)}`;
}

/** Tokens of `assemble(shape, pieces)`, as a sum of memoized piece counts. */
function count(shape: Shape, pieces: readonly string[]): number {
  let total = memoCount(shape.header) + memoCount(shape.footer);
  const last = pieces.length - 1;
  for (let i = 0; i < last; i++) total += memoCount(pieces[i]!);
  // With no footer the text ends with the last piece, minus its line break.
  if (last >= 0) total += memoCount(shape.footer === "" ? pieces[last]!.slice(0, -1) : pieces[last]!);
  return total;
}

function partial(shape: Shape, bare: readonly string[], names: string[], budget: number, tool: string): CatalogResult {
  const fixed = memoCount(shape.header) + memoCount(shape.footer);
  const more = (omitted: number) => {
    const line = shape.more(omitted, tool);
    return memoCount(shape.footer === "" ? line.slice(0, -1) : line);
  };
  let kept = 0;
  let used = fixed;
  // The "more" line grows with the digits of its number only, by far less than one entry costs, so
  // the total grows with each entry kept: the answer is the largest prefix that fits with the shortest
  // line (one omitted), shrunk until it fits with the real one.
  const room = budget - more(1);
  while (kept < bare.length - 1 && used + memoCount(bare[kept]!) <= room) used += memoCount(bare[kept++]!);
  while (kept > 0 && used + more(bare.length - kept) > budget) used -= memoCount(bare[--kept]!);
  const tokens = used + more(bare.length - kept);
  if (tokens > budget) return { text: "", tokens: 0, level: "partial", included: [], omitted: names };
  const text = assemble(shape, [...bare.slice(0, kept), shape.more(bare.length - kept, tool)]);
  return { text, tokens, level: "partial", included: names.slice(0, kept), omitted: names.slice(kept) };
}

/** A full-level result whose `tokens` is computed on first read. */
function lazyResult(text: string, names: string[], tokensOf: () => number): CatalogResult {
  let tokens: number | undefined;
  const result = { text, level: "full", included: names, omitted: [] as string[] } as CatalogResult;
  Object.defineProperty(result, "tokens", { enumerable: true, get: () => (tokens ??= tokensOf()) });
  return result;
}

// Piece text -> token count. Bounded: cleared when it grows past MEMO_LIMIT entries.
const MEMO_LIMIT = 50_000;
const memo = new Map<string, number>();

function memoCount(piece: string): number {
  let value = memo.get(piece);
  if (value === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    value = countTokens(piece);
    memo.set(piece, value);
  }
  return value;
}

/**
 * A name or description as every catalog entry shows it (the system prompt's catalog, `skillctx list`,
 * the skills served over MCP): one line, whitespace runs collapsed to one space, trimmed, controls
 * replaced. Codex lists skills so (openai/codex codex-rs skills loader `sanitize_single_line`, test
 * `loads_valid_skill`: "does things\ncarefully" → "does things carefully").
 */
export function catalogLine(text: string): string {
  return singleLine(text);
}

/**
 * The text a skill is listed with: its description, then its `when_to_use` (Claude Code appends it in
 * its skill listing), after a " - " when the description does not end a sentence.
 */
export function catalogDescription(skill: Pick<Skill, "description" | "whenToUse">): string {
  const description = typeof skill.description === "string" ? skill.description.trim() : "";
  const whenToUse = typeof skill.whenToUse === "string" ? skill.whenToUse.trim() : "";
  if (whenToUse === "") return description;
  if (description === "") return whenToUse;
  return /[.!?。！？]$/u.test(description) ? `${description} ${whenToUse}` : `${description} - ${whenToUse}`;
}

/**
 * A remote skill's origin ahead of its description (`(from "team") …`): the model must be able to tell a
 * served skill from a local one (SEP-2640). Local skills get nothing.
 */
function originLabel(skill: Pick<Skill, "source">): string {
  const origin = skill.source?.scope === "remote" ? skill.source.origin : undefined;
  return origin === undefined ? "" : `(from "${origin}") `;
}

/** A description within `max` code points once cleaned (cut with "…"); most are far shorter and cost one comparison. */
function capDescription(description: string, max: number): string {
  if (description.length <= max) return description;
  return fitCodePoints(singleLine(description), Math.floor(max), { trimEnd: true });
}

/** The first sentence, at most {@link SHORT_LIMIT} characters (cut at a space, with an ellipsis). */
function shorten(description: string): string {
  const end = /[.!?。！？](?=\s|$)/u.exec(description);
  const sentence = end === null ? description : description.slice(0, end.index + end[0].length);
  if (headCodePoints(sentence, SHORT_LIMIT).length === sentence.length) return sentence;
  const cut = headCodePoints(sentence, SHORT_LIMIT - 1);
  const space = cut.lastIndexOf(" ");
  return `${space >= SHORT_LIMIT / 2 ? cut.slice(0, space) : cut}…`;
}
