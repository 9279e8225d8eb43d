import { FrontmatterScanner, leadingSpaces } from "./frontmatter-scan.js";
import { MAX_YAML_DEPTH } from "./limits.js";
import { parseYamlBlock, tooDeep } from "./yaml-document.js";

/** One value that was put in quotes. */
export interface QuotedValue {
  /** 0-based line in the block. */
  line: number;
  /** The value as it was written. */
  value: string;
  /**
   * Why it was quoted: `colon` for a plain value with an unquoted `: ` (or a trailing `:`), `flow` for a
   * value that opens like a flow collection or a reserved indicator (`[`, `{`, `@`, `` ` ``) but is not valid
   * YAML on its own line, such as `tags: [next,@supabase/ssr]`; `no-space` for a top-level `name:` or
   * `description:` line with no space after the colon (`name:no-space-name`), read as Gemini CLI's line
   * reader reads it.
   */
  kind: "colon" | "flow" | "no-space";
}

/** Options for {@link quoteColonValues}. */
export interface QuoteValuesOptions {
  /**
   * Also repair values that open like a flow collection or a reserved indicator (`[`, `{`, `@`, `` ` ``)
   * and are not YAML on their own line: Codex's rule for SKILL.md. Off for the other files (legacy
   * OpenHands skills, rules): their owners' parsers refuse such a block. @default false
   */
  flowLike?: boolean;
}

/**
 * The one repair of frontmatter that strict YAML rejects, run only after a parse failed, and Codex's rule
 * (openai/codex codex-rs skills loader: `repair_frontmatter_scalar_fields`, tests
 * `repairs_unrecognized_frontmatter_fields_that_need_quotes`): each `key: value` line, at any depth and
 * outside block scalars, whose value is plain prose with an unquoted `: ` (`argument-hint: <duration: e.g.
 * 7d, 2w>`), or (with `flowLike`, for SKILL.md) opens like a flow collection or a reserved indicator
 * and does not parse alone (`tags: [next,@supabase/ssr]`), is read as one quoted string. Continuation lines of a multi-line plain
 * value are taken into the quotes (double-quoted scalars fold lines the same way). A value with a ` #`
 * comment, and a flow value that spans lines, are left alone. The caller parses the result again and
 * keeps it only when that parse succeeds. Returns undefined when nothing changed.
 *
 * A repaired value can never add a key: the whole value, with its quotes and backslashes escaped, becomes
 * one double-quoted scalar of the key that was written before it.
 */
export function quoteColonValues(
  block: string,
  options: QuoteValuesOptions = {},
): { text: string; quoted: QuotedValue[] } | undefined {
  const flowLike = options.flowLike ?? false;
  const lines = block.split("\n");
  const quoted: QuotedValue[] = spaceAfterKey(lines);
  const scanner = new FrontmatterScanner();
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const info = scanner.push(line);
    const at = info.plain ?? (flowLike ? info.flow : undefined);
    if (at === undefined) {
      i++;
      continue;
    }
    // Gather the continuation lines of this value (a plain value's; a flow value's are not repaired).
    let last = i;
    let spans = false;
    while (last + 1 < lines.length) {
      const next = scanner.push(lines[last + 1]!);
      if (next.continuation === true) {
        last++;
        continue;
      }
      // A flow collection that goes on below its key's line: the scanner skipped that line as part of it.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: the scanner reads a line indented past a flow value's key as part of it (no fence, no plain or flow value), and `spans` serves flow values only, so the indentation test below decides alone
      if (info.flow !== undefined && !next.closes && next.plain === undefined && next.flow === undefined) {
        const rest = lines[last + 1]!;
        if (rest.trim() !== "" && leadingSpaces(rest) > at.keyColumn) spans = true;
      }
      break;
    }
    // Blank lines after the value belong to no one: they stay outside the quotes.
    let end = last;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: line i holds the key and is never blank, so the loop stops there either way
    while (end > i && lines[end]!.trim() === "") end--;
    const head = line.slice(at.start).replace(/[ \t]+$/, "");
    const tail = lines.slice(i + 1, end + 1);
    const whole = [head, ...tail].join("\n");
    const kind = info.flow !== undefined ? flowRepair(head, spans) : plainRepair(whole, flowLike);
    if (kind !== undefined) {
      lines[i] = `${line.slice(0, at.start)}"${escapeQuoted(head)}${tail.length === 0 ? '"' : ""}`;
      for (let k = i + 1; k <= end; k++) {
        lines[k] = escapeQuoted(lines[k]!.replace(/[ \t]+$/, "")) + (k === end ? '"' : "");
      }
      quoted.push({ line: i, value: whole, kind });
    }
    i = last + 1;
    // The scanner has seen line `last + 1` already; a plain value leaves no open quote or block
    // behind, so a fresh scanner fed from that line on reads it exactly as before.
    scanner.reset();
  }
  if (quoted.length === 0) return undefined;
  return { text: lines.join("\n"), quoted };
}

/**
 * Gemini CLI's fallback line reader (google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts,
 * `parseSimpleFrontmatter`, run when js-yaml rejects the block) matches `name:` and `description:` at
 * the start of a line with or without a space, so `name:no-space-name` names the skill. Strict YAML reads
 * that line as one plain scalar and the block breaks. Such top-level lines (column 0, a value that does
 * not open with a quote) are rewritten in place as `key: "value"`, one line for one line. Changes `lines`.
 */
function spaceAfterKey(lines: string[]): QuotedValue[] {
  const quoted: QuotedValue[] = [];
  // Stryker disable next-line EqualityOperator: lines[lines.length] is undefined, which the pattern below never matches
  for (let i = 0; i < lines.length; i++) {
    const match = /^(name|description):([^\s"'].*)$/.exec(lines[i]!);
    if (match === null) continue;
    const value = match[2]!.replace(/[ \t]+$/, "");
    lines[i] = `${match[1]!}: "${escapeQuoted(value)}"`;
    quoted.push({ line: i, value, kind: "no-space" });
  }
  return quoted;
}

function plainRepair(whole: string, flowLike: boolean): QuotedValue["kind"] | undefined {
  // Stryker disable next-line Regex: a plain value never starts with `#` (the scanner reads that as a comment), so `^#` never occurs
  if (/(^|[ \t])#/.test(whole)) return undefined;
  if (/:[ \t]|:$|:\n/.test(whole)) return "colon";
  // `@` and `` ` `` are reserved: YAML starts no plain scalar with them.
  if (flowLike && (whole.startsWith("@") || whole.startsWith("`"))) return "flow";
  return undefined;
}

function flowRepair(head: string, spans: boolean): QuotedValue["kind"] | undefined {
  // Nesting past the cap is refused, never read as text: the cap is ours, not a YAML error to repair.
  // Stryker disable next-line Regex: a flow value starts with `[` or `{`, so `^#` never occurs
  if (spans || /(^|[ \t])#/.test(head) || tooDeep(head, MAX_YAML_DEPTH) !== undefined) return undefined;
  return parseYamlBlock(head).errors.length > 0 ? "flow" : undefined;
}

function escapeQuoted(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}
