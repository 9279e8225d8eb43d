// The test files `pnpm test:slow` runs and `pnpm test` leaves out (vitest.slow.config.ts, vitest.fast.config.ts);
// CI runs both. A file belongs here when it is a slow stage rather than a unit or end-to-end check: adversarial
// tests (each case a fresh Node process with tsx, bounded in time and memory, on hostile or huge inputs) and
// whole-fleet or large-input runs. Listed by path, reviewed by hand (never chosen by timing at run time);
// test/slow-files.test.ts checks that each path exists, so a renamed file fails loudly instead of moving back.
export const SLOW_TEST_FILES: readonly string[] = [
  "test/adversarial/adapters-ai-sdk-agents.test.ts",
  "test/adversarial/adapters-langchain.test.ts",
  "test/adversarial/adapters-openai-anthropic.test.ts",
  "test/adversarial/catalog-notes.test.ts",
  "test/adversarial/cli.test.ts",
  "test/adversarial/code-tools.test.ts",
  "test/adversarial/conventions.test.ts",
  "test/adversarial/engine.test.ts",
  "test/adversarial/events.test.ts",
  "test/adversarial/events-and-spans.test.ts",
  "test/adversarial/files.test.ts",
  "test/adversarial/globs.test.ts",
  "test/adversarial/imports.test.ts",
  "test/adversarial/invocation.test.ts",
  "test/adversarial/lock-and-sync.test.ts",
  "test/adversarial/markdown.test.ts",
  "test/adversarial/mcp.test.ts",
  "test/adversarial/mcp-http-listeners.test.ts",
  "test/adversarial/name-precedence.test.ts",
  "test/adversarial/nested-notes-budget.test.ts",
  "test/adversarial/parsing.test.ts",
  "test/adversarial/peer-conventions.test.ts",
  "test/adversarial/processes.test.ts",
  "test/adversarial/prompt-escape.test.ts",
  "test/adversarial/reload-signatures.test.ts",
  "test/adversarial/script-tools.test.ts",
  "test/adversarial/signature-gate.test.ts",
  "test/adversarial/skills-consume.test.ts",
  "test/adversarial/skill-files.test.ts",
  "test/adversarial/skill-search.test.ts",
  "test/adversarial/skills-serve.test.ts",
  "test/adversarial/skills-serve-http.test.ts",
  "test/adversarial/serve-auth-fail-closed.test.ts",
  "test/adversarial/serve-http-bounded.test.ts",
  "test/adversarial/cache-lock-processes.test.ts",
  "test/adversarial/cache-files.test.ts",
  "test/adversarial/disk-cache.test.ts",
  "test/adversarial/home-not-project.test.ts",
  "test/adversarial/sources.test.ts",
  "test/adversarial/sub-agent.test.ts",
  "test/adversarial/walk.test.ts",
  // The first-loop pages type-checked against every framework's declarations in one program (~50 s).
  "test/first-loop.test.ts",
  // The conformance adapters of four agent frameworks: importing them is most of the time (~700 packages).
  "packages/conformance/src/adapters/peers.test.ts",
  // Cold start of the built packages: child processes that log every module they load (bench-like).
  "test/cold-start-imports.test.ts",
  // Three `serve --http` replicas behind HAProxy with 50 clients (scripts/serve-fleet-lb.mjs, a short run).
  "test/serve-fleet.test.ts",
  // `serve --http` child processes for tokens, rebinding, live updates and the drain (which waits out its 5 s bound).
  "test/skills-serve-http.test.ts",
];
