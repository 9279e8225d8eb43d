import { configDefaults, defineConfig } from "vitest/config";
import all from "./vitest.config.js";
import { SLOW_TEST_FILES } from "./test/slow-files.js";

// `pnpm test`: every test but the slow files (test/slow-files.ts), which `pnpm test:slow` runs.
export default defineConfig({
  ...all,
  test: { ...all.test, exclude: [...configDefaults.exclude, ...SLOW_TEST_FILES] },
});
