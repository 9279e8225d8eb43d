/**
 * `@skillctx/cli/front`: the `skillctx` bin's first step, built as one CommonJS file (`dist/front.cjs`).
 * The bin requires it before anything else; what it answers (help, `--version`, a mistyped command)
 * never starts Node's ES module loader, which alone costs a cold process about 7 % of `node -e 0`
 * (docs/performance.md, "Start-up"). Any other command line is left to `main`, imported after it.
 */
import { frontDoor } from "./front-door.js";

/**
 * Answers `argv` (without node and the script) when it needs no command module, and then sets
 * `process.exitCode` and returns true; returns false, having written nothing, when a command is to run.
 * A closed stdout (`skillctx --help | head -1`) is not an error.
 */
export function answer(argv: string[]): boolean {
  let stdoutClosed = false;
  const io = {
    stdout: { write: (text: string) => stdoutClosed || process.stdout.write(text) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
  // The help is all there is to write: a reader that went away (EPIPE) has what it wanted.
  const closed = (error: NodeJS.ErrnoException) => {
    stdoutClosed = true;
    if (error.code !== "EPIPE") process.stderr.write(`skillctx: cannot write to stdout: ${error.message}\n`);
  };
  process.stdout.on("error", closed);
  const door = frontDoor(argv, io);
  if (!("answered" in door)) {
    process.stdout.off("error", closed);
    return false;
  }
  process.exitCode = door.answered;
  return true;
}
