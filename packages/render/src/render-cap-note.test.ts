// The note about spans a cap left as written: one blank line between the text and the note, whatever the
// text ends with (no newline, one, or a blank line already), and one newline after it. Each separator was a
// surviving mutant (issue 38).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCommands } from "./render-commands.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "skillctx-render-note-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const NOTE =
  "[skillctx: 1 command span was left as written, not rendered: at most 2 are rendered per text (maxCommands).]";

describe("renderCommands: the cap note's separator", () => {
  it.each([
    ["no newline at the end", "!`echo 1` !`echo 2` !`echo 3`", "1 2 !`echo 3`"],
    ["one newline at the end", "!`echo 1` !`echo 2`\n!`echo 3`\n", "1 2\n!`echo 3`"],
    ["a blank line at the end", "!`echo 1` !`echo 2`\n!`echo 3`\n\n", "1 2\n!`echo 3`"],
  ])("text with %s: one blank line, then the note and a newline", async (_, text, kept) => {
    const result = await renderCommands(text, { cwd, maxCommands: 2 });
    expect(result.text).toBe(`${kept}\n\n${NOTE}\n`);
    expect(result.limited).toEqual({
      reason: "maxCommands",
      limit: 2,
      notRendered: 1,
      line: text.includes("\n") ? 2 : 1,
    });
  });
});
