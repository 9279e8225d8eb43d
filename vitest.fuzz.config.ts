import { defineConfig } from "vitest/config";
import all from "./vitest.config.js";

// `pnpm fuzz`: the fuzz harness alone (test/fuzz), with many inputs per target. `pnpm test` runs the same
// files with SKILLCTX_FUZZ_RUNS unset (60 inputs per target). A failure prints SKILLCTX_FUZZ_SEED to replay.
process.env.SKILLCTX_FUZZ_RUNS ??= "5000";
export default defineConfig({
  ...all,
  test: {
    ...all.test,
    include: ["test/fuzz/**/*.fuzz.test.ts"],
    globalSetup: [],
    testTimeout: 1_800_000,
  },
});
