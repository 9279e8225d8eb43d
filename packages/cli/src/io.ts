/** Where a command writes, and the signal that stops it (Ctrl-C, a closed stdout); tests pass their own. */
export interface CliIo {
  /** Data: what the command is for (a table, a catalog, one JSON document). */
  stdout: { write(text: string): unknown };
  /** Diagnostics, summaries and errors, for people. */
  stderr: { write(text: string): unknown };
  /** Aborted on Ctrl-C (SIGINT), SIGTERM or a closed stdout: the command stops what runs and returns. */
  signal?: AbortSignal | undefined;
  /** The terminal's width when stdout is a terminal: help wraps to it and `list` fits its table in it. Unset: 80 for help, no fitting. */
  columns?: number | undefined;
}

/** Exit codes shared by every command. */
export const EXIT_OK = 0;
/** The command ran and reported an error-severity finding, or it failed. */
export const EXIT_FINDINGS = 1;
/** Bad usage: an unknown command or option, a missing argument, a `--cwd` that is not a folder. */
export const EXIT_USAGE = 2;
/** Interrupted (Ctrl-C): 128 + SIGINT, as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** A usage mistake: the dispatcher prints one line naming the command, exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** What a command module exports; its name, summary and help live in the static table of `commands.ts`. */
export interface CliCommand {
  run(argv: string[], io: CliIo): Promise<number>;
}
