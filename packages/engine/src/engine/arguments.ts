/**
 * Claude Code's string substitutions in a skill body: the arguments of a user invocation (`$ARGUMENTS`,
 * `$ARGUMENTS[N]`, `$N`, named `$name`) and the skill's variables (`${CLAUDE_SKILL_DIR}`, `${SKILL_DIR}`,
 * `${CLAUDE_SESSION_ID}`). Applied to the RENDERED body: argument text is the user's and never runs.
 */

/** What a body's placeholders stand for. */
export interface Substitutions {
  /**
   * The raw argument text of a user invocation (`staging --dry-run` for `/deploy staging --dry-run`),
   * `""` for an invocation without arguments. Undefined when the body was not invoked by the user
   * (`load_skill`, triggers): argument placeholders then stay as written.
   */
  args?: string | undefined;
  /** Names of the positional arguments (Claude Code `arguments:`), usable as `$name`. */
  argumentNames?: readonly string[] | undefined;
  /** Absolute folder of the skill, for `${CLAUDE_SKILL_DIR}` and `${SKILL_DIR}`; undefined leaves them as written. */
  skillDir?: string | undefined;
  /** The conversation's session id, for `${CLAUDE_SESSION_ID}`. */
  sessionId?: string | undefined;
  /**
   * Stop building the text past this many UTF-16 units (the caller caps the result in bytes, and a unit
   * is at least one byte): a body full of `$ARGUMENTS` and huge arguments cannot blow up memory.
   * @default Infinity
   */
  maxChars?: number | undefined;
}

/** The substituted text, and whether any argument placeholder was used. */
export interface Substituted {
  text: string;
  /** The body used an argument placeholder (`$ARGUMENTS`, `$ARGUMENTS[N]`, `$N` or a named one). */
  usedArguments: boolean;
  /** Building stopped at `maxChars`. */
  cut: boolean;
}

/**
 * Replaces the placeholders of `body` in ONE pass, so text put in is never scanned again: an argument
 * that reads `$ARGUMENTS` or `${CLAUDE_SKILL_DIR}` stays as the user wrote it.
 *
 * As in Claude Code: `$ARGUMENTS` is the raw argument text; `$ARGUMENTS[N]` and `$N` are the N-th
 * argument, 0-based, after shell-like splitting ({@link splitArguments}), `""` when missing; `$name`
 * is the argument at the position of `name` in `argumentNames`, `""` when missing; when a user
 * invocation has arguments and the body uses none of these, `\n\nARGUMENTS: <args>` is appended.
 * `${CLAUDE_SKILL_DIR}` / `${SKILL_DIR}` are the skill's folder and `${CLAUDE_SESSION_ID}` the
 * session id. Unknown `$words` and `${…}` stay as written. Linear in body and arguments.
 *
 * @example
 * substitute("Deploy $0 ($ARGUMENTS)", { args: '"eu west" --fast' }).text // 'Deploy eu west ("eu west" --fast)'
 */
export function substitute(body: string, subs: Substitutions): Substituted {
  const { args } = subs;
  const maxChars = subs.maxChars ?? Number.POSITIVE_INFINITY;
  const names = namePositions(subs.argumentNames);
  let parts: string[] | undefined;
  const part = (index: number): string => (parts ??= splitArguments(args ?? ""))[index] ?? "";

  let out = "";
  let last = 0;
  let usedArguments = false;
  let cut = false;
  if (body.includes("$")) {
    PLACEHOLDER.lastIndex = 0;
    for (let m = PLACEHOLDER.exec(body); m !== null; m = PLACEHOLDER.exec(body)) {
      const [span, variable, bracketIndex, index, word] = m;
      let value: string | undefined;
      if (variable !== undefined) value = variable === "CLAUDE_SESSION_ID" ? subs.sessionId : subs.skillDir;
      else if (args === undefined) value = undefined;
      else if (bracketIndex !== undefined || index !== undefined) value = part(Number(bracketIndex ?? index));
      else if (word === "ARGUMENTS") value = args;
      else if (word !== undefined && names.has(word)) value = part(names.get(word)!);
      if (value === undefined) continue;
      if (variable === undefined) usedArguments = true;
      out += body.slice(last, m.index);
      last = m.index + span.length;
      if (out.length + value.length > maxChars) {
        out += value.slice(0, Math.max(0, maxChars - out.length));
        cut = true;
        break;
      }
      out += value;
    }
  }
  if (!cut) {
    const rest = last === 0 ? body : body.slice(last);
    if (out.length + rest.length > maxChars) {
      out += rest.slice(0, Math.max(0, maxChars - out.length));
      cut = true;
    } else {
      out += rest;
    }
  }
  if (!cut && args !== undefined && args !== "" && !usedArguments) {
    const appended = `\n\nARGUMENTS: ${args}`;
    if (out.length + appended.length > maxChars) {
      out += appended.slice(0, Math.max(0, maxChars - out.length));
      cut = true;
    } else {
      out += appended;
    }
  }
  return { text: out, usedArguments, cut };
}

/**
 * Splits argument text the way a POSIX shell splits words, without expanding anything: white space
 * separates; `'…'` is literal; `"…"` is literal except that `\` escapes `"`, `\`, `$` and `` ` ``; a
 * `\` outside quotes escapes the next character. `$VAR`, globs and operators (`|`, `;`, `&&`, `>`)
 * are plain text. Text with an unclosed quote is split at white space only, as Claude Code does when
 * its shell parser fails. Linear in the text.
 *
 * @example
 * splitArguments(`a "b c" 'd e' f\\ g`) // ["a", "b c", "d e", "f g"]
 */
export function splitArguments(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === "\\" && i + 1 < text.length && DOUBLE_QUOTE_ESCAPES.has(text[i + 1]!)) word += text[++i]!;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < text.length) {
      word += text[++i]!;
      inWord = true;
    } else if (WHITE_SPACE.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== undefined) return text.split(/\s+/u).filter((w) => w !== "");
  if (inWord) words.push(word);
  return words;
}

// ---------------------------------------------------------------------------------------------

/**
 * `${CLAUDE_SKILL_DIR}` / `${SKILL_DIR}` / `${CLAUDE_SESSION_ID}`, `$ARGUMENTS[N]`, `$N` (not followed
 * by a word character), or `$word` (a name or `ARGUMENTS`, not followed by `[`).
 */
const PLACEHOLDER =
  /\$(?:\{(CLAUDE_SKILL_DIR|SKILL_DIR|CLAUDE_SESSION_ID)\}|ARGUMENTS\[(\d{1,6})\]|(\d{1,6})(?!\w)|([A-Za-z_]\w*)(?![[\w]))/g;
const NAME = /^[A-Za-z_]\w*$/;
const WHITE_SPACE = /\s/u;
const DOUBLE_QUOTE_ESCAPES = new Set(['"', "\\", "$", "`"]);

/** Declared argument names → position; names that are not identifiers, or `ARGUMENTS`, are ignored; the first of a repeated name wins. */
function namePositions(names: readonly string[] | undefined): Map<string, number> {
  const positions = new Map<string, number>();
  if (!Array.isArray(names)) return positions;
  names.forEach((name, i) => {
    if (typeof name === "string" && NAME.test(name) && name !== "ARGUMENTS" && !positions.has(name))
      positions.set(name, i);
  });
  return positions;
}
