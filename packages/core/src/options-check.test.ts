import { describe, expect, it } from "vitest";
import { SkillctxError } from "./errors.js";
import {
  checkBoolean,
  invalidOption,
  isPositiveInteger,
  isStringArray,
  isWholeNumberAtLeast,
  optionMessage,
  quotedChoices,
  shownValue,
} from "./options-check.js";

function thrown(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SkillctxError);
    return { code: (error as SkillctxError).code, message: (error as Error).message };
  }
  throw new Error("did not throw");
}

describe("option messages", () => {
  it("names the option path, what it must be and, when asked, the value given", () => {
    expect(optionMessage("limits.maxX", "a positive integer (bytes)", { value: 0 })).toBe(
      "limits.maxX must be a positive integer (bytes); got 0",
    );
    expect(optionMessage("subAgent.model", "a non-empty string")).toBe("subAgent.model must be a non-empty string");
    expect(optionMessage("x", "y", { value: undefined })).toBe("x must be y; got undefined");
  });

  it("shows values as JSON, and what JSON cannot say as JavaScript does", () => {
    expect(shownValue("a")).toBe('"a"');
    expect(shownValue({ a: [1] })).toBe('{"a":[1]}');
    expect(shownValue(Number.NaN)).toBe("NaN");
    expect(shownValue(-Infinity)).toBe("-Infinity");
    expect(shownValue(10n)).toBe("10n");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(shownValue(cycle)).toBe("[object Object]");
  });

  it("quotes enum choices the way the messages name them", () => {
    expect(quotedChoices(["active", "always"])).toBe('"active" or "always"');
    expect(quotedChoices(["filter", "refuse", "off"])).toBe('"filter", "refuse" or "off"');
    expect(quotedChoices(["one"])).toBe('"one"');
    expect(quotedChoices([])).toBe("");
  });

  it("gives SkillctxError INVALID_OPTIONS, or the code asked for", () => {
    expect(invalidOption("a", "b").code).toBe("INVALID_OPTIONS");
    expect(invalidOption("a", "b", { code: "INVALID_RENDER_OPTIONS" }).code).toBe("INVALID_RENDER_OPTIONS");
  });
});

describe("predicates", () => {
  it("positive integers are integers of at least 1", () => {
    for (const ok of [1, 2, 1e6]) expect(isPositiveInteger(ok)).toBe(true);
    for (const bad of [0, -1, 1.5, Number.NaN, Infinity, "3", null, undefined])
      expect(isPositiveInteger(bad)).toBe(false);
  });

  it("whole numbers are safe integers of at least min", () => {
    expect(isWholeNumberAtLeast(0, 0)).toBe(true);
    expect(isWholeNumberAtLeast(0, 1)).toBe(false);
    expect(isWholeNumberAtLeast(2 ** 53, 0)).toBe(false);
    expect(isWholeNumberAtLeast(1.5, 0)).toBe(false);
  });

  it("string arrays hold only strings", () => {
    expect(isStringArray([])).toBe(true);
    expect(isStringArray(["a", ""])).toBe(true);
    expect(isStringArray(["a", 1])).toBe(false);
    expect(isStringArray("a")).toBe(false);
  });
});

describe("checkers", () => {
  it("return the fallback for undefined and the value when it passes", () => {
    expect(checkBoolean("flag", undefined, true)).toBe(true);
    expect(checkBoolean("flag", false, true)).toBe(false);
  });

  it("throw with the option path, what it must be and the value", () => {
    expect(thrown(() => checkBoolean("flag", "yes", false)).message).toBe('flag must be true or false; got "yes"');
  });
});
