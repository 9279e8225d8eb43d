import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { capTextUtf8Bytes } from "./text-cap.js";

const note = (kept: number, size: number) => `[cut: ${kept} of ${size}]`;

describe("capTextUtf8Bytes", () => {
  it("leaves a text within the cap as it is", () => {
    expect(capTextUtf8Bytes("short\ntext", 100, note)).toEqual({ text: "short\ntext", cut: false, size: 10, kept: 10 });
    expect(capTextUtf8Bytes("é".repeat(50), 100, note)).toEqual({
      text: "é".repeat(50),
      cut: false,
      size: 100,
      kept: 100,
    });
  });

  it("cuts at a line break in the second half, then adds the note on its own line", () => {
    const text = `${"a".repeat(40)}\n${"b".repeat(40)}\n${"c".repeat(40)}\n`;
    const capped = capTextUtf8Bytes(text, 110, note);
    expect(capped.cut).toBe(true);
    expect(capped.text).toBe(`${"a".repeat(40)}\n${"b".repeat(40)}\n[cut: 82 of 123]`);
  });

  it("never splits a character and never exceeds the cap, note included (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), fc.integer({ min: 40, max: 600 }), (text, max) => {
        const capped = capTextUtf8Bytes(text, max, note);
        expect(Buffer.byteLength(capped.text)).toBeLessThanOrEqual(max);
        expect(capped.text).not.toContain("\uFFFD");
        if (!capped.cut) {
          expect(capped.text).toBe(text);
          return;
        }
        const head = capped.text.slice(0, capped.text.lastIndexOf("[cut:"));
        expect(text.startsWith(head) || text.startsWith(head.slice(0, -1))).toBe(true);
      }),
    );
  });
});
