import { SkillctxError } from "@skillctx/core";
import { describe, expect, it } from "vitest";
import { checkWholeNumber } from "./option-checks.js";

function thrown(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(SkillctxError.isInstance(error)).toBe(true);
    return { code: (error as SkillctxError).code, message: (error as Error).message };
  }
  throw new Error("did not throw");
}

describe("checkWholeNumber", () => {
  it("returns the fallback for undefined and the value when it passes, else throws with the path", () => {
    expect(checkWholeNumber("ttlMs", 0, 5, 0)).toBe(0);
    expect(checkWholeNumber("ttlMs", undefined, 5, 0)).toBe(5);
    expect(thrown(() => checkWholeNumber("pageSize", 0, 1, 1))).toEqual({
      code: "INVALID_OPTIONS",
      message: "pageSize must be a whole number of at least 1; got 0",
    });
  });
});
