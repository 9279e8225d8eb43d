import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandString, expandVars, MAX_EXPAND_DEPTH } from "./expand-vars.js";

const env = { HOME: "/home/me", EMPTY: "", TOKEN: "t0k" };

describe("expandString", () => {
  it("expands ${VAR} and ${VAR:-default} like a POSIX shell", () => {
    expect(expandString("${HOME}/bin", { env })).toEqual({ value: "/home/me/bin", unresolved: [], overflow: false });
    expect(expandString("${MISSING:-fallback}", { env })).toEqual({
      value: "fallback",
      unresolved: [],
      overflow: false,
    });
    expect(expandString("${EMPTY:-fallback}", { env })).toEqual({ value: "fallback", unresolved: [], overflow: false });
    expect(expandString("[${EMPTY}]", { env })).toEqual({ value: "[]", unresolved: [], overflow: false });
    expect(expandString("${MISSING:-}", { env })).toEqual({ value: "", unresolved: [], overflow: false });
    expect(expandString("Bearer ${TOKEN} ${TOKEN}", { env })).toEqual({
      value: "Bearer t0k t0k",
      unresolved: [],
      overflow: false,
    });
  });

  it("leaves unresolved references as written and lists them", () => {
    expect(expandString("a ${NOPE} b ${HOME}", { env })).toEqual({
      value: "a ${NOPE} b /home/me",
      unresolved: ["NOPE"],
      overflow: false,
    });
  });

  it("does not touch $VAR, $$ or malformed references", () => {
    for (const text of ["$HOME", "$${", "${", "${1BAD}", "${A B}", "${}"]) {
      expect(expandString(text, { env }).value).toBe(text);
    }
  });

  it("lets fixed variables win, even when they are unset", () => {
    expect(
      expandString("${SKILL_ROOT}", { env: { SKILL_ROOT: "/from/env" }, fixed: { SKILL_ROOT: "/skill" } }).value,
    ).toBe("/skill");
    expect(
      expandString("${SKILL_ROOT}", { env: { SKILL_ROOT: "/from/env" }, fixed: { SKILL_ROOT: undefined } }),
    ).toEqual({
      value: "${SKILL_ROOT}",
      unresolved: ["SKILL_ROOT"],
      overflow: false,
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

describe("expandString limits", () => {
  it("stops at maxChars instead of building a huge string, and says so", () => {
    const bomb = "${BIG}".repeat(10_000);
    const out = expandString(bomb, { env: { BIG: "x".repeat(10_000) }, maxChars: 1_000_000 });
    expect(out).toEqual({ value: "", unresolved: [], overflow: true });
    expect(expandString("${A}${A}", { env: { A: "12345" }, maxChars: 10 })).toEqual({
      value: "1234512345",
      unresolved: [],
      overflow: false,
    });
    expect(expandString("${A}${A}!", { env: { A: "12345" }, maxChars: 10 }).overflow).toBe(true);
  });

  it("reads only own entries of env, never inherited names such as toString", () => {
    expect(expandString("${toString}${constructor}", { env: {} })).toEqual({
      value: "${toString}${constructor}",
      unresolved: ["toString", "constructor"],
      overflow: false,
    });
  });
});

describe("expandVars", () => {
  it("expands keys and values at every depth without changing the input", () => {
    const input = { "${NAME}": { args: ["--home", "${HOME}"], env: { "${KEY:-K}": "${TOKEN}" }, n: 3, ok: true } };
    const copy = structuredClone(input);
    const out = expandVars(input, { env: { ...env, NAME: "srv" } });
    expect(out).toEqual({
      value: { srv: { args: ["--home", "/home/me"], env: { K: "t0k" }, n: 3, ok: true } },
      unresolved: [],
      overflow: false,
    });
    expect(input).toEqual(copy);
  });

  it("bounds all strings together by maxChars and refuses nesting deeper than MAX_EXPAND_DEPTH", () => {
    const many = Array.from({ length: 100 }, () => "${TEN}");
    expect(expandVars(many, { env: { TEN: "0123456789" }, maxChars: 1000 }).overflow).toBe(false);
    expect(expandVars([...many, "x"], { env: { TEN: "0123456789" }, maxChars: 1000 }).overflow).toBe(true);
    let deep: unknown = "leaf";
    for (let i = 0; i < MAX_EXPAND_DEPTH + 5; i++) deep = [deep];
    expect(expandVars(deep, { env: {} }).overflow).toBe(true);
    expect(expandVars({ a: [{ b: ["${X}"] }] }, { env: { X: "ok" } })).toEqual({
      value: { a: [{ b: ["ok"] }] },
      unresolved: [],
      overflow: false,
    });
  });

  it("keeps a __proto__ key as a plain key", () => {
    const out = expandVars(JSON.parse('{"__proto__":{"polluted":"${X}"}}'), { env: { X: "yes" } }).value as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("reports each unresolved name once", () => {
    expect(expandVars(["${A}", { x: "${A}${B}" }], { env: {} }).unresolved).toEqual(["A", "B"]);
  });
});
