#!/usr/bin/env node
// The `skillctx` command. A committed file rather than dist/cli.js itself, so that installing the
// monorepo links the bin before anything is built (pnpm warns about a bin whose file does not exist).
import { fileURLToPath } from "node:url";

const cli = new URL("../dist/cli.js", import.meta.url);
try {
  await import(cli.href);
} catch (error) {
  const notBuilt = error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes(`'${fileURLToPath(cli)}'`);
  if (!notBuilt) throw error;
  process.stderr.write(
    "skillctx: the CLI is not built (no dist/cli.js). In the skillctx repository, run: npx -y pnpm@10.34.9 build\n",
  );
  process.exitCode = 1;
}
