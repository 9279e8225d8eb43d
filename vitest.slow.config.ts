import { defineConfig } from "vitest/config";
import all from "./vitest.config.js";
import { SLOW_TEST_FILES } from "./test/slow-files.js";

// `pnpm test:slow`: the slow files only (test/slow-files.ts); `pnpm test` runs the rest.
export default defineConfig({
  ...all,
  test: { ...all.test, include: [...SLOW_TEST_FILES] },
});
