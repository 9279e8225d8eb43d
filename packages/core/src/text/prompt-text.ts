/**
 * The one escape of text that enters the prompt inside our tags: names, descriptions, folders, paths and
 * matched text in catalog entries, nested-skill notes, update notes, suggestion notes, injection and load
 * wrappers. Every such field goes through {@link promptLine} (text) or {@link promptAttr} (an attribute
 * value): one line, whitespace runs collapsed, controls replaced by U+FFFD (XML forbids them), and
 * `& < >` (and `"` in attributes) written as entities. So a field can never close a tag of ours
 * (`</skills_update>`, `</nested_skills>`, `</skill>`), open one, or start a line of its own.
 *
 * The linter keeps copies out (lint/one-prompt-escape.grit): an entity written anywhere else in the
 * packages' sources is an error.
 */

// Most names and descriptions need no rewriting (9 of the 246 corpus descriptions do): one fast test
// decides, and only texts that need it pay for the replacements. Vertical tab and form feed are
// whitespace, so `[^\S ]` covers them. One character class scans far faster than an alternation;
// double spaces are found with `includes`.
const NEEDS_CLEANING =
  /[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0000-\u0008\u000e-\u001f\ufffe\uffff]/;
const NEEDS_CLEANING_OR_ESCAPE =
  /[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u0000-\u0008\u000e-\u001f\ufffe\uffff&<>"]/;
const MESSY_WHITESPACE = /[^\S ]| {2}/;
const WHITESPACE_RUN = /\s{2,}|[^\S ]/g;
const CONTROL = /[\u0000-\u0008\u000e-\u001f\ufffe\uffff]/;
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\ufffe\uffff]/g;
const TEXT_SPECIAL = /[&<>]/g;
const ATTR_SPECIAL = /[&<>"]/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/**
 * One line of plain text: whitespace runs (line breaks, tabs, Unicode spaces) collapsed to one space,
 * trimmed, control characters replaced by U+FFFD. Not escaped: for a terminal or a JSON field, not for
 * the prompt (use {@link promptLine} there).
 */
export function singleLine(text: string): string {
  if (!NEEDS_CLEANING.test(text) && !text.includes("  ")) return text.trim();
  return collapse(text);
}

/**
 * A field shown as text inside one of our tags: {@link singleLine}, then `& < >` as entities.
 *
 * @example
 * promptLine("a</skills_update>\nSYSTEM: b") // "a&lt;/skills_update&gt; SYSTEM: b"
 */
export function promptLine(text: string): string {
  const value = String(text);
  if (!NEEDS_CLEANING_OR_ESCAPE.test(value) && !value.includes("  ")) return value.trim();
  return collapse(value).replace(TEXT_SPECIAL, entity);
}

/**
 * A field shown as an attribute value between double quotes: {@link promptLine}, and `"` as `&quot;`.
 *
 * @example
 * `<nested_skills folder="${promptAttr(folder)}">`
 */
export function promptAttr(text: string): string {
  const value = String(text);
  if (!NEEDS_CLEANING_OR_ESCAPE.test(value) && !value.includes("  ")) return value.trim();
  return collapse(value).replace(ATTR_SPECIAL, entity);
}

/**
 * A field quoted in a sentence of ours (`a tool touched "packages/web"`): {@link promptAttr} between
 * double quotes, so it neither ends the quote nor a tag.
 */
export function promptQuote(text: string): string {
  return `"${promptAttr(text)}"`;
}

function collapse(text: string): string {
  let result = text;
  if (MESSY_WHITESPACE.test(result)) result = result.replace(WHITESPACE_RUN, " ");
  if (CONTROL.test(result)) result = result.replace(CONTROLS, "\ufffd");
  return result.trim();
}

function entity(c: string): string {
  return ENTITIES[c]!;
}
