import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SLOW_TEST_FILES } from "./slow-files.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

describe("the slow test list (pnpm test:slow)", () => {
  it("names files that exist, once each, so that pnpm test and pnpm test:slow together run every test", () => {
    const missing = SLOW_TEST_FILES.filter((file) => !existsSync(path.join(ROOT, file)));
    expect(missing, `test/slow-files.ts names files that do not exist: ${missing.join(", ")}`).toEqual([]);
    expect(new Set(SLOW_TEST_FILES).size).toBe(SLOW_TEST_FILES.length);
    expect(SLOW_TEST_FILES.every((file) => file.endsWith(".test.ts"))).toBe(true);
  });

  it("holds every adversarial test file", () => {
    const adversarial = readdirSync(path.join(ROOT, "test/adversarial"))
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => `test/adversarial/${name}`);
    expect(adversarial.filter((file) => !SLOW_TEST_FILES.includes(file))).toEqual([]);
  });
});
