/** Line-level recognisers for the CommonMark block starts the scanner needs, each reading one line. */

/** A fence opener at `at`: ``` or ~~~ (three or more); a backtick fence's info string may hold no backtick. */
export function fenceOpener(text: string, at: number, end: number): { char: number; length: number } | undefined {
  const char = text.charCodeAt(at);
  if (char !== BACKTICK && char !== TILDE) return undefined;
  const length = runLength(text, at, end, char);
  if (length < 3) return undefined;
  if (char === BACKTICK) {
    for (let i = at + length; i < end; i++) if (text.charCodeAt(i) === BACKTICK) return undefined;
  }
  return { char, length };
}

/** Whether the line from `at` closes a fence of `char` at least `length` long (only spaces and tabs after). */
export function closesFence(text: string, at: number, end: number, char: number, length: number): boolean {
  const run = runLength(text, at, end, char);
  return run >= length && onlySpaceFrom(text, at + run, end);
}

/** An ATX heading opener: one to six `#` followed by a space, a tab or the end of the line. */
export function isAtxHeading(text: string, at: number, end: number): boolean {
  const run = runLength(text, at, end, HASH);
  if (run < 1 || run > 6) return false;
  return at + run === end || isSpaceOrTab(text.charCodeAt(at + run));
}

/** A setext underline: a run of `=` or `-`, then only spaces and tabs. */
export function isSetextUnderline(text: string, at: number, end: number): boolean {
  const char = text.charCodeAt(at);
  if (char !== EQUALS && char !== DASH) return false;
  return onlySpaceFrom(text, at + runLength(text, at, end, char), end);
}

/** A thematic break: three or more `*`, `-` or `_` (the same one), spaces and tabs between them, nothing else. */
export function isThematicBreak(text: string, at: number, end: number): boolean {
  const char = text.charCodeAt(at);
  if (char !== STAR && char !== DASH && char !== UNDERSCORE) return false;
  let count = 0;
  for (let i = at; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === char) count++;
    else if (!isSpaceOrTab(code)) return false;
  }
  return count >= 3;
}

/** A list marker at `at`: `-`, `+`, `*`, or one to nine digits and `.` or `)`, then a space, a tab or the end. */
export function listMarker(
  text: string,
  at: number,
  end: number,
): { length: number; ordered: boolean; startsAtOne: boolean } | undefined {
  const first = text.charCodeAt(at);
  let length: number;
  let ordered = false;
  let startsAtOne = true;
  if (first === DASH || first === PLUS || first === STAR) {
    length = 1;
  } else {
    let i = at;
    while (i < end && i - at < 10 && isDigit(text.charCodeAt(i))) i++;
    const digits = i - at;
    const delimiter = text.charCodeAt(i);
    if (digits < 1 || digits > 9 || (delimiter !== DOT && delimiter !== CLOSE_PAREN)) return undefined;
    ordered = true;
    startsAtOne = Number(text.slice(at, i)) === 1;
    length = digits + 1;
  }
  if (at + length < end && !isSpaceOrTab(text.charCodeAt(at + length))) return undefined;
  return { length, ordered, startsAtOne };
}

export function isSpaceOrTab(code: number): boolean {
  return code === SPACE || code === TAB;
}

function onlySpaceFrom(text: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) if (!isSpaceOrTab(text.charCodeAt(i))) return false;
  return true;
}

function runLength(text: string, at: number, end: number, char: number): number {
  let i = at;
  while (i < end && text.charCodeAt(i) === char) i++;
  return i - at;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

const TAB = 0x09;
const SPACE = 0x20;
const HASH = 0x23;
const CLOSE_PAREN = 0x29;
const STAR = 0x2a;
const PLUS = 0x2b;
const DASH = 0x2d;
const DOT = 0x2e;
const EQUALS = 0x3d;
const UNDERSCORE = 0x5f;
const BACKTICK = 0x60;
const TILDE = 0x7e;
