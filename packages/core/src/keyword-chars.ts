// The character classes of keyword matching (keyword-matcher.ts): case folding as a `/iu` regex does it,
// and whether a code point is a letter/digit/mark, in a script written without spaces, or whitespace.
// Both are cached for the BMP: the matcher asks about every character of every text it scans.

/** The one unit every run of whitespace becomes. */
export const SPACE = 0x20;

/**
 * Folds one code point the way a JavaScript `/iu` regex canonicalizes it (Unicode simple case
 * folding, up to the choice of representative): `/a/iu.test(b)` iff `foldCodePoint(a) === foldCodePoint(b)`.
 * Internal; exported for tests.
 */
export function foldCodePoint(cp: number): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: ASCII shortcut; computeFold gives the same fold for every code point below 0x81
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the cache holds BMP code points only; computeFold gives the same fold either way
  if (cp > 0xffff) return computeFold(cp);
  const cached = FOLD_CACHE[cp]!;
  // Stryker disable next-line ConditionalExpression: cache hit; computing the fold again gives the same value
  if (cached !== 0) return cached - 1;
  const folded = computeFold(cp);
  FOLD_CACHE[cp] = folded + 1;
  return folded;
}

const FOLD_CACHE = new Int32Array(0x10000);
// Where upper-then-lower casing disagrees with simple case folding (checked exhaustively in the tests).
const FOLD_EXCEPTIONS = new Map<number, number>([
  [0x131, 0x131], // ı folds to itself (only `I` ↔ `i`)
  [0x1fd3, 0x390], // ΐ
  [0x1fe3, 0x3b0], // ΰ
  [0xfb05, 0xfb06], // ﬅ → ﬆ
]);

function computeFold(cp: number): number {
  const exception = FOLD_EXCEPTIONS.get(cp);
  if (exception !== undefined) return exception;
  const char = String.fromCodePoint(cp);
  const upper = single(char.toUpperCase());
  if (upper !== undefined) {
    const lower = single(String.fromCodePoint(upper).toLowerCase());
    return lower ?? upper;
  }
  return single(char.toLowerCase()) ?? cp;
}

function single(text: string): number | undefined {
  const cp = text.codePointAt(0)!;
  // Stryker disable next-line EqualityOperator: no case mapping yields U+FFFF, so > and >= agree
  return text.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
}

// Character classes, cached for the BMP: bit 1 letter/digit/mark, bit 2 script without spaces, bit 4 whitespace.
export const WORD = 1;
export const NO_SPACE = 2;
const WHITESPACE = 4;
const KNOWN = 8;
const CLASS_CACHE = asciiClasses();
// Stryker disable next-line Regex: tested on one character at a time, so the anchors change nothing
const WORD_RE = /^[\p{L}\p{N}\p{M}]$/u;
const NO_SPACE_RE =
  // Stryker disable next-line Regex: tested on one character at a time, so the anchors change nothing
  /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]$/u;
// Stryker disable next-line Regex: tested on one character at a time, so the anchors change nothing
const WHITESPACE_RE = /^\s$/u;

export function classOf(cp: number): number {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: cache lookup; the regexes give the same class without it
  if (cp <= 0xffff) {
    const cached = CLASS_CACHE[cp]!;
    // Stryker disable next-line ConditionalExpression: cache hit; the regexes give the same class
    if (cached !== 0) return cached;
  }
  const char = String.fromCodePoint(cp);
  const value =
    KNOWN |
    (WORD_RE.test(char) ? WORD : 0) |
    (NO_SPACE_RE.test(char) ? NO_SPACE : 0) |
    (WHITESPACE_RE.test(char) ? WHITESPACE : 0);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: cache store (a store past the BMP is a no-op on the typed array); no result changes
  if (cp <= 0xffff) CLASS_CACHE[cp] = value;
  return value;
}

// ASCII's classes, written out: the first test of a Unicode property regex compiles it (about 2 ms in a
// cold process), and most text a matcher reads is ASCII.
function asciiClasses(): Uint8Array {
  const classes = new Uint8Array(0x10000);
  // Stryker disable next-line all: ASCII's classes are a cache of classOf's regexes; without the table the regexes give the same classes
  for (let cp = 0; cp < 0x80; cp++) {
    const word = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
    // Stryker disable next-line all: the whitespace bit of ASCII's table is never read (isWhitespace answers ASCII itself)
    const space = cp === SPACE || (cp >= 0x09 && cp <= 0x0d);
    classes[cp] = KNOWN | (word ? WORD : 0) | (space ? WHITESPACE : 0);
  }
  return classes;
}

export function isWhitespace(cp: number): boolean {
  if (cp < 0x80) return cp === SPACE || (cp >= 0x09 && cp <= 0x0d);
  return (classOf(cp) & WHITESPACE) !== 0;
}
