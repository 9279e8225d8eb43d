#!/usr/bin/env node
// The `skillctx` command. A committed file rather than a built one, so that installing the monorepo links
// the bin before anything is built (pnpm warns about a bin whose file does not exist).
//
// Node's own compile cache first (Node 22.1+; an older Node has none): a run after the first reads the
// compiled code of the modules it loads from disk instead of compiling them again. Then the CLI, whose entry
// holds only the dispatcher and help: each command's module is imported when it runs.
import module from "node:module";

module.enableCompileCache?.();

let cli;
try {
  cli = await import("@skillctx/cli");
} catch (error) {
  // In the repository before a build, @skillctx/cli's dist does not exist yet.
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("/cli/dist/")) throw error;
  process.stderr.write(
    "skillctx: the CLI is not built (no @skillctx/cli dist). In the skillctx repository, run: npx -y pnpm@10.34.9 build\n",
  );
  process.exitCode = 1;
}
// `main` never rejects: it reports every failure itself and sets the exit code.
await cli?.main(process.argv.slice(2));
