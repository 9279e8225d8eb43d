import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string, file = "index.ts") =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${file}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources; the CLI end-to-end tests run the build.
    alias: [
      { find: /^@skillctx\/core\/internal$/, replacement: src("core", "internal.ts") },
      { find: /^@skillctx\/core\/schemas$/, replacement: src("core", "schemas.ts") },
      { find: /^@skillctx\/core$/, replacement: src("core") },
      { find: /^@skillctx\/process\/internal$/, replacement: src("process", "internal.ts") },
      { find: /^@skillctx\/process$/, replacement: src("process") },
      { find: /^@skillctx\/render$/, replacement: src("render") },
      { find: /^@skillctx\/compat$/, replacement: src("compat") },
      { find: /^@skillctx\/mcp-bridge\/internal$/, replacement: src("mcp-bridge", "internal.ts") },
      { find: /^@skillctx\/mcp-bridge\/schemas$/, replacement: src("mcp-bridge", "schemas.ts") },
      { find: /^@skillctx\/mcp-bridge$/, replacement: src("mcp-bridge") },
      { find: /^@skillctx\/sources\/(resolve|protocol)$/, replacement: src("sources", "$1.ts") },
      { find: /^@skillctx\/sources$/, replacement: src("sources") },
      { find: /^@skillctx\/engine\/(internal|schemas)$/, replacement: src("engine", "$1.ts") },
      { find: /^@skillctx\/engine$/, replacement: src("engine") },
      { find: /^@skillctx\/skills-mcp$/, replacement: src("skills-mcp") },
      { find: /^@skillctx\/cli$/, replacement: src("cli") },
      { find: /^@skillctx\/conformance$/, replacement: src("conformance") },
      { find: /^skillctx$/, replacement: src("skillctx") },
      // The adapters' subpath exports (skillctx/ai-sdk, skillctx/openai, ...): one entry file each.
      {
        find: /^skillctx\/(ai-sdk|openai|openai-agents|anthropic|langchain|ag-ui)$/,
        replacement: src("skillctx", "$1.ts"),
      },
      { find: /^skillctx\/serve$/, replacement: src("skillctx", "serve.ts") },
      { find: /^skillctx\/schemas$/, replacement: src("skillctx", "schemas.ts") },
    ],
  },
  // Every test. `pnpm test` runs vitest.fast.config.ts (all but the slow files), `pnpm test:slow`
  // vitest.slow.config.ts (the slow files, listed in test/slow-files.ts); `npx vitest run <file>` runs any one.
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/setup/corpus.ts", "test/setup/tools.ts"],
    // Contexts keep their persistent scan cache here, not in the user's cache folder (issue 36).
    env: { SKILLCTX_CACHE_DIR: path.join(tmpdir(), `skillctx-test-cache-${process.pid}`) },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    benchmark: { include: ["bench/**/*.bench.ts", "packages/*/src/**/*.bench.ts"] },
  },
});
