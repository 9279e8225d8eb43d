import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCommands } from "./find-commands.js";

const commandsOf = (text: string): string[] => findCommands(text).map((span) => span.command);

describe("findCommands: spans", () => {
  it("finds a command with its offsets and line", () => {
    const text = "Intro\nBranch: !`git branch --show-current` now";
    const [span, ...rest] = findCommands(text);
    expect(rest).toEqual([]);
    expect(span?.command).toBe("git branch --show-current");
    expect(span?.line).toBe(2);
    expect(text.slice(span?.start, span?.end)).toBe("!`git branch --show-current`");
  });

  it("finds several commands in document order", () => {
    expect(commandsOf("!`a` and !`b`\n\n!`c`")).toEqual(["a", "b", "c"]);
  });

  it("leaves empty and blank commands alone", () => {
    expect(commandsOf("empty !`` here, blank !` ` there, and !`\n` too")).toEqual([]);
  });

  it("lets a command span lines within a paragraph", () => {
    const [span] = findCommands("x\n!`for i in 1 2\ndo echo $i\ndone` y");
    expect(span?.command).toBe("for i in 1 2\ndo echo $i\ndone");
    expect(span?.line).toBe(2);
  });

  it("does not let a command cross a blank line", () => {
    expect(commandsOf("!`echo a\n\necho b`")).toEqual([]);
  });

  it("turns CRLF inside a command into LF", () => {
    expect(commandsOf("!`echo a\r\necho b`\r\n")).toEqual(["echo a\necho b"]);
  });

  it("does not count a double-backtick span as a command", () => {
    expect(commandsOf("!``echo hi`` is code")).toEqual([]);
  });
});

describe("findCommands: fenced code blocks", () => {
  it.each([
    ["backtick", "```"],
    ["tilde", "~~~"],
    ["long backtick", "`````"],
    ["long tilde", "~~~~~~"],
  ])("protects a %s fence", (_name, fence) => {
    const text = `!\`before\`\n\n${fence}sh\n!\`inside\`\n${fence}\n\n!\`after\``;
    expect(commandsOf(text)).toEqual(["before", "after"]);
  });

  it("is closed only by a fence of the same character at least as long", () => {
    const text = ["````md", "```", "!`short-closer`", "~~~~", "!`other-char`", "``````", "!`after`"].join("\n");
    expect(commandsOf(text)).toEqual(["after"]);
  });

  it("is not closed by a line with an info string or by a fence indented four spaces", () => {
    const text = ["```", "```js", "!`a`", "    ```", "!`b`", "   ```", "!`after`"].join("\n");
    expect(commandsOf(text)).toEqual(["after"]);
  });

  it.each(["```", "~~~", "````"])("protects everything after an unclosed %s fence", (fence) => {
    const text = `!\`before\`\n${fence}\n!\`a\`\n\nMore prose !\`b\`\n\n# Heading !\`c\``;
    expect(commandsOf(text)).toEqual(["before"]);
  });

  it("protects fences inside list items and blockquotes", () => {
    const text = [
      "- step:",
      "  ```sh",
      "  !`in-list`",
      "  ```",
      "",
      "> ```",
      "> !`in-quote`",
      "> ```",
      "",
      "!`after`",
    ].join("\n");
    expect(commandsOf(text)).toEqual(["after"]);
  });

  it("protects a fence that opens a list item", () => {
    expect(commandsOf("- ```sh\n  !`a`\n  ```\n\n!`after`")).toEqual(["after"]);
  });
});

describe("findCommands: inline code spans", () => {
  it("does not run what sits inside single-backtick spans", () => {
    // Read as markdown this is two code spans, "`!`" and "`ls`": no command between them.
    expect(commandsOf("Type `!`, then `ls` to list.")).toEqual([]);
    expect(commandsOf("Use `fuzz_target!` macro | Write `main`")).toEqual([]);
  });

  it("does not run what sits inside double-backtick spans", () => {
    expect(commandsOf("Write ``!`date` `` to embed a date, or ``a !`b` c``.")).toEqual([]);
  });

  it("closes a run of N backticks only at a run of exactly N", () => {
    // The `` opener skips the single backticks and closes at the next ``.
    expect(commandsOf("``a ` !`x` ` b`` then !`y`")).toEqual(["y"]);
  });

  it("treats an unmatched backtick run as literal text", () => {
    expect(commandsOf("a `` run, then !`date`")).toEqual(["date"]);
  });

  it("reads a backtick-fence line with a backtick in its info string as inline code", () => {
    expect(commandsOf("```!`date` ```\n!`after`")).toEqual(["after"]);
  });
});

describe("findCommands: indented code blocks", () => {
  it("protects a block indented four spaces or a tab after a blank line", () => {
    expect(commandsOf("Para.\n\n    !`spaces`\n\n\t!`tab`\n\nBack !`out`")).toEqual(["out"]);
  });

  it("protects indented code at the start of the text", () => {
    expect(commandsOf("    !`first`\nNot code !`x`")).toEqual(["x"]);
  });

  it("runs an indented line that continues a paragraph", () => {
    expect(commandsOf("Para !`a`\n    continued !`b`")).toEqual(["a", "b"]);
  });

  it("measures indentation from the list item's content", () => {
    const text = ["- item", "", "    continuation !`in-item`", "", "      !`code-in-item`"].join("\n");
    expect(commandsOf(text)).toEqual(["in-item"]);
  });
});

describe("findCommands: escapes and comments", () => {
  it("does not count an escaped command", () => {
    expect(commandsOf("Literal: \\!`date` and live: !`pwd`")).toEqual(["pwd"]);
  });

  it("counts a command after an escaped backslash", () => {
    expect(commandsOf("\\\\!`pwd`")).toEqual(["pwd"]);
  });

  it("does not open a span at an escaped backtick", () => {
    // Without the backslash, "`x !`" would be a code span hiding the command.
    expect(commandsOf("\\`x !`date`")).toEqual(["date"]);
  });

  it("hides commands in HTML comments", () => {
    expect(commandsOf("Text <!-- !`inline` --> !`after`\n\n<!--\n!`block`\n\n!`still`\n-->\n!`end`")).toEqual([
      "after",
      "end",
    ]);
  });
});

describe("findCommands: HTML blocks and raw HTML", () => {
  it("finds nothing in HTML blocks of any kind", () => {
    const text = [
      "<pre>",
      "",
      "!`pre`",
      "</pre>",
      '<div class="x">',
      "!`div`",
      "",
      "<?php !`pi` ?>",
      "<!DOCTYPE !`decl`>",
      "<![CDATA[ !`cdata` ]]>",
      "<custom-tag>",
      "!`lone-tag`",
      "",
      "!`after`",
    ].join("\n");
    expect(commandsOf(text)).toEqual(["after"]);
  });

  it("skips backticks inside a raw inline tag or an autolink, but not between tags", () => {
    expect(commandsOf('<a title="!`in-attr`">!`between`</a> <https://x.test/!`in-link`>')).toEqual(["between"]);
  });

  it("lets a paragraph line that starts with a tag stay prose (a lone tag cannot interrupt a paragraph)", () => {
    expect(commandsOf("Intro\n<span>\n!`in-paragraph`")).toEqual(["in-paragraph"]);
  });
});

// Absent on a fresh clone: the corpus test is skipped (test/setup/corpus.ts says so).
const corpus = process.env["SKILLCTX_CORPUS"] ?? fileURLToPath(new URL("../../../../shared/corpus", import.meta.url));

describe.runIf(existsSync(corpus))("findCommands: real skills", () => {
  it("finds no command in the published corpus, where every !` sits in code", async () => {
    const files = await skillFiles(corpus);
    expect(files.length).toBeGreaterThan(200);
    let naive = 0;
    for (const file of files) {
      const text = await readFile(file, "utf8");
      // A regex that ignores code would find candidates here; the parser must not.
      naive += (text.match(/!`[^`]+`/g) ?? []).length;
      expect(findCommands(text), file).toEqual([]);
    }
    expect(naive).toBeGreaterThan(0);
  });
});

describe("findCommands: properties", () => {
  const piece = fc.constantFrom(
    "!",
    "`",
    "``",
    "\\",
    " ",
    "    ",
    "\t",
    "\n",
    "\n\n",
    "a",
    "~",
    "~~~",
    "```",
    ">",
    "- ",
    "#",
    "<!--",
    "-->",
    "é",
  );
  const markdown = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(""));

  it("returns ordered, disjoint spans that spell !`command` on the right line", () => {
    fc.assert(
      fc.property(markdown, (text) => {
        let previousEnd = 0;
        for (const span of findCommands(text)) {
          expect(span.start).toBeGreaterThanOrEqual(previousEnd);
          expect(text.slice(span.start, span.end)).toBe(`!\`${span.command}\``);
          expect(span.command.trim()).not.toBe("");
          expect(span.line).toBe(text.slice(0, span.start).split("\n").length);
          previousEnd = span.end;
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("finds nothing inside a fence and reads what follows it as if it stood alone", () => {
    fc.assert(
      fc.property(markdown, markdown, (inside, after) => {
        const longestTildes = Math.max(0, ...(inside.match(/~+/g) ?? []).map((run) => run.length));
        const fence = "~".repeat(Math.max(3, longestTildes + 1));
        const prefix = `${fence}\n${inside}\n${fence}\n\n`;
        const lineShift = prefix.split("\n").length - 1;
        const expected = findCommands(after).map((s) => ({
          ...s,
          start: s.start + prefix.length,
          end: s.end + prefix.length,
          line: s.line + lineShift,
        }));
        expect(findCommands(prefix + after)).toEqual(expected);
        expect(findCommands(`${fence}\n${inside}`)).toEqual([]);
      }),
      { numRuns: 1_000 },
    );
  });
});

async function skillFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await skillFiles(path)));
    else if (entry.name === "SKILL.md") found.push(path);
  }
  return found;
}
