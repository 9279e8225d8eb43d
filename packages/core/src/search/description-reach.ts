import { MAX_CATALOG_DESCRIPTION_CODE_POINTS } from "../limits.js";
import type { RuleFinding } from "../spec-rules.js";
import { STOP_WORDS } from "./stop-words.js";
import { splitWords } from "./tokenize.js";

/**
 * Fewest words a description needs beyond the skill's name (stop words aside) for a request to reach it.
 * A request names the task ("fill a pdf form"), rarely the skill; with fewer, search and the model have
 * only the name to go on. Our choice (docs/decisions.md), checked on the real-skill corpus: none of its
 * 246 published skills is flagged.
 */
export const MIN_DESCRIPTION_REACH_WORDS = 3;

/**
 * `skillctx validate`'s warning for a description that no likely request would reach: too few words
 * outside the skill's name (`DESCRIPTION_UNREACHABLE`). Not a specification rule: never with `--strict`.
 */
export function checkDescriptionReach(name: unknown, description: unknown): RuleFinding[] {
  // A description the specification refuses (missing, empty, over 1,024 characters) has its error already.
  if (typeof description !== "string" || description.trim() === "") return [];
  if ([...description].length > MAX_CATALOG_DESCRIPTION_CODE_POINTS) return [];
  const nameWords = new Set(typeof name === "string" ? splitWords(name) : []);
  const words = new Set(
    splitWords(description).filter(
      (w) => !STOP_WORDS.has(w) && !nameWords.has(w) && (w.length > 1 || /[^\x00-\x7f]/.test(w)),
    ),
  );
  if (words.size >= MIN_DESCRIPTION_REACH_WORDS) return [];
  const said =
    words.size === 0
      ? "no word besides the name"
      : `only ${words.size} ${words.size === 1 ? "word" : "words"} besides the name (${[...words].join(", ")})`;
  return [
    {
      code: "DESCRIPTION_UNREACHABLE",
      message: `description says ${said}: a request describes the task, so say what the skill does and when to use it (skillctx search "a request" shows what matches)`,
    },
  ];
}
