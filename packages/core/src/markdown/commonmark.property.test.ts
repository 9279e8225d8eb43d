import fc from "fast-check";
import { parse, postprocess, preprocess } from "micromark";
import { describe, expect, it } from "vitest";
import { codeRegions } from "./code-regions.js";
import { inCode } from "./text-range.js";

// Markdown built from the pieces where block and inline rules meet: containers, fences, indentation, tabs,
// HTML of every kind, backticks, escapes. (No `[`, `]`, `(`: link syntax is not modelled.)
const piece = fc.constantFrom(
  ...["```", "~~~", "````", "`", "``", "a`b`c", "!`x`", "\\!`x`", "\\`", "\\", "!", "@a", "x", "y", "&"],
  ...[
    " ",
    "  ",
    "   ",
    "    ",
    "      ",
    "\t",
    "\t\t",
    " \t",
    "\n",
    "\n",
    "\n\n",
    "\r\n",
    "\n  ",
    "\n   ",
    "\n    ",
    "\n\n    ",
  ],
  ...[
    "> ",
    ">>",
    ">\t",
    ">\t\t",
    "\n> ",
    "\n>     ",
    "- ",
    "* ",
    "+ ",
    "-",
    "1. ",
    "1) ",
    "1.\t",
    "\t- ",
    "-\t",
    "  - ",
    "-    ",
    "-     x",
    "\n- ",
    "\n1. ",
  ],
  ...["# ", "***", "---", "===", "a\n===", "\n```", "\n~~~~"],
  ...["<!--", "-->", "<!-->", "<!-- x\n", "\n-->", "<?", "<?x", "?>", "<!X", "<![CDATA[", "]]>"],
  ...[
    "<div>",
    "</div>",
    "<DIV>",
    "<div/>",
    "<div\n",
    "</div\n",
    "<pre>",
    "</pre>",
    "<pre>\n",
    "\n</pre>",
    "<Pre ",
    "<script>",
    "</script>",
    "<textarea",
    "<p",
  ],
  ...['<span a="`">', "<b>", "</b>", "<a@b.c>", "<http://x>"],
);
const markdown = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(""));

describe("codeRegions against micromark (CommonMark reference parser)", () => {
  it("puts every non-blank character on the same side of code as micromark does", () => {
    fc.assert(
      fc.property(markdown, (text) => {
        fc.pre(!knownDisagreement(text));
        const regions = codeRegions(text);
        const reference = micromarkCode(text);
        for (let i = 0; i < text.length; i++) {
          // Whitespace and `>` may sit on either side of a block's edge (indentation, block-quote markers).
          if (/[\s>]/.test(text[i] as string)) continue;
          expect({ text, offset: i, code: inCode(regions, i) }).toEqual({ text, offset: i, code: reference[i] });
        }
      }),
      { numRuns: 5_000 },
    );
  });
});

const CODE_TOKENS = new Set(["codeFenced", "codeIndented", "codeText", "htmlFlow", "htmlText", "autolink"]);

/** For each offset of `text`, whether micromark (a CommonMark reference parser) puts it in code, raw HTML or an autolink. */
function micromarkCode(text: string): boolean[] {
  const code = new Array<boolean>(text.length).fill(false);
  for (const [kind, token] of postprocess(
    parse()
      .document()
      .write(preprocess()(text, undefined, true)),
  )) {
    if (kind !== "enter" || !CODE_TOKENS.has(token.type)) continue;
    for (let i = token.start.offset; i < token.end.offset; i++) code[i] = true;
  }
  return code;
}

/**
 * Inputs where micromark and the C reference (cmark) or commonmark.js disagree, left out of the comparison:
 * - micromark keeps its "this line interrupts a paragraph" flag after indented code (micromark/micromark#228) and
 *   inside a block quote or list item opened on a paragraph's next line, so an empty list item, or an ordered one
 *   not starting at 1, reads differently there;
 * - a lone tag on a lazy line: commonmark.js (followed here) continues the paragraph, micromark starts HTML;
 * - micromark's e-mail autolinks leave out `!`, which CommonMark allows (`<!x@a>` is a link).
 */
function knownDisagreement(text: string): boolean {
  if (/<[^\s<>@]*![^\s<>@]*@/.test(text)) return true;
  const lines = text.split("\n");
  const container = /^[ \t]*(?:>|[-+*][ \t]|\d{1,9}[.)][ \t])/;
  if (
    lines.some(
      (line, i) => i > 0 && /^ {0,3}<\/?[A-Za-z]/.test(line) && lines.slice(0, i).some((l) => container.test(l)),
    )
  )
    return true;
  const marker = String.raw`(?:[-+*]|\d{1,9}[.)])`;
  const emptyItem = new RegExp(String.raw`^(?:[ \t>]|${marker}[ \t])*${marker}[ \t]*\r?$`);
  const laterStart = new RegExp(String.raw`^(?:[ \t>]|${marker}[ \t])*(?:0*[02-9]\d*|\d{2,9})[.)](?:[ \t]|\r?$)`);
  const nested = new RegExp(String.raw`^[ \t]*(?:>|${marker}[ \t](?:[ \t>]|${marker}[ \t])*${marker}(?:[ \t]|\r?$))`);
  return lines.some((line, i) => {
    if (!emptyItem.test(line) && !laterStart.test(line)) return false;
    return nested.test(line) || lines.slice(0, i).some((before) => /^[ >]*(?: {4}|\t| {1,3}\t)/.test(before));
  });
}
