import { describe, expect, it } from "vitest";
import { isSkillctxErrorCode, SKILLCTX_ERROR_CODES, SkillctxError } from "./errors.js";

describe("SkillctxError", () => {
  it("isInstance knows its own errors and one of another copy (the Symbol.for marker), not a lookalike", () => {
    const error = new SkillctxError("CONTEXT_CLOSED", "closed", { path: "/x", data: { a: 1 } });
    expect(SkillctxError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: "SkillctxError", code: "CONTEXT_CLOSED", path: "/x", data: { a: 1 } });
    // Another copy of the package: a different class whose instances carry the same registered marker.
    const copy = Object.assign(new Error("x"), { [Symbol.for("skillctx.error")]: true, code: "READ_FAILED" });
    expect(SkillctxError.isInstance(copy)).toBe(true);
    // The name alone is not enough.
    const lookalike = Object.assign(new Error("x"), { name: "SkillctxError", code: "READ_FAILED" });
    expect(SkillctxError.isInstance(lookalike)).toBe(false);
    for (const value of [null, undefined, "SkillctxError", 1, {}]) expect(SkillctxError.isInstance(value)).toBe(false);
  });

  it("keeps the cause, and its codes are one sorted list without repeats", () => {
    const cause = new Error("low");
    expect(new SkillctxError("READ_FAILED", "m", { cause }).cause).toBe(cause);
    expect([...SKILLCTX_ERROR_CODES].sort()).toEqual([...SKILLCTX_ERROR_CODES]);
    expect(new Set(SKILLCTX_ERROR_CODES).size).toBe(SKILLCTX_ERROR_CODES.length);
    expect(isSkillctxErrorCode("YAML_INVALID")).toBe(true);
    expect(isSkillctxErrorCode("NAME_DIR_MISMATCH")).toBe(false);
  });
});
