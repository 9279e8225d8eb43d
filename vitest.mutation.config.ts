import { configDefaults, defineConfig } from "vitest/config";
import all from "./vitest.config.js";

// `pnpm mutation` (scripts/mutation.mjs): the unit tests of one mutation target, named by the script in
// SKILLCTX_MUTATION_TESTS (comma-separated files). No global setup: the corpus and the tool probes serve the
// end-to-end tests, which a target does not list. The fuzz tests run with a fixed seed so that two runs of one
// target kill the same mutants.
process.env.SKILLCTX_FUZZ_SEED ??= "38";
const files = (process.env.SKILLCTX_MUTATION_TESTS ?? "").split(",").filter((file) => file !== "");
if (files.length === 0) throw new Error("vitest.mutation.config.ts: SKILLCTX_MUTATION_TESTS names no test file");

export default defineConfig({
  ...all,
  test: {
    ...all.test,
    include: files,
    exclude: [...configDefaults.exclude],
    globalSetup: [],
  },
});
