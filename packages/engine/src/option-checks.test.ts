import { describe, expect, it } from "vitest";
import { checkEnum, checkPositiveInteger, isNonEmptyString } from "./option-checks.js";

describe("engine option checks", () => {
  it("non-empty strings have something besides white space", () => {
    expect(isNonEmptyString(" a ")).toBe(true);
    expect(isNonEmptyString(" \n")).toBe(false);
    expect(isNonEmptyString(3)).toBe(false);
  });

  it("return the fallback for undefined and the value when it passes", () => {
    expect(checkPositiveInteger("n", undefined, 7)).toBe(7);
    expect(checkPositiveInteger("n", 3, 7)).toBe(3);
    expect(checkEnum("mode", undefined, ["a", "b"], "a")).toBe("a");
    expect(checkEnum("mode", "b", ["a", "b"], "a")).toBe("b");
  });

  it("throw with the option path, what it must be and the value", () => {
    expect(() => checkPositiveInteger("limits.maxX", 0, 1, " (bytes)")).toThrow(
      expect.objectContaining({
        name: "SkillctxError",
        code: "INVALID_OPTIONS",
        message: "limits.maxX must be a positive integer (bytes); got 0",
      }),
    );
    expect(() => checkPositiveInteger("subAgent.maxSteps", "2", 1)).toThrow(
      'subAgent.maxSteps must be a positive integer; got "2"',
    );
    expect(() => checkEnum("toolFilter", "x", ["filter", "refuse", "off"], "filter")).toThrow(
      'toolFilter must be "filter", "refuse" or "off"; got "x"',
    );
    expect(() => checkEnum("mode", 1, ["a"], "a")).toThrow('mode must be "a"; got 1');
  });
});
