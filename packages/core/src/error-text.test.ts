import { describe, expect, it } from "vitest";
import { errorText } from "./error-text.js";
import { MAX_ERROR_TEXT_CHARS } from "./limits.js";

describe("errorText", () => {
  it("gives an Error's message, a string as is, anything else through String", () => {
    expect(errorText(new TypeError("bad input"))).toBe("bad input");
    expect(errorText("plain text")).toBe("plain text");
    expect(errorText(42)).toBe("42");
    expect(errorText(undefined)).toBe("undefined");
    expect(errorText(null)).toBe("null");
    expect(errorText({ toString: () => "custom" })).toBe("custom");
  });

  it("shows a symbol and a BigInt", () => {
    expect(errorText(Symbol("why"))).toBe("Symbol(why)");
    expect(errorText(10n ** 30n)).toBe("1000000000000000000000000000000");
  });

  it("never throws for a null-prototype object", () => {
    expect(errorText(Object.create(null))).toBe("(an error that cannot be printed)");
  });

  it("never throws for an Error whose message getter throws", () => {
    const error = new Error("hidden");
    Object.defineProperty(error, "message", {
      get() {
        throw new Error("getter");
      },
    });
    expect(errorText(error)).toBe("(an error that cannot be printed)");
  });

  it("never throws for a Proxy whose traps all throw", () => {
    const trap = () => {
      throw new Error("trap");
    };
    const proxy = new Proxy({}, { get: trap, getPrototypeOf: trap, has: trap, ownKeys: trap });
    expect(errorText(proxy)).toBe("(an error that cannot be printed)");
  });

  it("never throws for an object whose message getter and toString throw", () => {
    const hostile = {
      get message() {
        throw new Error("no");
      },
      toString() {
        throw new Error("no");
      },
    };
    expect(errorText(hostile)).toBe("(an error that cannot be printed)");
  });

  it("shows a non-string message through String", () => {
    const error = new Error("x");
    (error as unknown as { message: unknown }).message = 7;
    expect(errorText(error)).toBe("7");
  });

  it("cuts a huge message, never inside a surrogate pair", () => {
    const huge = "x".repeat(MAX_ERROR_TEXT_CHARS - 1) + "\u{1F600}".repeat(1_000_000);
    const text = errorText(new Error(huge));
    expect(text).toBe(`${"x".repeat(MAX_ERROR_TEXT_CHARS - 1)}…`);
    expect(errorText("y".repeat(MAX_ERROR_TEXT_CHARS))).toBe("y".repeat(MAX_ERROR_TEXT_CHARS));
  });
});
