import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capUtf8, OutputCollector, utf8Boundary } from "./output-collector.js";

const text = fc.string({ unit: "grapheme", maxLength: 40 });

describe("capUtf8", () => {
  it("keeps the longest whole-character prefix that fits", () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 200 }), (value, maxBytes) => {
        const { text: kept, cut } = capUtf8(value, maxBytes);
        expect(value.startsWith(kept)).toBe(true);
        expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(maxBytes);
        expect(cut).toBe(kept !== value);
        if (cut) {
          const nextChar = String.fromCodePoint(value.slice(kept.length).codePointAt(0) ?? 0);
          expect(Buffer.byteLength(kept + nextChar)).toBeGreaterThan(maxBytes);
        }
      }),
    );
  });
});

describe("utf8Boundary", () => {
  it("never leaves a partial character at the end", () => {
    fc.assert(
      fc.property(text, fc.nat(), (value, at) => {
        const bytes = Buffer.from(value);
        const head = bytes.subarray(0, bytes.length === 0 ? 0 : at % (bytes.length + 1));
        const kept = head.subarray(0, utf8Boundary(head)).toString("utf8");
        expect(value.startsWith(kept)).toBe(true);
        expect(head.length - utf8Boundary(head)).toBeLessThan(4);
      }),
    );
  });
});

describe("OutputCollector", () => {
  it("gives the same text as capping the whole stream, however it is chunked", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), fc.integer({ min: 1, max: 120 }), (chunks, limit) => {
        const collector = new OutputCollector(limit);
        for (const chunk of chunks) collector.push(chunk);
        const whole = chunks.join("");
        const expected = capUtf8(whole, limit);
        expect(collector.text()).toBe(expected.text);
        expect(collector.truncated).toBe(expected.cut);
      }),
    );
  });

  it("returns what it took of each chunk and reports a full buffer so the producer can be stopped", () => {
    const collector = new OutputCollector(4);
    expect(collector.push("abc").toString()).toBe("abc");
    expect(collector.truncated).toBe(false);
    expect(collector.push("de").toString()).toBe("d");
    expect(collector.truncated).toBe(true);
    expect(collector.push("f").length).toBe(0);
    expect(collector.text()).toBe("abcd");
  });

  it("only counts when told not to keep the bytes", () => {
    const collector = new OutputCollector(4, { keep: false });
    expect(collector.push("abcdef").toString()).toBe("abcd");
    expect(collector.size).toBe(4);
    expect(collector.truncated).toBe(true);
    expect(collector.text()).toBe("");
  });
});
