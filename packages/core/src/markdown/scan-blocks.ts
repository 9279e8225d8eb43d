import { MARKDOWN_MAX_NESTING } from "../limits.js";
import {
  closesFence,
  fenceOpener,
  isAtxHeading,
  isSetextUnderline,
  isThematicBreak,
  listMarker,
} from "./block-starts.js";
import { htmlBlockEnds, htmlBlockStart, htmlEndSearchStart } from "./html-block.js";
import type { HtmlBlockKind } from "./html-block.js";
import { TextFinder } from "./text-finder.js";
import type { ProseSegment, TextRange } from "./text-range.js";

/** The blocks of a markdown text that matter for inline syntax. */
export interface BlockScan {
  /** Paragraphs and headings, in document order: where code spans and `` !`cmd` `` are live. */
  prose: ProseSegment[];
  /** Fenced and indented code blocks and HTML blocks, in document order. */
  code: TextRange[];
}

/**
 * Reads the block structure of markdown the way CommonMark does (block quotes and list items as
 * containers, lazy paragraph continuation, tabs as 4-column stops) and returns its prose and its code.
 *
 * Code: fenced blocks (``` and ~~~, closed by the same character at least as long with only spaces
 * after, or by the end of their container; an unclosed fence runs to the end), indented blocks
 * (4 columns past the container's content, never interrupting a paragraph) and the seven kinds of
 * HTML block (see {@link HtmlBlockKind}). Prose: each paragraph (with its lazy lines) and each heading,
 * so that an inline span never crosses from one block into the next.
 *
 * Linear in the input: every line is read once, the containers of a line are at most
 * {@link MARKDOWN_MAX_NESTING}, and searches for an HTML block's end never repeat.
 * Not modelled (read as paragraphs): link reference definitions and GFM tables.
 */
export function scanBlocks(text: string): BlockScan {
  const scanner = new BlockScanner(text);
  let lineStart = 0;
  for (;;) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const end = lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === CARRIAGE_RETURN ? lineEnd - 1 : lineEnd;
    scanner.line(lineStart, end);
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  scanner.closeLeaf();
  return { prose: scanner.prose, code: scanner.code };
}

interface Container {
  quote: boolean;
  /** List item: columns from the container's content start to the item's content. */
  width: number;
  /** List item that holds nothing yet (a blank line then closes it). */
  empty: boolean;
}

type Leaf =
  | { kind: "paragraph"; start: number; end: number; gaps?: TextRange[] }
  | { kind: "fence"; char: number; length: number; start: number; end: number }
  | { kind: "indented"; start: number; end: number }
  | { kind: "html"; html: HtmlBlockKind; start: number; end: number };

class BlockScanner {
  readonly prose: ProseSegment[] = [];
  readonly code: TextRange[] = [];
  // Stryker disable next-line ArrayDeclaration: a stack holding a non-object matches no non-blank line (it has no width) and is cut at the first one; blank lines open nothing
  readonly #stack: Container[] = [];
  #leaf: Leaf | undefined;
  readonly #finder: TextFinder;
  // The cursor on the current line: a character offset and its column (a tab may be half consumed).
  #pos = 0;
  #col = 0;
  #end = 0;
  // What #probe() found from the cursor: the first non-space character, its column, the indent in columns.
  #at = 0;
  #atCol = 0;
  #indent = 0;
  // Stryker disable next-line BooleanLiteral: #probe() sets it before it is read
  #blank = false;
  // The whitespace run last measured on this line: tab stops are absolute, so where it ends (and that
  // end's column) does not depend on where in the run the cursor stands. Each run is read once.
  // Stryker disable next-line UnaryOperator: line() resets it before the first #probe()
  #runStart = -1;
  #runEnd = -1;
  #runEndCol = 0;
  // The previous line was blank: the stack then holds only list items that continue over blank lines.
  // Stryker disable next-line BooleanLiteral: read on the first line only, where the stack is empty and both branches match nothing
  #afterBlank = false;
  // New blocks were opened on this line (the unmatched containers are closed).
  // Stryker disable next-line BooleanLiteral: line() resets it before it is read
  #opened = false;
  #matched = 0;

  constructor(private readonly text: string) {
    this.#finder = new TextFinder(text);
  }

  line(start: number, end: number): void {
    this.#pos = start;
    this.#col = 0;
    this.#end = end;
    // Stryker disable next-line UnaryOperator: the run last measured ends on an earlier line, before `start`, so it is missed either way
    this.#runStart = -1;
    this.#opened = false;
    const stack = this.#stack;
    const text = this.text;

    // 1. Which open containers does this line continue?
    let matched = 0;
    let quoted = false; // a `>` of this line's prefix was read
    this.#probe();
    const blankLine = this.#blank;
    if (blankLine) {
      // Only list items holding something continue over a blank line; after a blank line that is all of them.
      if (this.#afterBlank) matched = stack.length;
      else
        while (matched < stack.length && !(stack[matched] as Container).quote && !(stack[matched] as Container).empty)
          matched++;
      this.#pos = this.#at;
      this.#col = this.#atCol;
    } else {
      while (matched < stack.length) {
        const container = stack[matched] as Container;
        if (matched > 0) this.#probe();
        if (container.quote) {
          if (this.#indent >= 4 || text.charCodeAt(this.#at) !== GREATER) break;
          this.#pos = this.#at + 1;
          this.#col = this.#atCol + 1;
          this.#optionalSpace();
          quoted = true;
        } else if (this.#blank) {
          if (container.empty) break;
          this.#pos = this.#at;
          this.#col = this.#atCol;
        } else if (this.#indent >= container.width) {
          this.#advanceColumns(container.width);
        } else {
          break;
        }
        matched++;
      }
      this.#probe();
    }
    this.#afterBlank = blankLine;
    this.#matched = matched;
    const allMatched = matched === stack.length;

    // 2. A code or HTML block continues, or ends on this line.
    const leaf = this.#leaf;
    if (allMatched && leaf !== undefined && leaf.kind !== "paragraph") {
      if (leaf.kind === "fence") {
        leaf.end = end;
        if (!this.#blank && this.#indent < 4 && closesFence(text, this.#at, end, leaf.char, leaf.length))
          this.closeLeaf();
        return;
      }
      if (leaf.kind === "html") {
        if (this.#blank && leaf.html >= 6) {
          this.closeLeaf();
          return;
        }
        leaf.end = end;
        if (leaf.html <= 5 && htmlBlockEnds(leaf.html, text, this.#pos, end, this.#finder)) this.closeLeaf();
        return;
      }
      if (this.#blank) return;
      if (this.#indent >= 4) {
        leaf.end = end;
        return;
      }
      // Stryker disable next-line CallExpression: the indented leaf is closed by the #open() of the block this line starts (every path below opens one)
      this.closeLeaf();
    }

    // 3. New blocks: containers first (they nest), then at most one leaf.
    let tipParagraph = this.#leaf?.kind === "paragraph"; // indented code and kind-7 HTML cannot interrupt it, even lazily
    let containerParagraph = allMatched && tipParagraph; // setext underlines and list-item rules
    while (!this.#blank) {
      if (this.#indent >= 4) {
        if (tipParagraph) break;
        this.#open();
        // Stryker disable next-line StringLiteral: an indented leaf is told apart only by being no paragraph, fence or HTML block
        this.#leaf = { kind: "indented", start: this.#pos, end };
        return;
      }
      const at = this.#at;
      const char = text.charCodeAt(at);
      if (char === GREATER && stack.length < MARKDOWN_MAX_NESTING) {
        this.#open();
        this.#pos = at + 1;
        this.#col = this.#atCol + 1;
        this.#optionalSpace();
        stack.push({ quote: true, width: 0, empty: false });
        tipParagraph = containerParagraph = false;
        this.#probe();
        continue;
      }
      if (char === HASH && isAtxHeading(text, at, end)) {
        this.#open();
        this.prose.push({ start: at, end });
        return;
      }
      if (char === BACKTICK || char === TILDE) {
        const fence = fenceOpener(text, at, end);
        if (fence !== undefined) {
          this.#open();
          this.#leaf = { kind: "fence", char: fence.char, length: fence.length, start: at, end };
          return;
        }
      }
      if (char === LESS) {
        const html = htmlBlockStart(text, at, end, tipParagraph, this.#finder);
        if (html !== undefined) {
          this.#open();
          this.#leaf = { kind: "html", html, start: at, end };
          if (html <= 5 && htmlBlockEnds(html, text, htmlEndSearchStart(html, at), end, this.#finder)) this.closeLeaf();
          return;
        }
      }
      if (containerParagraph && isSetextUnderline(text, at, end)) {
        this.closeLeaf();
        return;
      }
      if (isThematicBreak(text, at, end)) {
        this.#open();
        return;
      }
      const marker = stack.length < MARKDOWN_MAX_NESTING ? listMarker(text, at, end) : undefined;
      if (marker === undefined || !this.#startItem(marker, containerParagraph)) break;
      tipParagraph = containerParagraph = false;
      this.#probe();
    }

    // 4. Paragraph text: a lazy continuation, the next line of the open paragraph, or a new paragraph.
    const current = this.#leaf;
    if (!this.#opened && !allMatched) {
      if (tipParagraph && !this.#blank) {
        const paragraph = current as Extract<Leaf, { kind: "paragraph" }>;
        paragraph.end = end;
        if (quoted) (paragraph.gaps ??= []).push({ start, end: this.#at });
        return;
      }
      // Stryker disable next-line CallExpression: a paragraph here took the lazy branch or sits before a blank line (closed below); any other leaf is closed by the #open() below
      this.closeLeaf();
      stack.length = matched;
    }
    if (this.#blank) {
      this.closeLeaf();
      return;
    }
    if (this.#leaf?.kind === "paragraph") {
      const paragraph = this.#leaf;
      paragraph.end = end;
      if (quoted) (paragraph.gaps ??= []).push({ start, end: this.#at });
      return;
    }
    this.#open();
    this.#leaf = { kind: "paragraph", start: this.#at, end };
  }

  closeLeaf(): void {
    const leaf = this.#leaf;
    if (leaf === undefined) return;
    this.#leaf = undefined;
    if (leaf.kind !== "paragraph") this.code.push({ start: leaf.start, end: leaf.end });
    else
      this.prose.push(
        leaf.gaps === undefined
          ? { start: leaf.start, end: leaf.end }
          : { start: leaf.start, end: leaf.end, gaps: leaf.gaps },
      );
  }

  /** Before the first new block of a line: close the leaf and the containers the line did not continue. */
  #open(): void {
    const stack = this.#stack;
    if (!this.#opened) {
      this.closeLeaf();
      stack.length = this.#matched;
      this.#opened = true;
    }
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.empty = false;
  }

  /**
   * Opens a list item at the probed marker unless it may not interrupt the paragraph (an empty item, or an
   * ordered one not starting at 1). Content starts 1–4 columns after the marker, else 1 (CommonMark).
   */
  #startItem(marker: { length: number; ordered: boolean; startsAtOne: boolean }, inParagraph: boolean): boolean {
    const indent = this.#indent;
    const afterPos = this.#at + marker.length;
    const afterCol = this.#atCol + marker.length;
    const savedPos = this.#pos;
    const savedCol = this.#col;
    this.#pos = afterPos;
    this.#col = afterCol;
    this.#probe();
    const blank = this.#blank;
    const spaces = this.#indent;
    if (inParagraph && (blank || (marker.ordered && !marker.startsAtOne))) {
      this.#pos = savedPos;
      this.#col = savedCol;
      this.#probe();
      return false;
    }
    let padding: number;
    if (blank || spaces < 1 || spaces >= 5) {
      padding = marker.length + 1;
      if (!blank) this.#advanceColumns(1);
    } else {
      padding = marker.length + spaces;
      this.#pos = this.#at;
      this.#col = this.#atCol;
    }
    this.#open();
    this.#stack.push({ quote: false, width: indent + padding, empty: true });
    return true;
  }

  /** Measures the spaces and tabs from the cursor: sets #at, #atCol, #indent and #blank. */
  #probe(): void {
    const pos = this.#pos;
    if (!(this.#runStart <= pos && pos <= this.#runEnd)) {
      const text = this.text;
      const end = this.#end;
      let i = pos;
      let column = this.#col;
      while (i < end) {
        const code = text.charCodeAt(i);
        if (code === SPACE) column++;
        else if (code === TAB) column += 4 - (column % 4);
        else break;
        i++;
      }
      this.#runStart = pos;
      this.#runEnd = i;
      this.#runEndCol = column;
    }
    this.#at = this.#runEnd;
    this.#atCol = this.#runEndCol;
    this.#indent = this.#runEndCol - this.#col;
    this.#blank = this.#runEnd >= this.#end;
  }

  /** After a `>`: one space, or one column of a tab. */
  #optionalSpace(): void {
    const code = this.text.charCodeAt(this.#pos);
    if (code === SPACE) {
      this.#pos++;
      this.#col++;
    } else if (code === TAB) {
      this.#advanceColumns(1);
    }
  }

  /** Moves the cursor `columns` columns over spaces and tabs; a tab wider than what is left is half consumed. */
  #advanceColumns(columns: number): void {
    let left = columns;
    while (left > 0 && this.#pos < this.#end) {
      const code = this.text.charCodeAt(this.#pos);
      if (code === TAB) {
        const width = 4 - (this.#col % 4);
        if (width > left) {
          this.#col += left;
          return;
        }
        this.#col += width;
        left -= width;
      } else {
        this.#col++;
        left--;
      }
      this.#pos++;
    }
  }
}

const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const HASH = 0x23;
const LESS = 0x3c;
const GREATER = 0x3e;
const BACKTICK = 0x60;
const TILDE = 0x7e;
