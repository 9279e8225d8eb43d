import { describe, expect, it } from "vitest";
import { capResultChars, resultToText } from "./result-text.js";

describe("resultToText", () => {
  it("joins text parts and keeps isError", () => {
    expect(
      resultToText({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toEqual({ content: "a\nb" });
    expect(resultToText({ content: [{ type: "text", text: "bad" }], isError: true })).toEqual({
      content: "bad",
      isError: true,
    });
  });

  it("describes binary parts with their decoded size", () => {
    const data = Buffer.alloc(1000, 7).toString("base64");
    expect(resultToText({ content: [{ type: "image", data, mimeType: "image/jpeg" }] }).content).toBe(
      "[image: image/jpeg, 1000 bytes]",
    );
    const odd = Buffer.alloc(1001, 7).toString("base64");
    expect(resultToText({ content: [{ type: "audio", data: odd, mimeType: "audio/mpeg" }] }).content).toBe(
      "[audio: audio/mpeg, 1001 bytes]",
    );
  });

  it("names parts of a type it does not know instead of dropping them", () => {
    expect(resultToText({ content: [{ type: "hologram", depth: 3 }] }).content).toBe(
      '[hologram content: {"type":"hologram","depth":3}]',
    );
  });

  it("falls back to structured content, then to a legacy toolResult", () => {
    expect(resultToText({ content: [], structuredContent: { n: 1 } })).toEqual({ content: '{"n":1}' });
    expect(resultToText({ toolResult: ["x"] })).toEqual({ content: '["x"]' });
    expect(resultToText({ content: [] })).toEqual({ content: "" });
  });

  it("cuts text past maxChars with a note, never inside a surrogate pair, and describes unserialisable structured content", () => {
    expect(resultToText({ content: [{ type: "text", text: "abcdef" }] }, { maxChars: 6 })).toEqual({
      content: "abcdef",
    });
    expect(resultToText({ content: [{ type: "text", text: "abcdefgh" }], isError: true }, { maxChars: 6 })).toEqual({
      content: "abcdef\n[… 2 more characters cut: the result is longer than the 6-character cap]",
      isError: true,
    });
    expect(capResultChars("ab😀cd", 3).split("\n")[0]).toBe("ab");
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(resultToText({ content: [], structuredContent: { deep } }).content).toBe(
      "[structured content that cannot be shown: nested too deeply]",
    );
  });
});
