import { createRequire } from "node:module";
import fc from "fast-check";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens, TOKENIZER } from "./tokens.js";

const loadedCommonJsEncoding = () =>
  Object.keys(createRequire(import.meta.url).cache).some((file) => /cjs[\\/]encoding[\\/]o200k_base/.test(file));

describe("countTokens", () => {
  // Must run first in this file: nothing has called countTokens yet.
  it("loads the encoding on first use, not on import", () => {
    expect(loadedCommonJsEncoding()).toBe(false);
    expect(countTokens("hello world")).toBe(2);
    expect(loadedCommonJsEncoding()).toBe(true);
  });

  it("counts with o200k_base", () => {
    expect(TOKENIZER).toBe("o200k_base");
    for (const text of [
      "hello world",
      "Deploy the service to Kubernetes.",
      "请帮我部署服务",
      "<skill>\n<name>x</name>\n</skill>",
    ]) {
      expect(countTokens(text)).toBe(encode(text).length);
    }
    expect(countTokens("")).toBe(0);
  });

  it("counts special-token markers as text instead of throwing", () => {
    const text = "before <|endoftext|> after <|im_start|>";
    expect(() => encode(text)).toThrow(); // the library's default refuses them
    expect(countTokens(text)).toBe(encode(text, { disallowedSpecial: new Set() }).length);
    expect(countTokens(text)).toBeGreaterThan(encode("before  after ").length);
  });

  it("never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (text) => {
        const count = countTokens(text);
        expect(Number.isInteger(count) && count >= 0).toBe(true);
        expect(count === 0).toBe(text === "");
      }),
      { numRuns: 300 },
    );
  });
});
