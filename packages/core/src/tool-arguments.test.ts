import { describe, expect, it } from "vitest";
import { decodeToolArguments } from "./tool-arguments.js";

describe("decodeToolArguments", () => {
  it("parses JSON text, whatever value it holds", () => {
    expect(decodeToolArguments('{"skill":"pdf"}')).toEqual({ ok: true, value: { skill: "pdf" } });
    expect(decodeToolArguments("[1]")).toEqual({ ok: true, value: [1] });
    expect(decodeToolArguments("null")).toEqual({ ok: true, value: null });
    expect(decodeToolArguments('"{\\"a\\":1}"')).toEqual({ ok: true, value: '{"a":1}' });
  });

  it("returns any other value as it is (the same object, not a copy)", () => {
    const args = { path: "a.md" };
    const decoded = decodeToolArguments(args);
    expect(decoded.ok && decoded.value).toBe(args);
    expect(decodeToolArguments(undefined)).toEqual({ ok: true, value: undefined });
    expect(decodeToolArguments(null)).toEqual({ ok: true, value: null });
    expect(decodeToolArguments(7)).toEqual({ ok: true, value: 7 });
  });

  it("says why text is not JSON, never throws (blank text, truncated text, deep nesting)", () => {
    for (const text of ["", "   ", '{"a":', "not json", `${"[".repeat(100_000)}${"]".repeat(100_000)}`]) {
      const decoded = decodeToolArguments(text);
      if (text.startsWith("[")) continue; // deep but well-formed: V8 may parse it
      expect(decoded.ok, JSON.stringify(text.slice(0, 10))).toBe(false);
      if (!decoded.ok) expect(decoded.error).not.toBe("");
    }
  });

  it("with emptyAsObject, reads undefined, null and blank text as {}", () => {
    for (const raw of [undefined, null, "", " \n\t"])
      expect(decodeToolArguments(raw, { emptyAsObject: true })).toEqual({ ok: true, value: {} });
    expect(decodeToolArguments("{", { emptyAsObject: true }).ok).toBe(false);
    expect(decodeToolArguments("null", { emptyAsObject: true })).toEqual({ ok: true, value: null });
  });
});
