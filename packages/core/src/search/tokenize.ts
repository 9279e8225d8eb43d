import { STOP_WORDS } from "./stop-words.js";

/** A stemmer for one lower-cased ASCII word ({@link singular} in the index). */
export type Stem = (word: string) => string;

// Runs of letters, digits and marks: Unicode-aware, so "café", "naïve" and "日本語" stay words.
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
// Scripts written without spaces: each character is a term of its own (no dictionary segmenter).
const NO_SPACE = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;
// Words the English stemmer may change: plain ASCII letters (a stemmer for English mangles other scripts).
const ASCII_WORD = /^[a-z]+$/;
const RUN = /[A-Za-z0-9\u0080-\uffff]+/;
const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_TEXT = /^[\x00-\x7f]*$/;
// What each ASCII character is to a word: a separator, a lower-case letter or digit, an upper-case letter.
const SEPARATOR = 0;
const LOWER_OR_DIGIT = 1;
const UPPER = 2;
// Any character past ASCII: part of a run, which then takes the Unicode path.
const OTHER = 3;
const ASCII_KIND = new Uint8Array(128);
ASCII_KIND.fill(LOWER_OR_DIGIT, 0x30, 0x3a).fill(UPPER, 0x41, 0x5b).fill(LOWER_OR_DIGIT, 0x61, 0x7b);

/**
 * Splits `text` into words: NFKC-normalised, lower-cased, runs of letters, digits and marks (`-`, `_`,
 * `.` and other punctuation separate words), each character of a script written without spaces a word
 * of its own. A camel-case identifier is kept whole and split too ("OrderRepo" → "orderrepo", "order",
 * "repo"; "ESLint" → "eslint", "es", "lint"), so a request naming it matches it whole, which no part does.
 */
export function splitWords(text: string): string[] {
  const result: string[] = [];
  eachWord(text, (word) => result.push(word));
  return result;
}

/** The distinct words of `text` ({@link splitWords}), in order of first appearance. */
export function uniqueWords(text: string): string[] {
  const seen = new Set<string>();
  eachWord(text, (word) => seen.add(word));
  return [...seen];
}

/**
 * A {@link uniqueWords} for indexing many texts: the same words in the same order, found faster. A run of ASCII
 * letters and digits is looked up in a table of the words this function has seen (by a hash of its lower-cased
 * characters) rather than cut out of the text and hashed into a new Set each time: most words of a skill set
 * were seen before. Runs with other characters take the Unicode path of {@link splitWords}. The table is this
 * function's own (one per index), and starts over past 200,000 words.
 */
export function createUniqueWords(): (text: string) => string[] {
  let table = new WordTable(MIN_TABLE_SLOTS);
  return (original) => {
    // Stryker disable next-line all: the table's bound; a new table sooner, later or never lists the same words
    if (table.used >= MAX_TABLE_WORDS || table.field === MAX_FIELD_STAMP) table = new WordTable(MIN_TABLE_SLOTS);
    // Stryker disable next-line UpdateOperator: counting texts down gives each text its own stamp as well
    table.field++;
    const found: string[] = [];
    // Words with a non-ASCII character (keys the table never holds), this text's.
    let others: Set<string> | undefined;
    const addWord = (word: string) => {
      if (ASCII_TEXT.test(word)) table.add(found, word, 0, word.length, lowerHash(word), true);
      else if (!(others ??= new Set()).has(word)) {
        others.add(word);
        found.push(word);
      }
    };
    const text = ASCII_TEXT.test(original) ? original : original.normalize("NFKC");
    for (const run = new Runs(text); run.next(); ) {
      if (run.other) for (const [word] of text.slice(run.start, run.end).matchAll(WORD)) emitWord(word, addWord);
      else {
        table.add(found, text, run.start, run.end, run.hash, !run.firstUpper && !run.innerUpper);
        // Camel case (rare): its parts too, each lower-cased.
        if (run.innerUpper) for (const part of camelParts(text.slice(run.start, run.end))) addWord(part);
      }
    }
    return found;
  };
}

// The table starts small, doubles when half full, and starts over past this many words (a bound on its memory;
// a skill set's vocabulary is a few thousand words).
const MIN_TABLE_SLOTS = 1024;
const MAX_TABLE_WORDS = 200_000;
const MAX_FIELD_STAMP = 0x7fffffff;

function lowerHash(word: string): number {
  let hash = 0;
  for (let k = 0; k < word.length; k++) hash = lowerCodeHash(hash, word.charCodeAt(k));
  return hash;
}

// A hash of ASCII letters and digits as lower case: `| 0x20` lower-cases a letter and leaves a digit as it is.
function lowerCodeHash(hash: number, code: number): number {
  return (Math.imul(hash, 31) + (code | 0x20)) | 0;
}

// Open addressing (linear probing) over lower-cased words; `stamps` holds the last text each word was found in,
// so that a text lists each word once without a Set of its own.
class WordTable {
  used = 0;
  field = 0;
  private mask: number;
  private hashes: Int32Array;
  private words: (string | undefined)[];
  private stamps: Int32Array;

  constructor(slots: number) {
    this.mask = slots - 1;
    this.hashes = new Int32Array(slots);
    this.words = new Array<string | undefined>(slots).fill(undefined);
    this.stamps = new Int32Array(slots);
  }

  // Adds to `found` the word text[start, end) lower-cased (`lower`: it has no upper-case letter), unless the
  // current text has it already.
  add(found: string[], text: string, start: number, end: number, hash: number, lower: boolean): void {
    const length = end - start;
    let slot = hash & this.mask;
    for (let word = this.words[slot]; word !== undefined; word = this.words[slot]) {
      if (this.hashes[slot] === hash && word.length === length && sameLowerCase(word, text, start, lower)) {
        if (this.stamps[slot] !== this.field) {
          this.stamps[slot] = this.field;
          found.push(word);
        }
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    const raw = text.slice(start, end);
    const word = lower ? raw : raw.toLowerCase();
    this.words[slot] = word;
    this.hashes[slot] = hash;
    this.stamps[slot] = this.field;
    found.push(word);
    if (++this.used * 2 > this.words.length) this.grow();
  }

  private grow(): void {
    const { hashes, words, stamps } = this;
    const slots = words.length * 2;
    this.mask = slots - 1;
    this.hashes = new Int32Array(slots);
    this.words = new Array<string | undefined>(slots).fill(undefined);
    this.stamps = new Int32Array(slots);
    words.forEach((word, old) => {
      if (word === undefined) return;
      let slot = hashes[old]! & this.mask;
      while (this.words[slot] !== undefined) slot = (slot + 1) & this.mask;
      this.words[slot] = word;
      this.hashes[slot] = hashes[old]!;
      this.stamps[slot] = stamps[old]!;
    });
  }
}

// Whether `word` (lower case) is text[start, start + word.length) lower-cased.
function sameLowerCase(word: string, text: string, start: number, lower: boolean): boolean {
  for (let k = 0; k < word.length; k++) {
    const code = text.charCodeAt(start + k);
    if (word.charCodeAt(k) !== (lower ? code : code | 0x20)) return false;
  }
  return true;
}

function eachWord(text: string, emit: (word: string) => void): void {
  if (ASCII_TEXT.test(text)) {
    eachAsciiWord(text, emit);
    return;
  }
  // Two passes, for speed: runs of ASCII letters and digits or of any non-ASCII text (a cheap pattern),
  // then, for a run with non-ASCII text only, Unicode's letters, digits and marks (a slow pattern).
  const runs = new RegExp(RUN.source, "g");
  const normalized = text.normalize("NFKC");
  for (let found = runs.exec(normalized); found !== null; found = runs.exec(normalized)) {
    const raw = found[0];
    if (NON_ASCII.test(raw)) for (const [word] of raw.matchAll(WORD)) emitWord(word, emit);
    else {
      // Most words: plain ASCII, already lower case.
      const lower = raw.toLowerCase();
      emit(lower);
      if (lower !== raw) for (const part of camelParts(raw)) emit(part);
    }
  }
}

// ASCII text (most skills): NFKC leaves it as it is, and a scan of character codes finds the same runs of
// letters and digits as the patterns below without a match object per word.
function eachAsciiWord(text: string, emit: (word: string) => void): void {
  for (const run = new Runs(text); run.next(); ) {
    const raw = text.slice(run.start, run.end);
    // An upper-case letter after the first may start a camel-case part ("pdfForms", "HTTPServer").
    emit(run.firstUpper || run.innerUpper ? raw.toLowerCase() : raw);
    if (run.innerUpper) for (const part of camelParts(raw)) emit(part);
  }
}

// The runs of a text between ASCII separators (runs of ASCII letters and digits and of non-ASCII characters,
// the runs of eachWord), found by a scan of character codes: where each is, how its letters are cased, whether
// it holds a non-ASCII character, and the hash of its characters lower-cased (the word table's key).
class Runs {
  start = 0;
  end = 0;
  firstUpper = false;
  innerUpper = false;
  other = false;
  hash = 0;

  constructor(private readonly text: string) {}

  // Moves to the next run; false past the last.
  next(): boolean {
    const { text } = this;
    const length = text.length;
    let i = this.end;
    let code = 0;
    let kind = SEPARATOR;
    for (; i < length; i++) {
      code = text.charCodeAt(i);
      kind = code < 0x80 ? ASCII_KIND[code]! : OTHER;
      if (kind !== SEPARATOR) break;
    }
    if (i >= length) return false;
    this.start = i;
    this.firstUpper = kind === UPPER;
    let innerUpper = false;
    let other = kind === OTHER;
    let hash = lowerCodeHash(0, code);
    for (i++; i < length; i++) {
      code = text.charCodeAt(i);
      kind = code < 0x80 ? ASCII_KIND[code]! : OTHER;
      if (kind === SEPARATOR) break;
      if (kind === UPPER) innerUpper = true;
      else if (kind === OTHER) other = true;
      hash = lowerCodeHash(hash, code);
    }
    this.end = i;
    this.innerUpper = innerUpper;
    this.other = other;
    this.hash = hash;
    return true;
  }
}

function emitWord(raw: string, emit: (word: string) => void): void {
  const lower = raw.toLowerCase();
  emitRun(lower, emit);
  if (lower !== raw) for (const part of camelParts(raw)) emitRun(part, emit);
}

function emitRun(run: string, emit: (word: string) => void): void {
  if (!NON_ASCII.test(run) || !NO_SPACE.test(run)) {
    emit(run);
    return;
  }
  let buffer = "";
  for (const char of run) {
    if (NO_SPACE.test(char)) {
      if (buffer !== "") emit(buffer);
      buffer = "";
      emit(char);
    } else buffer += char;
  }
  if (buffer !== "") emit(buffer);
}

/**
 * The search term of one word, or undefined for a word that never decides a match: a stop word, a
 * single Latin letter or digit. ASCII words of 4+ letters go through `stem` (the index uses {@link singular}:
 * "forms" → "form", never "settings" → "set").
 */
export function searchTerm(word: string, stem: Stem): string | undefined {
  if (STOP_WORDS.has(word)) return undefined;
  if (word.length < 2 && !NO_SPACE.test(word)) return undefined;
  if (!ASCII_WORD.test(word) || word.length < 4) return word;
  return stem(word);
}

/**
 * The singular of an English plural, by its ending only (Harman's "S" stemmer): "queries" → "query",
 * "types" → "type", "repos" → "repo"; "class", "status", "analysis" and every word not ending in "s" stay as
 * they are. Unlike a Porter stemmer it never merges different words ("settings"/"set", "testers"/"test",
 * "added"/"ad", "development"/"develop"), so a rare word stays rare and a request's word meets its own plural.
 */
export function singular(word: string): string {
  const n = word.length;
  if (n < 4 || word.charCodeAt(n - 1) !== 0x73) return word;
  if (word.endsWith("ies") && !word.endsWith("eies") && !word.endsWith("aies")) return `${word.slice(0, -3)}y`;
  // Stryker disable next-line all: Harman's -es rule drops the s, as the last line does for every word ending in -es
  if (word.endsWith("es") && !/[aeo]es$/.test(word)) return word.slice(0, -1);
  if (/(?:ss|us|is)$/.test(word)) return word;
  return word.slice(0, -1);
}

/** The distinct search terms of `text`, in order of first appearance. */
export function searchTerms(text: string, stem: Stem): string[] {
  const terms = new Set<string>();
  for (const word of splitWords(text)) {
    const term = searchTerm(word, stem);
    if (term !== undefined) terms.add(term);
  }
  return [...terms];
}

// The lower-cased parts of a camel-case identifier, besides the whole: "pdfForms" → "pdf", "forms";
// "HTTPServer" → "http", "server"; none for a run without a part boundary ("PDF", "Forms"). The plural of
// an acronym is no boundary ("URLs", "APIsFor" → "apis", "for"): "URLs" is not "ur" and "ls".
function camelParts(run: string): string[] {
  if (!/\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u.test(run)) return [];
  const parts = run.split(CAMEL_BOUNDARY);
  return parts.length < 2 ? [] : parts.map((part) => part.toLowerCase());
}

const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})(?!\p{Lu}s(?:\P{Ll}|$))/u;
