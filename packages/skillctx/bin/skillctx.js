#!/usr/bin/env node
// The `skillctx` command. A committed file rather than a built one, so that installing the monorepo links
// the bin before anything is built (pnpm warns about a bin whose file does not exist).
//
// Node's own compile cache first (Node 22.1+; an older Node has none): a run after the first reads the
// compiled code of the modules it loads from disk instead of compiling them again. Then the CLI, whose entry
// holds only the dispatcher and help: each command's module is imported when it runs.
//
// The compile cache lives in the user's skillctx cache folder (`$XDG_CACHE_HOME/skillctx/node-compile-cache`,
// else `~/.cache/skillctx/...`), not in Node's default under the shared temporary directory, and is checked
// before Node is told to read it: Node opens its entries with a blocking read, so one FIFO there (or a
// symlink to one, a device, a socket) would hang every start. Anything but folders of regular files, and
// the cache is not enabled for this run, with one warning line (CACHE_FILE_NOT_REGULAR).
import { lstatSync, readdirSync } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import path from "node:path";

if (typeof module.enableCompileCache === "function" && process.env.NODE_COMPILE_CACHE === undefined) {
  const xdg = process.env.XDG_CACHE_HOME;
  const cacheDir = path.join(
    xdg !== undefined && path.isAbsolute(xdg) ? path.join(xdg, "skillctx") : path.join(homedir(), ".cache", "skillctx"),
    "node-compile-cache",
  );
  const unsafe = notRegular(cacheDir);
  if (unsafe === undefined) module.enableCompileCache(cacheDir);
  else
    process.stderr.write(
      `skillctx: warning CACHE_FILE_NOT_REGULAR ${JSON.stringify(unsafe)} is not a regular file: Node's compile cache is off for this run\n`,
    );
}

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

// The first entry of the compile cache folder that is not what Node writes there (a folder per Node
// version holding regular files), or undefined. A missing folder is fine: Node creates it.
function notRegular(dir) {
  const kind = (file) => {
    try {
      // bigint: Node 20 keeps a plain lstat's result in an array its module resolver reads too, and a
      // FIFO's mode left there made the next imports load @skillctx/core twice (seen on 20.x, not on 24).
      const stats = lstatSync(file, { bigint: true });
      return stats.isDirectory() ? "dir" : stats.isFile() ? "file" : "other";
    } catch (error) {
      return error?.code === "ENOENT" ? "none" : "other";
    }
  };
  const top = kind(dir);
  if (top === "none") return undefined;
  if (top !== "dir") return dir;
  for (const version of readdirSync(dir)) {
    const folder = path.join(dir, version);
    if (kind(folder) !== "dir") return folder;
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      if (kind(file) !== "file") return file;
    }
  }
  return undefined;
}
