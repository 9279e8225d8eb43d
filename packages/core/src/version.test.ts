import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SKILLCTX_VERSION } from "./version.js";

describe("SKILLCTX_VERSION", () => {
  it("is the version of @skillctx/core's package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(SKILLCTX_VERSION).toBe(pkg.version);
  });
});
