import { isAsciiLetter, tagEnd } from "./inline-html.js";
import type { TextFinder } from "./text-finder.js";

/**
 * The seven kinds of CommonMark HTML blocks, by start condition:
 * 1 `<pre|script|style|textarea`, 2 `<!--`, 3 `<?`, 4 `<!X`, 5 `<![CDATA[` (each runs to the line that holds
 * its end: `</pre>`… / `-->` / `?>` / `>` / `]]>`), 6 a block-level tag such as `<div` or `</table`, and 7 a
 * lone complete open or closing tag (both run to the next blank line). Kind 7 cannot interrupt a paragraph.
 */
export type HtmlBlockKind = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The kind of HTML block that starts at `at` (a line's first character after up to three spaces), if any. */
export function htmlBlockStart(
  text: string,
  at: number,
  lineEnd: number,
  inParagraph: boolean,
  finder: TextFinder,
): HtmlBlockKind | undefined {
  if (text.charCodeAt(at) !== LESS) return undefined;
  const next = text.charCodeAt(at + 1);
  if (next === BANG) {
    if (text.startsWith("<!--", at)) return 2;
    if (text.startsWith("<![CDATA[", at)) return 5;
    return isAsciiLetter(text.charCodeAt(at + 2)) ? 4 : undefined;
  }
  if (next === QUESTION) return 3;
  const closing = next === SLASH;
  const nameStart = closing ? at + 2 : at + 1;
  let nameEnd = nameStart;
  while (nameEnd < lineEnd && isTagNameChar(text.charCodeAt(nameEnd))) nameEnd++;
  if (nameEnd === nameStart || !isAsciiLetter(text.charCodeAt(nameStart))) return undefined;
  const name = text.slice(nameStart, Math.min(nameEnd, nameStart + 12)).toLowerCase();
  const after = nameEnd < lineEnd ? text.charCodeAt(nameEnd) : Number.NaN;
  const ends = Number.isNaN(after) || after === SPACE || after === TAB || after === GREATER;
  if (!closing && RAW_NAMES.has(name) && ends) return 1;
  if (BLOCK_NAMES.has(name) && (ends || (after === SLASH && text.charCodeAt(nameEnd + 1) === GREATER))) return 6;
  if (inParagraph || (!closing && RAW_NAMES.has(name))) return undefined;
  const end = tagEnd(text, at, lineEnd, finder);
  if (end === undefined) return undefined;
  for (let i = end; i < lineEnd; i++) {
    const code = text.charCodeAt(i);
    if (code !== SPACE && code !== TAB) return undefined;
  }
  return 7;
}

/**
 * Whether the line `[from, lineEnd)` holds the end of an HTML block of `kind` 1–5 (kinds 6 and 7 end
 * at a blank line instead).
 */
export function htmlBlockEnds(
  kind: HtmlBlockKind,
  _text: string,
  from: number,
  lineEnd: number,
  finder: TextFinder,
): boolean {
  const found =
    kind === 1
      ? // Stryker disable next-line StringLiteral: the key only names this search's memory, which no other search shares
        finder.match("raw-end", RAW_END, from)
      : finder.find(kind === 2 ? "-->" : kind === 3 ? "?>" : kind === 4 ? ">" : "]]>", from);
  if (found === -1) return false;
  const length = kind === 1 ? 0 : kind === 2 ? 3 : kind === 3 ? 2 : kind === 4 ? 1 : 3;
  return found + length <= lineEnd;
}

/** Where an end-condition search starts on the block's first line (`<!-->` and `<?>` end where they start). */
export function htmlEndSearchStart(kind: HtmlBlockKind, at: number): number {
  return kind === 2 || kind === 4 ? at + 2 : kind === 3 ? at + 1 : at;
}

const RAW_END = /<\/(?:pre|script|style|textarea)>/gi;
const RAW_NAMES = new Set(["pre", "script", "style", "textarea"]);
const BLOCK_NAMES = new Set(
  (
    "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt " +
    "fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link " +
    "main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead " +
    "title tr track ul"
  ).split(" "),
);

function isTagNameChar(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d;
}

const TAB = 0x09;
const SPACE = 0x20;
const BANG = 0x21;
const SLASH = 0x2f;
const LESS = 0x3c;
const GREATER = 0x3e;
const QUESTION = 0x3f;
