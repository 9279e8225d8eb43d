/**
 * A line classifier for YAML frontmatter, just precise enough to tell (a) which line of dashes
 * closes the block and (b) which lines hold a plain value with an unquoted `: ` in it.
 * It is not a YAML parser: the `yaml` package decides what the block means.
 */

/** A line of three or more dashes at column 0 (trailing blanks allowed). */
export const FENCE = /^-{3,}[ \t]*$/;

/** What the scanner knows about one line of the block. */
export interface ScannedLine {
  /** True when the line is a fence that closes the block. */
  closes: boolean;
  /**
   * Set when the line starts a plain (unquoted) scalar value: `start` is the column where the
   * value begins, `keyColumn` the column of its key (continuation lines are indented past it).
   */
  plain?: { start: number; keyColumn: number };
  /** Set when the line starts a flow collection (`[` or `{`) as the value of a key: the same columns as `plain`. */
  flow?: { start: number; keyColumn: number };
  /** True when the line continues the plain value started on an earlier line. */
  continuation?: boolean;
}

type Quote = '"' | "'";

const SEQUENCE_MARKER = /-(?:[ \t]+|$)/y;

/** Feed lines of a frontmatter block in order; each call tells what that line is. */
export class FrontmatterScanner {
  // Inside a quoted scalar that spans lines.
  private quote: Quote | undefined;
  // Inside a block scalar / plain multi-line value / flow collection: lines indented past this column belong to it.
  private skipPast: number | undefined;
  private skipIsPlain = false;

  /** Forgets everything: the next line is read as if it were the first of a block. */
  reset(): void {
    this.quote = undefined;
    this.skipPast = undefined;
    this.skipIsPlain = false;
  }

  push(line: string): ScannedLine {
    if (this.quote !== undefined) {
      // A `---` inside a quoted value never closes the block.
      const end = findQuoteEnd(line, 0, this.quote);
      if (end !== -1) this.quote = undefined;
      return { closes: false };
    }
    if (FENCE.test(line)) return { closes: true };
    const indent = leadingSpaces(line);
    if (this.skipPast !== undefined) {
      if (line.trim() === "" || indent > this.skipPast) return { closes: false, continuation: this.skipIsPlain };
      this.skipPast = undefined;
      this.skipIsPlain = false;
    }
    return this.analyse(line, indent);
  }

  private analyse(line: string, indent: number): ScannedLine {
    let col = indent;
    // Sequence markers: `- `, `- - ` ...
    // A sticky regex from `col`: no copy of the rest of the line per marker (linear on `- - - - ...`).
    for (;;) {
      SEQUENCE_MARKER.lastIndex = col;
      const m = SEQUENCE_MARKER.exec(line);
      if (m === null) break;
      col += m[0].length;
    }
    if (col >= line.length || line[col] === "#") return { closes: false };
    const keyColumn = col;
    let valueAt = col;
    let hasKey = false;
    const first = line[col];
    if (first === '"' || first === "'") {
      const end = findQuoteEnd(line, col + 1, first);
      if (end === -1) {
        this.quote = first;
        return { closes: false };
      }
      // A quoted key (`"a b": value`) or a whole quoted scalar.
      // Stryker disable next-line Regex: a quoted key with nothing after its colon has no value either way (value() returns at the end of the line)
      const rest = /^[ \t]*:(?:[ \t]+|$)/.exec(line.slice(end + 1));
      if (rest === null) return { closes: false };
      valueAt = end + 1 + rest[0].length;
      hasKey = true;
    } else {
      const sep = /:(?:[ \t]+|$)/.exec(line.slice(col));
      if (sep !== null && first !== "[" && first !== "{") {
        valueAt = col + sep.index + sep[0].length;
        hasKey = true;
      }
    }
    return this.value(line, valueAt, keyColumn, hasKey);
  }

  private value(line: string, at: number, keyColumn: number, hasKey: boolean): ScannedLine {
    if (at >= line.length || line[at] === "#") return { closes: false };
    const c = line[at]!;
    if (c === '"' || c === "'") {
      if (findQuoteEnd(line, at + 1, c) === -1) this.quote = c;
      return { closes: false };
    }
    // A value's continuation lines are indented past its key; a bare sequence item's may align with it.
    this.skipPast = hasKey ? keyColumn : keyColumn - 1;
    if (c === "|" || c === ">") return { closes: false };
    if (c === "[" || c === "{") return hasKey ? { closes: false, flow: { start: at, keyColumn } } : { closes: false };
    this.skipIsPlain = true;
    return hasKey ? { closes: false, plain: { start: at, keyColumn } } : { closes: false };
  }
}

/** How many spaces open `line` (tabs are not indentation in YAML). */
export function leadingSpaces(line: string): number {
  let i = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: charCodeAt past the end is NaN, which stops the loop too
  while (i < line.length && line.charCodeAt(i) === 32) i++;
  return i;
}

/** Index of the quote that ends a scalar opened before `from`, or -1 when the line does not close it. */
function findQuoteEnd(line: string, from: number, quote: Quote): number {
  // Stryker disable next-line EqualityOperator: line[line.length] is undefined, neither a backslash nor a quote
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (quote === '"' && c === "\\") {
      i++;
      continue;
    }
    if (c === quote) {
      if (quote === "'" && line[i + 1] === "'") {
        i++;
        continue;
      }
      return i;
    }
  }
  return -1;
}
