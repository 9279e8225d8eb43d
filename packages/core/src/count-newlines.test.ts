import { describe, expect, it } from "vitest";
import { countNewlines } from "./count-newlines.js";

describe("countNewlines", () => {
  it("counts line feeds only, anywhere in the text", () => {
    expect(countNewlines("")).toBe(0);
    expect(countNewlines("\n")).toBe(1);
    expect(countNewlines("a\nb\n\nc")).toBe(3);
    expect(countNewlines("a\r\nb\rc")).toBe(1);
    expect(countNewlines("\n".repeat(10_000))).toBe(10_000);
  });
});
