import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources; the CLI end-to-end tests run the build.
    alias: {
      "@skillctx/core": src("core"),
      "@skillctx/render": src("render"),
      "@skillctx/compat": src("compat"),
      "@skillctx/mcp-bridge": src("mcp-bridge"),
      skillctx: src("skillctx"),
    },
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    benchmark: { include: ["bench/**/*.bench.ts", "packages/*/src/**/*.bench.ts"] },
  },
});
