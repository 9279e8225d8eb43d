import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashedToolName, MAX_TOOL_NAME_CHARS, reduceToolName } from "./tool-name.js";

const API_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe("reduceToolName", () => {
  it("replaces each code point outside [A-Za-z0-9_-] by one _", () => {
    expect(reduceToolName("a.b c/d-e_f9")).toBe("a_b_c_d-e_f9");
    expect(reduceToolName("é\u{1F600}x")).toBe("__x");
  });
});

describe("hashedToolName", () => {
  it("ends in _ and 8 hex digits of the key's SHA-256, within 64 characters", () => {
    const name = hashedToolName("x".repeat(100), "key");
    const hash = createHash("sha256").update("key").digest("hex").slice(0, 8);
    expect(name).toBe(`${"x".repeat(55)}_${hash}`);
    expect(name).toHaveLength(MAX_TOOL_NAME_CHARS);
    expect(name).toMatch(API_NAME);
  });

  it("keeps a short name whole and reduces characters model APIs refuse", () => {
    expect(hashedToolName("pdf.fill form", "k")).toMatch(/^pdf_fill_form_[0-9a-f]{8}$/);
  });

  it("is the same for one key, different for two keys with one reduced name", () => {
    expect(hashedToolName("a.b", "a.b")).toBe(hashedToolName("a.b", "a.b"));
    expect(hashedToolName("a_b", "a.b")).not.toBe(hashedToolName("a_b", "a b"));
  });
});
