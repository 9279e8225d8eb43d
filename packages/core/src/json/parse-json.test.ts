import { describe, expect, it } from "vitest";
import { SkillctxError } from "../errors.js";
import { cloneJson } from "./clone-json.js";
import { parseJson, safeParseJson } from "./parse-json.js";

describe("parseJson", () => {
  it("returns the value of JSON text, whatever its type", () => {
    expect(parseJson('{"a":[1,"x",null]}')).toEqual({ a: [1, "x", null] });
    expect(parseJson("null")).toBeNull();
    expect(parseJson(' "text" ')).toBe("text");
  });

  it("throws JSON_INVALID with the engine's message (the position, or the quoted text) and the SyntaxError as cause", () => {
    let caught: unknown;
    try {
      parseJson('{"a": 1 x');
    } catch (error) {
      caught = error;
    }
    expect(SkillctxError.isInstance(caught)).toBe(true);
    const error = caught as SkillctxError;
    expect(error.code).toBe("JSON_INVALID");
    expect(error.message).toMatch(/position \d+/);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("rejects empty text and a trailing comma", () => {
    expect(() => parseJson("")).toThrow(SkillctxError);
    expect(() => parseJson("[1,]")).toThrow(SkillctxError);
  });

  it("keeps __proto__ as a plain own key (no prototype change)", () => {
    const value = parseJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("safeParseJson", () => {
  it("returns ok with the value", () => {
    expect(safeParseJson("[1,2]")).toEqual({ ok: true, value: [1, 2] });
    expect(safeParseJson("false")).toEqual({ ok: true, value: false });
  });

  it("returns the parser's message, never throws", () => {
    const result = safeParseJson("{not json");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/JSON/);
    expect(safeParseJson("").ok).toBe(false);
  });

  it("does not throw for text nested deeper than the stack", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    expect(() => safeParseJson(deep)).not.toThrow();
  });
});

describe("cloneJson", () => {
  it("copies as JSON carries the value", () => {
    const source = { a: [1, undefined], b: undefined, c: { d: new Date(0) } };
    const copy = cloneJson(source);
    expect(copy).toEqual({ a: [1, null], c: { d: "1970-01-01T00:00:00.000Z" } });
    expect(copy.a).not.toBe(source.a);
  });

  it("turns undefined into null", () => {
    expect(cloneJson(undefined)).toBeNull();
  });

  it("throws JSON_INVALID for a cycle or a BigInt, with the engine's message", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(() => cloneJson(cyclic)).toThrow(/circular/);
    try {
      cloneJson({ n: 1n });
    } catch (error) {
      expect((error as SkillctxError).code).toBe("JSON_INVALID");
      expect((error as Error).message).toMatch(/BigInt/);
    }
    expect.assertions(3);
  });
});
