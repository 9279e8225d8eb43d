#!/usr/bin/env node
// The `skillctx` command. A committed file rather than a built one, so that installing the monorepo links
// the bin before anything is built (pnpm warns about a bin whose file does not exist).
//
// CommonJS on purpose, as are the two files of @skillctx/cli it requires (each one bundle): a command line that
// may ask for help or the version goes to the CLI's front door (`front.cjs`, a few kilobytes), anything else,
// and anything the front door leaves, to its `main` (`main.cjs`, every command). Node starts and compiles these
// several times faster than the same code as ES module chunks (docs/performance.md, "Start-up"). `main`
// answers help too, so this routing changes only how fast, never what.
"use strict";

const argv = process.argv.slice(2);
const first = argv[0];
const mayAskForHelp =
  first === undefined || first === "help" || first.startsWith("-") || argv.includes("--help") || argv.includes("-h");

/** Says how to build when `file` of @skillctx/cli is missing (the CLI is not built); rethrows anything else. */
function notBuilt(error, file) {
  // In the repository before a build, @skillctx/cli's dist does not exist yet.
  const missing = error?.code === "MODULE_NOT_FOUND";
  if (!missing || !String(error.message).includes(file)) throw error;
  process.stderr.write(
    "skillctx: the CLI is not built (no @skillctx/cli dist). In the skillctx repository, run: npx -y pnpm@10.34.9 build\n",
  );
  process.exitCode = 1;
}

let answered = false;
if (mayAskForHelp) {
  try {
    answered = require("@skillctx/cli/front").answer(argv);
  } catch (error) {
    notBuilt(error, "front.cjs");
    answered = true;
  }
}
if (!answered) {
  let cli;
  try {
    // Through a V8 code cache: a run after the first compiles almost nothing (docs/performance.md).
    cli = require("@skillctx/cli/compile-cache").requireCached(require.resolve("@skillctx/cli/main")).exports;
  } catch (error) {
    notBuilt(error, ".cjs");
  }
  // `main` never rejects: it reports every failure itself and sets the exit code.
  void cli?.main(argv);
}
