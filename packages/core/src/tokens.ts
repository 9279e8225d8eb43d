import { createRequire } from "node:module";
import { SkillctxError } from "./errors.js";

/** The tokenizer skillctx counts (or estimates) for: OpenAI's `o200k_base` (GPT-4o, GPT-4.1, GPT-5, o-series). */
export const TOKENIZER = "o200k_base";

/** How {@link countTokens} counts in this process: `exact` with the optional peer `gpt-tokenizer`, else `estimate`. */
export type TokenCounting = "exact" | "estimate";

type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

// The exact counter once loaded, `null` once known to be absent, undefined before the first look.
let counter: CountTokens | null | undefined;
// Special-token text such as `<|endoftext|>` is counted as ordinary text instead of throwing.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** The package that counts exactly: an optional peer dependency, never installed by default. */
const EXACT_PACKAGE = "gpt-tokenizer";

/**
 * Tokens of `text` in `o200k_base`. Exact when the optional peer `gpt-tokenizer` is installed beside
 * skillctx (its one encoding, a few MB of ranks and ~150 ms, loads on the first call, so importing
 * `@skillctx/core` stays cheap); otherwise {@link estimateTokens}, a heuristic whose error on the
 * real-world skills corpus is 2.9 % at the median and 9 % at the 95th percentile (docs/install.md).
 * `{ exact: true }` refuses the estimate: it throws a `SkillctxError` with code `TOKENIZER_MISSING`
 * naming the package when it is absent. Special-token markers count as plain text.
 *
 * @example
 * countTokens("hello world") // 2
 */
export function countTokens(text: string, options: { exact?: boolean } = {}): number {
  if (typeof text !== "string" || text === "") return 0;
  const exact = exactCounter();
  if (exact !== null) return exact(text, AS_TEXT);
  if (options.exact === true)
    throw new SkillctxError(
      "TOKENIZER_MISSING",
      `exact token counts need the optional peer dependency ${EXACT_PACKAGE}, which is not installed; add it beside skillctx (npm install ${EXACT_PACKAGE}), or count without { exact: true } for an estimate`,
    );
  return estimateTokens(text);
}

/** Whether {@link countTokens} counts exactly here (the optional peer `gpt-tokenizer` resolves) or estimates. */
export function tokenCounting(): TokenCounting {
  return exactCounter() === null ? "estimate" : "exact";
}

function exactCounter(): CountTokens | null {
  if (counter !== undefined) return counter;
  // Synchronous lazy load: the CommonJS build of the one encoding, required on first use.
  const require = createRequire(import.meta.url);
  try {
    counter = (require("gpt-tokenizer/encoding/o200k_base") as { countTokens: CountTokens }).countTokens;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "MODULE_NOT_FOUND") throw error;
    counter = null;
  }
  return counter;
}

// One piece per match: an ASCII word, a digit run, one non-ASCII UTF-16 unit, a run of newlines, a run of
// spaces or tabs, a run of other punctuation. The tokenizer's own pre-split works on similar pieces.
const PIECE = /[A-Za-z]+|[0-9]+|[\u0080-\uffff]|\n+|[ \t]+|[^A-Za-z0-9\s\u0080-\uffff]+/g;

// Weights fitted by least squares (relative error) against the exact `o200k_base` counts of the 1,558
// Markdown files of the corpus (scripts/token-estimate-error.mjs re-measures them): a word is about one
// token (a space before it merges in), each letter past the sixth adds a sixth of one, a run of three digits
// two, a punctuation character half of one, a line break two thirds, a non-ASCII unit (CJK, accents,
// emoji halves) about 0.6, a run of two or more spaces (indentation) about 0.4.
const WORD = 1;
const LONG_WORD_CHAR = 0.16;
const DIGIT_GROUP = 1.9;
const PUNCTUATION_CHAR = 0.53;
const NEWLINES = 0.68;
const NON_ASCII_UNIT = 0.62;
const INDENT = 0.42;

/**
 * A fast estimate of the `o200k_base` token count of `text` (no tokenizer loaded): weighted counts of
 * words, digits, punctuation, line breaks and non-ASCII characters. Never negative; 0 for "".
 */
export function estimateTokens(text: string): number {
  if (typeof text !== "string" || text === "") return 0;
  let total = 0;
  PIECE.lastIndex = 0;
  for (let m = PIECE.exec(text); m !== null; m = PIECE.exec(text)) {
    const piece = m[0];
    const c = piece.charCodeAt(0);
    const lower = c | 32;
    if (lower >= 97 && lower <= 122) total += WORD + (piece.length > 6 ? (piece.length - 6) * LONG_WORD_CHAR : 0);
    else if (c >= 48 && c <= 57) total += Math.ceil(piece.length / 3) * DIGIT_GROUP;
    else if (c >= 128) total += NON_ASCII_UNIT;
    else if (c === 10) total += NEWLINES;
    else if (c === 32 || c === 9) total += piece.length > 1 ? INDENT : 0;
    else total += piece.length * PUNCTUATION_CHAR;
  }
  return Math.max(1, Math.round(total));
}
