/** Where a command writes; tests pass their own sinks. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** Exit codes shared by every command: 0 ok, 1 findings or failure, 2 bad usage. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** A usage mistake: the dispatcher prints the message and the command's usage, exit 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** One CLI command. */
export interface CliCommand {
  /** One line shown in `skillctx --help`. */
  summary: string;
  /** The usage line(s), shown on bad usage. */
  usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}
