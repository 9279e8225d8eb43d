import { describe, expect, it } from "vitest";
import { checkDescriptionReach, MIN_DESCRIPTION_REACH_WORDS } from "./description-reach.js";

// `skillctx validate`'s DESCRIPTION_UNREACHABLE warning, in process (test/cli-search.test.ts checks it through the
// built CLI, which a mutant of the source cannot reach).
const HINT =
  ': a request describes the task, so say what the skill does and when to use it (skillctx search "a request" shows what matches)';

describe("checkDescriptionReach", () => {
  it("passes a description with three words besides the name, and names the words when there are fewer", () => {
    expect(MIN_DESCRIPTION_REACH_WORDS).toBe(3);
    expect(checkDescriptionReach("pdf-forms", "Fill and flatten PDF forms quickly.")).toEqual([]);
    expect(checkDescriptionReach("pdf-forms", "Fill and flatten PDF forms.")).toEqual([
      {
        code: "DESCRIPTION_UNREACHABLE",
        message: `description says only 2 words besides the name (fill, flatten)${HINT}`,
      },
    ]);
    expect(checkDescriptionReach("pdf-forms", "Fill PDF forms")[0]?.message).toBe(
      `description says only 1 word besides the name (fill)${HINT}`,
    );
    expect(checkDescriptionReach("pdf-forms", "PDF forms")[0]?.message).toBe(
      `description says no word besides the name${HINT}`,
    );
  });

  it("counts a repeated word once, and neither stop words, request filler nor single Latin letters", () => {
    expect(checkDescriptionReach("x", "Fill fill FILL the forms, please help")[0]?.message).toBe(
      `description says only 2 words besides the name (fill, forms)${HINT}`,
    );
    expect(checkDescriptionReach("x", "a b c d e f g h forms")[0]?.message).toBe(
      `description says only 1 word besides the name (forms)${HINT}`,
    );
    // A single character of another script is a word (CJK text is one word per character).
    expect(checkDescriptionReach("x", "表 格 填")).toEqual([]);
  });

  it("takes no word from a name that is not a string", () => {
    expect(checkDescriptionReach(undefined, "PDF forms")[0]?.message).toBe(
      `description says only 2 words besides the name (pdf, forms)${HINT}`,
    );
    expect(checkDescriptionReach(42, "PDF forms flatten")).toEqual([]);
  });

  it("leaves a missing, empty or over-long description to the specification's own errors", () => {
    expect(checkDescriptionReach("x", undefined)).toEqual([]);
    expect(checkDescriptionReach("x", 7)).toEqual([]);
    expect(checkDescriptionReach("x", "")).toEqual([]);
    expect(checkDescriptionReach("x", " \n\t")).toEqual([]);
    // The limit counts code points: 1,024 emoji (2,048 UTF-16 units) are within it, 1,025 past it.
    expect(checkDescriptionReach("x", "\u{1f600}".repeat(1024))).toHaveLength(1);
    expect(checkDescriptionReach("x", "\u{1f600}".repeat(1025))).toEqual([]);
    expect(checkDescriptionReach("x", `forms ${"!".repeat(1018)}`)[0]?.message).toContain("only 1 word");
  });
});
