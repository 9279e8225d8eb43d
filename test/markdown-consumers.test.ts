// `` !`cmd` `` detection (@skillctx/render) and CLAUDE.md `@import` detection (@skillctx/compat) read markdown
// with the one scanner of @skillctx/core: for any text, both treat exactly the regions `codeRegions` returns
// as code.
import { codeRegions, inCode } from "@skillctx/core/internal";
import { findCommands } from "@skillctx/render";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { importMentions } from "../packages/compat/src/import-mentions.js";

const piece = fc.constantFrom(
  ...[
    "!`cmd`",
    "\\!`esc`",
    "!` `",
    "`",
    "``",
    "!",
    "\\",
    "@a.md",
    " @b.md",
    "@c.md.",
    "x",
    " ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
  ],
  ...["```", "~~~", "    ", "\n    ", "> ", "\n> ", "- ", "1. ", "# ", "***", "---"],
  ...["<!--", "-->", "<div>", "</div>", "<pre>", "</pre>", '<a t="`">', "<?", "?>", "<!X", "<x@y.z>"],
);
const markdown = fc.array(piece, { maxLength: 50 }).map((parts) => parts.join(""));

describe("one scanner for commands and imports", () => {
  it("commands are exactly the one-backtick code regions after a live `!`; mentions exactly the `@` words outside code", () => {
    fc.assert(
      fc.property(markdown, (text) => {
        const regions = codeRegions(text);

        const expectedCommands = regions
          .filter(
            (r) =>
              text[r.start] === "`" && text[r.start + 1] !== "`" && text[r.end - 2] !== "`" && text[r.end - 1] === "`",
          )
          .filter((r) => text.slice(r.start + 1, r.end - 1).trim() !== "")
          .filter(
            (r) =>
              text[r.start - 1] === "!" &&
              !inCode(regions, r.start - 1) &&
              proseBackslashesBefore(text, r.start - 1, regions) % 2 === 0,
          )
          .map((r) => [r.start - 1, r.end]);
        expect(findCommands(text).map((c) => [c.start, c.end])).toEqual(expectedCommands);

        const expectedMentions = [...text.matchAll(/(^|[ \t])@((?:[^\s\\]|\\ )+)/gm)]
          .map((m) => (m.index ?? 0) + (m[1]?.length ?? 0))
          .filter((at) => !inCode(regions, at));
        const mentions = importMentions(text).map((m) => m.at);
        expect(mentions).toEqual(expectedMentions);

        // So a command never hides a live import, and an import never sits inside a command.
        for (const command of findCommands(text)) {
          expect(mentions.some((at) => at > command.start && at < command.end)).toBe(false);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it("agree on the cases that used to differ: indented code and HTML comments hide both", () => {
    const text = [
      "    !`touch x` @a.md",
      "",
      "<!-- !`touch y` @b.md -->",
      "",
      "<div>",
      "!`touch z` @c.md",
      "</div>",
      "",
      "live !`echo` @d.md",
    ].join("\n");
    expect(findCommands(text).map((c) => c.command)).toEqual(["echo"]);
    expect(importMentions(text).map((m) => m.written)).toEqual(["d.md"]);
  });
});

/** Backslashes right before `offset` that are prose (an odd count escapes the character at `offset`). */
function proseBackslashesBefore(text: string, offset: number, regions: ReturnType<typeof codeRegions>): number {
  let count = 0;
  for (let i = offset - 1; i >= 0 && text[i] === "\\" && !inCode(regions, i); i--) count++;
  return count;
}
