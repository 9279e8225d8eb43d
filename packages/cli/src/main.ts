import { printableLine } from "./format.js";
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK } from "./io.js";
import { runCli } from "./run.js";

/** How long an interrupted command may take to close what it started before the process exits anyway. */
const INTERRUPT_GRACE_MS = 8_000;

/**
 * The `skillctx` process: runs the CLI on the real streams and turns the process's events into the
 * command's signal.
 *
 * - Ctrl-C (SIGINT) or SIGTERM aborts the command: the engine's context closes, which kills the
 *   process groups of running commands and stops MCP servers; exit 130 (143 for SIGTERM). A second
 *   Ctrl-C, or a command that has not stopped after the grace period, exits at once.
 * - A closed stdout (`skillctx list --json | head -c 100`) is not an error: further output is dropped,
 *   the command is stopped the same way, and the exit code is 0, with nothing on stderr.
 * - An error no command caught is one line on stderr (its stack with `--debug`), exit 1.
 */
export async function main(argv: string[]): Promise<void> {
  const controller = new AbortController();
  let interrupted: number | undefined;
  let stdoutClosed = false;

  const stop = (code: number) => {
    if (interrupted !== undefined) process.exit(interrupted);
    interrupted = code;
    controller.abort(new Error(code === EXIT_INTERRUPTED ? "interrupted" : "terminated"));
    setTimeout(() => process.exit(code), INTERRUPT_GRACE_MS).unref();
  };
  process.on("SIGINT", () => stop(EXIT_INTERRUPTED));
  process.on("SIGTERM", () => stop(143));

  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (stdoutClosed) return;
    stdoutClosed = true;
    if (error.code !== "EPIPE") process.stderr.write(`skillctx: cannot write to stdout: ${error.message}\n`);
    controller.abort(new Error("stdout closed"));
  });
  // Nothing sensible is left to say when stderr itself is gone.
  process.stderr.on("error", () => {});
  // An error that escaped every command (a bug): one line, the stack only with --debug, exit 1.
  const debug = argv.slice(0, argv.includes("--") ? argv.indexOf("--") : argv.length).includes("--debug");
  // Core's errorText is imported here, not up front: help and --version load no other package.
  const crash = (error: unknown) => {
    if (stdoutClosed || interrupted !== undefined) process.exit(stdoutClosed ? EXIT_OK : interrupted);
    void import("@skillctx/core/internal").then(({ errorText }) => {
      process.stderr.write(`skillctx: ${printableLine(errorText(error))}\n`);
      if (debug && error instanceof Error && error.stack !== undefined) process.stderr.write(`${error.stack}\n`);
      process.exit(EXIT_FINDINGS);
    });
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);

  const io = {
    stdout: { write: (text: string) => (stdoutClosed ? true : process.stdout.write(text)) },
    stderr: { write: (text: string) => process.stderr.write(text) },
    signal: controller.signal,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
  const code = await runCli(argv, io);
  process.exitCode = stdoutClosed ? EXIT_OK : (interrupted ?? code);
}
