import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";
import all from "./vitest.config.js";
import { SLOW_TEST_FILES } from "./test/slow-files.js";

// `pnpm test`: every test but the slow files (test/slow-files.ts), which `pnpm test:slow` runs.
// At least two files at a time: vitest's default (cores − 1) is one on a two-core machine, where most of these
// tests wait on child processes (CLI, MCP servers, scripts); two workers took 35 % less time there, at the same
// CPU time. The slow files keep the default, so their time bounds are measured one file at a time.
export default defineConfig({
  ...all,
  test: {
    ...all.test,
    exclude: [...configDefaults.exclude, ...SLOW_TEST_FILES],
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
