import { describe, expect, it } from "vitest";
import { checkWholeNumber } from "./option-checks.js";

describe("checkWholeNumber", () => {
  it("returns the fallback for undefined and the value when it passes, else throws with the path", () => {
    expect(checkWholeNumber("ttlMs", 0, 5, 0)).toBe(0);
    expect(checkWholeNumber("ttlMs", undefined, 5, 0)).toBe(5);
    expect(() => checkWholeNumber("pageSize", 0, 1, 1)).toThrow(
      expect.objectContaining({
        name: "SkillctxError",
        code: "INVALID_OPTIONS",
        message: "pageSize must be a whole number of at least 1; got 0",
      }),
    );
  });
});
