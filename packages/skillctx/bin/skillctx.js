#!/usr/bin/env node
// The `skillctx` command: runs `@skillctx/cli`. A committed file rather than a built one, so that installing
// the monorepo links the bin before anything is built (pnpm warns about a bin whose file does not exist).
// `@skillctx/cli` imports only the dispatcher: help and --version load no command, engine or YAML parser.
let cli;
try {
  cli = await import("@skillctx/cli");
} catch (error) {
  // In the repository before a build, `@skillctx/cli` resolves to a dist/index.js that does not exist yet.
  const notBuilt = error?.code === "ERR_MODULE_NOT_FOUND" && String(error.url).endsWith("/@skillctx/cli/dist/index.js");
  if (!notBuilt) throw error;
  process.stderr.write(
    "skillctx: the CLI is not built (no @skillctx/cli dist). In the skillctx repository, run: npx -y pnpm@10.34.9 build\n",
  );
  process.exitCode = 1;
}
if (cli !== undefined) await cli.main(process.argv.slice(2));
