import { describe, expect, it } from "vitest";
import { digestBytes } from "@skillctx/core/internal";
import { revisionOf } from "./mcp-source.js";

describe("revisionOf", () => {
  // U+10000 is one code point above U+E000, but its UTF-16 lead unit (U+D800) sorts below U+E000.
  const astral = { uri: "skill://a/\u{10000}", digest: "sha256:1" };
  const privateUse = { uri: "skill://a/\uE000", digest: "sha256:2" };

  it("orders skills by code point, not by UTF-16 unit", () => {
    const expected = digestBytes(`${privateUse.uri}\0${privateUse.digest}\n${astral.uri}\0${astral.digest}\n`);
    const utf16Order = digestBytes(`${astral.uri}\0${astral.digest}\n${privateUse.uri}\0${privateUse.digest}\n`);
    expect(revisionOf([astral, privateUse])).toBe(expected);
    expect(revisionOf([privateUse, astral])).toBe(expected);
    expect(expected).not.toBe(utf16Order);
  });
});
