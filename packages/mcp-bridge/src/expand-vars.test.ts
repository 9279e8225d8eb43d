import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandString, expandVars } from "./expand-vars.js";

const env = { HOME: "/home/me", EMPTY: "", TOKEN: "t0k" };

describe("expandString", () => {
  it("expands ${VAR} and ${VAR:-default} like a POSIX shell", () => {
    expect(expandString("${HOME}/bin", { env })).toEqual({ value: "/home/me/bin", unresolved: [] });
    expect(expandString("${MISSING:-fallback}", { env })).toEqual({ value: "fallback", unresolved: [] });
    expect(expandString("${EMPTY:-fallback}", { env })).toEqual({ value: "fallback", unresolved: [] });
    expect(expandString("[${EMPTY}]", { env })).toEqual({ value: "[]", unresolved: [] });
    expect(expandString("${MISSING:-}", { env })).toEqual({ value: "", unresolved: [] });
    expect(expandString("Bearer ${TOKEN} ${TOKEN}", { env })).toEqual({ value: "Bearer t0k t0k", unresolved: [] });
  });

  it("leaves unresolved references as written and lists them", () => {
    expect(expandString("a ${NOPE} b ${HOME}", { env })).toEqual({ value: "a ${NOPE} b /home/me", unresolved: ["NOPE"] });
  });

  it("does not touch $VAR, $$ or malformed references", () => {
    for (const text of ["$HOME", "$${", "${", "${1BAD}", "${A B}", "${}"]) {
      expect(expandString(text, { env }).value).toBe(text);
    }
  });

  it("lets fixed variables win, even when they are unset", () => {
    expect(expandString("${SKILL_ROOT}", { env: { SKILL_ROOT: "/from/env" }, fixed: { SKILL_ROOT: "/skill" } }).value).toBe("/skill");
    expect(expandString("${SKILL_ROOT}", { env: { SKILL_ROOT: "/from/env" }, fixed: { SKILL_ROOT: undefined } })).toEqual({
      value: "${SKILL_ROOT}",
      unresolved: ["SKILL_ROOT"],
    });
  });

  it("substitutes any value verbatim and leaves text without references alone (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (before, value, after) => {
        fc.pre(!before.includes("${") && !after.includes("${") && !before.endsWith("$"));
        expect(expandString(before + after, { env: {} }).value).toBe(before + after);
        expect(expandString(`${before}\${X}${after}`, { env: { X: value } }).value).toBe(before + value + after);
      }),
    );
  });
});

describe("expandVars", () => {
  it("expands keys and values at every depth without changing the input", () => {
    const input = { "${NAME}": { args: ["--home", "${HOME}"], env: { "${KEY:-K}": "${TOKEN}" }, n: 3, ok: true } };
    const copy = structuredClone(input);
    const out = expandVars(input, { env: { ...env, NAME: "srv" } });
    expect(out).toEqual({ value: { srv: { args: ["--home", "/home/me"], env: { K: "t0k" }, n: 3, ok: true } }, unresolved: [] });
    expect(input).toEqual(copy);
  });

  it("reports each unresolved name once", () => {
    expect(expandVars(["${A}", { x: "${A}${B}" }], { env: {} }).unresolved).toEqual(["A", "B"]);
  });
});
