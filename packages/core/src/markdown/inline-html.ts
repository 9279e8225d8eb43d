import type { TextFinder } from "./text-finder.js";

/**
 * End offset (exclusive) of the CommonMark raw HTML or autolink that starts at `at` (a `<`) and ends
 * before `end`, or -1. Raw HTML: an open or closing tag, a comment (`<!-->`, `<!--->` or `<!-- … -->`), a
 * processing instruction (`<? … ?>`), a declaration (`<!X … >`) or CDATA (`<![CDATA[ … ]]>`); autolinks:
 * `<scheme:…>` and `<local@domain>`. Like code spans, these are not prose: a backtick inside one opens
 * nothing. Terminator searches go through `finder`, so repeated failures stay linear.
 */
export function inlineHtmlEnd(text: string, at: number, end: number, finder: TextFinder): number {
  const autolink = autolinkEnd(text, at, end); // tried first, as CommonMark does: `<!x@a.b>` is an e-mail link
  return autolink !== -1 ? autolink : rawHtmlEnd(text, at, end, finder);
}

function rawHtmlEnd(text: string, at: number, end: number, finder: TextFinder): number {
  const next = text.charCodeAt(at + 1);
  if (next === BANG) {
    if (text.startsWith("<!--", at)) {
      if (text.startsWith(">", at + 4)) return at + 5 <= end ? at + 5 : -1; // <!-->
      if (text.startsWith("->", at + 4)) return at + 6 <= end ? at + 6 : -1; // <!--->
      return until(finder, "-->", at + 4, end);
    }
    if (text.startsWith("<![CDATA[", at)) return until(finder, "]]>", at + 9, end);
    if (isAsciiLetter(text.charCodeAt(at + 2))) return until(finder, ">", at + 3, end);
    return -1;
  }
  if (next === QUESTION) return until(finder, "?>", at + 2, end);
  return tagEnd(text, at, end, finder) ?? -1;
}

/** End offset of a complete open or closing tag at `at` (no comment, autolink…), or -1. */
export function tagEnd(text: string, at: number, end: number, finder: TextFinder): number | undefined {
  let i = at + 1;
  const closing = text.charCodeAt(i) === SLASH;
  if (closing) i++;
  if (!isAsciiLetter(text.charCodeAt(i))) return undefined;
  i++;
  while (i < end && isTagNameChar(text.charCodeAt(i))) i++;
  if (closing) {
    i = skipWhitespace(text, i, end);
    return i < end && text.charCodeAt(i) === GREATER ? i + 1 : undefined;
  }
  for (;;) {
    const afterSpace = skipWhitespace(text, i, end);
    if (afterSpace >= end) return undefined;
    const code = text.charCodeAt(afterSpace);
    if (code === GREATER) return afterSpace + 1;
    if (code === SLASH)
      return text.charCodeAt(afterSpace + 1) === GREATER && afterSpace + 2 <= end ? afterSpace + 2 : undefined;
    if (afterSpace === i || !isAttributeNameStart(code)) return undefined; // an attribute needs whitespace before it
    i = afterSpace + 1;
    while (i < end && isAttributeNameChar(text.charCodeAt(i))) i++;
    const beforeEquals = skipWhitespace(text, i, end);
    if (text.charCodeAt(beforeEquals) !== EQUALS || beforeEquals >= end) continue; // attribute without a value
    const valueStart = skipWhitespace(text, beforeEquals + 1, end);
    if (valueStart >= end) return undefined;
    const quote = text.charCodeAt(valueStart);
    if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
      const close = finder.find(quote === DOUBLE_QUOTE ? '"' : "'", valueStart + 1);
      if (close === -1 || close >= end) return undefined;
      i = close + 1;
    } else {
      i = valueStart;
      while (i < end && isUnquotedValueChar(text.charCodeAt(i))) i++;
      if (i === valueStart) return undefined;
    }
  }
}

const SCHEME = /[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\u0000-\u0020<>]*>/y;
const EMAIL =
  /[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*>/y;

// Each pattern stops at the first `<`, space or `>`, so the attempts of a whole scan stay linear.
function autolinkEnd(text: string, at: number, end: number): number {
  for (const pattern of [SCHEME, EMAIL]) {
    pattern.lastIndex = at + 1;
    if (pattern.test(text) && pattern.lastIndex <= end) return pattern.lastIndex;
  }
  return -1;
}

function until(finder: TextFinder, term: string, from: number, end: number): number {
  const found = finder.find(term, from);
  return found === -1 || found + term.length > end ? -1 : found + term.length;
}

/** Spaces, tabs and line endings (a blank line never occurs inside one prose segment). */
function skipWhitespace(text: string, from: number, end: number): number {
  let i = from;
  while (i < end) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== TAB && code !== NEWLINE && code !== CARRIAGE_RETURN) break;
    i++;
  }
  return i;
}

export function isAsciiLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isTagNameChar(code: number): boolean {
  return isAsciiLetter(code) || isDigit(code) || code === 0x2d;
}

function isAttributeNameStart(code: number): boolean {
  return isAsciiLetter(code) || code === 0x5f || code === 0x3a;
}

function isAttributeNameChar(code: number): boolean {
  return isAttributeNameStart(code) || isDigit(code) || code === 0x2e || code === 0x2d;
}

function isUnquotedValueChar(code: number): boolean {
  return !(
    Number.isNaN(code) ||
    code === SPACE ||
    code === TAB ||
    code === NEWLINE ||
    code === CARRIAGE_RETURN ||
    code === DOUBLE_QUOTE ||
    code === SINGLE_QUOTE ||
    code === EQUALS ||
    code === 0x3c ||
    code === GREATER ||
    code === 0x60
  );
}

const TAB = 0x09;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const GREATER = 0x3e;
const QUESTION = 0x3f;
