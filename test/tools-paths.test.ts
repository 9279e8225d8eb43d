import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isInside } from "@skillctx/core/internal";
import { checkRelativePath } from "../packages/engine/src/tools/skill-paths.js";

const ROOT = "/skills/pdf-forms";

// Characters that make up traversal attempts, mixed with ordinary ones.
const pathChar = fc.constantFrom(
  "a",
  "b",
  ".",
  "/",
  "\\",
  "%",
  "2",
  "e",
  "f",
  "5",
  "c",
  "0",
  "~",
  ":",
  "\u0000",
  " ",
  "é",
);

describe("checkRelativePath (property)", () => {
  it("never accepts a path that resolves outside the root, or that holds NUL, backslash or an encoded dot or separator", () => {
    fc.assert(
      fc.property(
        fc.array(pathChar, { maxLength: 24 }).map((chars) => chars.join("")),
        (input) => {
          const checked = checkRelativePath(input);
          if (!checked.ok) return;
          const resolved = path.resolve(ROOT, checked.path);
          expect(isInside(resolved, ROOT)).toBe(true);
          expect(resolved).not.toBe(ROOT);
          expect(checked.path).not.toMatch(/[\u0000\\]|%(2e|2f|5c|25|00)/i);
          expect(checked.path.split("/")).not.toContain("..");
          expect(path.isAbsolute(checked.path)).toBe(false);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("accepts ordinary relative paths and normalises ./ and repeated slashes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9_-][a-z0-9_.-]{0,8}$/), { minLength: 1, maxLength: 4 }),
        (segments) => {
          fc.pre(segments.every((s) => s !== ".." && s !== "."));
          const checked = checkRelativePath(`./${segments.join("//")}`);
          expect(checked).toEqual({ ok: true, path: segments.join("/") });
        },
      ),
    );
  });
});
